#include "accounts/api_key.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "core/random.hpp"
#include "core/text.hpp"
#include "core/wrapping.hpp"

namespace toolcalc::accounts {
namespace {

// A token68 has no whitespace inside.
bool has_space(std::string_view s) {
  return std::memchr(s.data(), ' ', s.size()) != nullptr ||
         std::memchr(s.data(), '\t', s.size()) != nullptr;
}

const EVP_MD* sha256() {
  // Fetched once: an implicit fetch on every EVP_Digest call costs a provider lookup.
  static const EVP_MD* md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (!m) throw std::runtime_error("OpenSSL: SHA256 is not available");
    return m;
  }();
  return md;
}

}  // namespace

std::string generate_api_key(KeyKind kind) {
  std::string key(kind == KeyKind::Live ? kLiveKeyPrefix : kTestKeyPrefix);
  append_random_base62(key, kKeyLength - key.size());
  return key;
}

std::string_view key_prefix(std::string_view key) {
  return key.substr(0, kKeyPrefixLength);
}

bool is_key_prefix(std::string_view prefix) {
  if (prefix.size() != kKeyPrefixLength) return false;
  if (!prefix.starts_with(kLiveKeyPrefix) && !prefix.starts_with(kTestKeyPrefix)) return false;
  for (char c : prefix.substr(8))
    if (!is_base62(c)) return false;
  return true;
}

std::string generate_api_key_with_prefix(std::string_view prefix) {
  if (!is_key_prefix(prefix)) throw std::invalid_argument("not a key prefix");
  std::string key(prefix);
  append_random_base62(key, kKeyLength - key.size());
  return key;
}

bool is_well_formed_key(std::string_view key) {
  if (key.size() != kKeyLength) return false;
  if (!key.starts_with(kLiveKeyPrefix) && !key.starts_with(kTestKeyPrefix)) return false;
  for (char c : key.substr(8))
    if (!is_base62(c)) return false;
  return true;
}

std::string hash_api_key(std::string_view key) {
  // One digest context per thread, reused: EVP_Digest would allocate one per call.
  struct CtxDeleter {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
  };
  thread_local std::unique_ptr<EVP_MD_CTX, CtxDeleter> ctx(EVP_MD_CTX_new());
  std::string out(32, '\0');
  unsigned int len = 0;
  if (!ctx || EVP_DigestInit_ex2(ctx.get(), sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), key.data(), key.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1 ||
      len != 32)
    throw std::runtime_error("OpenSSL: SHA-256 failed");
  return out;
}

bool same_digest(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

namespace {

// A fixed-length key as five 8-byte words, for the cache's slot and comparison.
struct KeyWords {
  uint64_t w[kKeyLength / 8] = {};
  KeyWords() = default;
  explicit KeyWords(std::string_view key) { std::memcpy(w, key.data(), sizeof w); }
};
static_assert(kKeyLength % 8 == 0);

// Compares every word whatever the earlier ones held: no early exit, so a client cannot
// learn a cached key byte by byte from response times (as CRYPTO_memcmp, a word at a time).
bool same_key(const KeyWords& a, const KeyWords& b) {
  uint64_t diff = 0;
  for (size_t i = 0; i < std::size(a.w); ++i) diff |= a.w[i] ^ b.w[i];
  return diff == 0;
}

}  // namespace

TOOLCALC_WRAPPING const std::string& hash_api_key_cached(std::string_view key) {
  struct Entry {
    KeyWords key;
    bool used = false;
    std::string hash;
  };
  constexpr size_t kSlots = 64;  // per thread; direct-mapped by the key's random characters
  thread_local std::array<Entry, kSlots> cache;
  thread_local std::string uncached;
  if (key.size() != kKeyLength) {
    uncached = hash_api_key(key);
    return uncached;
  }
  const KeyWords words(key);
  // Word 1 is the first 8 random characters of a well-formed key (word 0 is the "tc_live_"
  // prefix); a multiplicative hash spreads them over the slots. Not a secret.
  Entry& e = cache[(words.w[1] * 0x9E3779B97F4A7C15ull) >> 58];
  static_assert(kSlots == 64, "the slot is the top 6 bits of the product");
  if (e.used && same_key(e.key, words)) return e.hash;
  e.hash = hash_api_key(key);
  e.key = words;
  e.used = true;
  return e.hash;
}

std::optional<std::string_view> bearer_token(std::string_view authorization) {
  authorization = trim(authorization);
  constexpr std::string_view scheme = "bearer";
  if (authorization.size() <= scheme.size()) return std::nullopt;
  if (!iequals(authorization.substr(0, scheme.size()), scheme)) return std::nullopt;
  std::string_view rest = authorization.substr(scheme.size());
  if (!is_optional_whitespace(rest.front())) return std::nullopt;
  rest = trim(rest);
  if (rest.empty()) return std::nullopt;
  if (has_space(rest)) return std::nullopt;  // token68 has no spaces
  return rest;
}

}  // namespace toolcalc::accounts
