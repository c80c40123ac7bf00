#pragma once
// The API key format: `tc_live_` (or `tc_test_` for dev keys) followed
// by 32 base62 characters from the OS CSPRNG — about 190 bits, so an unsalted SHA-256 is
// enough to make the stored hash useless to whoever reads the database.
#include <optional>
#include <string>
#include <string_view>

namespace toolcalc::accounts {

enum class KeyKind { Live, Test };

inline constexpr std::string_view kLiveKeyPrefix = "tc_live_";
inline constexpr std::string_view kTestKeyPrefix = "tc_test_";
inline constexpr size_t kKeyRandomChars = 32;
inline constexpr size_t kKeyLength = 8 + kKeyRandomChars;
inline constexpr size_t kKeyPrefixLength = 12;

// A new key. Throws std::system_error if the OS random source fails.
std::string generate_api_key(KeyKind kind);

// The first 12 characters: what `keys list` shows and `keys revoke` takes.
std::string_view key_prefix(std::string_view key);

// True when `prefix` has the shape of a key's first 12 characters.
bool is_key_prefix(std::string_view prefix);

// A new key that starts with `prefix` (is_key_prefix): a rotated key keeps its prefix, so
// the key record keeps its name in `keys list`, /v1/me and logs. Its 28 other random
// characters hold about 166 bits.
std::string generate_api_key_with_prefix(std::string_view prefix);

// True when `key` has the shape of a key of either kind (not whether it exists).
bool is_well_formed_key(std::string_view key);

// SHA-256 of the key, 32 raw bytes (of any string: the admin token is hashed the same way).
std::string hash_api_key(std::string_view key);

// Whether two digests are equal, in a time that depends on their lengths only
// (CRYPTO_memcmp): for secrets compared by their SHA-256, which all have 32 bytes.
bool same_digest(std::string_view a, std::string_view b);

// The same digest for a well-formed key (kKeyLength characters), from a small per-thread
// cache of the keys this thread has seen lately: a client sends the same key on every
// request, and SHA-256 through EVP is the largest single cost of authenticating it. The
// cache lives only in process memory; a hit is decided by a constant-time comparison of
// the whole key. The reference stays valid until this thread's next call.
const std::string& hash_api_key_cached(std::string_view key);

// The credentials of an `Authorization` header value of the form `Bearer <token>` (scheme
// case-insensitive, one or more spaces, surrounding whitespace ignored); nullopt otherwise.
std::optional<std::string_view> bearer_token(std::string_view authorization);

}  // namespace toolcalc::accounts
