#pragma once
// Persistence of API keys and monthly usage, behind an interface so that a
// shared backend for several instances can replace the embedded SQLite one. The store
// never sees a plaintext key: only its prefix (for display and revocation) and its hash.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/store_errors.hpp"

namespace toolcalc::store {

struct KeyRecord {
  int64_t id = 0;
  std::string prefix;    // first 12 characters of the key
  std::string key_hash;  // 32 raw bytes: SHA-256 of the whole key
  std::string label;
  std::string plan;
  int64_t created_epoch_s = 0;
  std::optional<int64_t> revoked_epoch_s;  // nullopt while the key is active
};

struct NewKey {
  std::string prefix;
  std::string key_hash;
  std::string label;
  std::string plan;
  int64_t created_epoch_s = 0;
};

struct KeyWithUsage {
  KeyRecord key;
  int64_t used = 0;  // units recorded for the requested period
};

// Every key, read in one transaction with the key generation it reflects.
struct KeySet {
  int64_t generation = 0;
  std::vector<KeyRecord> keys;
};

enum class RevokeOutcome { Revoked, AlreadyRevoked, NotFound };

// One (key, period) usage change to add; `delta` may be negative (a released unit whose
// reservation was already flushed). Stored counts never go below zero.
struct UsageDelta {
  int64_t key_id = 0;
  std::string period;  // "YYYY-MM"
  int64_t delta = 0;
};

class AccountStore {
 public:
  virtual ~AccountStore() = default;

  // Inserts a key and bumps the key generation. Returns the new key id, or nullopt when
  // the prefix is already taken (the caller generates another key).
  virtual std::optional<int64_t> create_key(const NewKey& key) = 0;

  // Marks the key with this prefix revoked at `now_epoch_s` and bumps the key generation.
  virtual RevokeOutcome revoke_key(std::string_view prefix, int64_t now_epoch_s) = 0;

  // A counter that changes whenever a key is created or revoked, by any process using the
  // same store. Cheap: a server polls it and reloads keys only when it moved.
  virtual int64_t key_generation() = 0;

  // All keys, revoked ones included, ordered by id.
  virtual KeySet load_keys() = 0;

  // All keys with their recorded usage in `period` ("YYYY-MM"), ordered by id.
  virtual std::vector<KeyWithUsage> list_keys(std::string_view period) = 0;

  // key id → units recorded in `period`; keys without usage are absent.
  virtual std::unordered_map<int64_t, int64_t> load_usage(std::string_view period) = 0;

  // Adds every delta in one transaction: either all are recorded or none (and it throws).
  // When it returns the deltas survive the process being killed; a power loss may take
  // those added since the last checkpoint() (the embedded store commits to its
  // write-ahead log without an fsync).
  virtual void add_usage(const std::vector<UsageDelta>& deltas) = 0;

  // Makes everything added so far survive a power loss too (the embedded store: a WAL
  // checkpoint, which syncs the log and the database file). Cheap when nothing was added
  // since the last one; a no-op for stores that need none. Throws StoreError.
  virtual void checkpoint() {}
};

// The embedded store: `<data_dir>/toolcalc.db` (SQLite, WAL, synchronous = NORMAL, no
// automatic checkpoint: checkpoint() makes them, off the path of commits), creating
// `data_dir` and the schema when missing. Safe to share between threads; several
// processes (a server and `toolcalc keys`) may open the same file. Throws StoreError.
std::unique_ptr<AccountStore> open_sqlite_store(const std::filesystem::path& data_dir);

// The database file open_sqlite_store uses for `data_dir`.
std::filesystem::path sqlite_store_file(const std::filesystem::path& data_dir);

}  // namespace toolcalc::store
