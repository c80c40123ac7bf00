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
  // Limits of this key instead of its plan's (nullopt: the plan's).
  std::optional<int64_t> rate_per_minute;
  std::optional<int64_t> monthly_quota;
  // The secret the key had before its last rotation ("" when never rotated) and until
  // when it is still accepted (epoch seconds).
  std::string previous_hash;
  int64_t previous_expires_epoch_s = 0;
  // Quota alerts: where they are POSTed ("" = none) and the secret that signs them.
  std::string webhook_url;
  std::string webhook_secret;

  bool operator==(const KeyRecord&) const = default;
};

struct NewKey {
  std::string prefix;
  std::string key_hash;
  std::string label;
  std::string plan;
  int64_t created_epoch_s = 0;
  std::optional<int64_t> rate_per_minute;
  std::optional<int64_t> monthly_quota;
  std::string webhook_url;
  std::string webhook_secret;
};

// What update_key changes: each field when it is set.
struct KeyUpdate {
  std::optional<std::string> plan;
  std::optional<std::string> label;
  bool set_rate_per_minute = false;
  std::optional<int64_t> rate_per_minute;  // nullopt: back to the plan's
  bool set_monthly_quota = false;
  std::optional<int64_t> monthly_quota;
  bool set_webhook = false;
  std::string webhook_url, webhook_secret;  // "" and "": no webhook
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
enum class ChangeOutcome { Done, Revoked, NotFound };

// One (key, period) usage change to add; `delta` may be negative (a released unit whose
// reservation was already flushed). Stored counts never go below zero.
struct UsageDelta {
  int64_t key_id = 0;
  std::string period;  // "YYYY-MM"
  int64_t delta = 0;
};

// Usage history (GET /v1/usage): counts per key, UTC day, tool and metric.
inline constexpr int32_t kHistoryExecutions = 0;  // successful executions
inline constexpr int32_t kHistoryUnits = 1;       // quota units they used
// Any other metric is the HTTP status (400 … 599) of refused requests.
// How long the history is kept (and served): the month a count belongs to and the 12 after.
inline constexpr int kHistoryMonths = 13;

struct HistoryDelta {
  int64_t key_id = 0;
  int32_t day = 0;   // days since 1970-01-01 (UTC)
  std::string tool;  // "domain/slug"
  int32_t metric = 0;
  int64_t delta = 0;  // > 0
};

struct HistoryRow {
  int32_t day = 0;
  std::string tool;
  int32_t metric = 0;
  int64_t count = 0;
};

// A quota alert (accounts/quota_alerts.hpp): one per key, month and threshold.
struct QuotaAlert {
  int64_t key_id = 0;
  std::string period;  // "YYYY-MM"
  int32_t threshold_pct = 0;
  int64_t used = 0;  // the month's usage when the threshold was found reached
  int64_t monthly_quota = 0;
  int64_t created_epoch_s = 0;
  int32_t attempts = 0;  // deliveries tried so far
};

enum class AlertOutcome { Delivered, Retry, Abandoned };

class AccountStore {
 public:
  virtual ~AccountStore() = default;

  // Inserts a key and bumps the key generation. Returns the new key id, or nullopt when
  // the prefix is already taken (the caller generates another key).
  virtual std::optional<int64_t> create_key(const NewKey& key) = 0;

  // Marks the key with this prefix revoked at `now_epoch_s` and bumps the key generation.
  virtual RevokeOutcome revoke_key(std::string_view prefix, int64_t now_epoch_s) = 0;

  // Gives the active key with this prefix the secret `new_hash`; its current one becomes
  // its previous secret, accepted until `previous_expires_epoch_s` (an older previous one
  // is dropped). Bumps the key generation.
  virtual ChangeOutcome rotate_key(std::string_view prefix, std::string_view new_hash,
                                   int64_t previous_expires_epoch_s) = 0;

  // Changes what `update` sets on the active key with this prefix; bumps the generation.
  virtual ChangeOutcome update_key(std::string_view prefix, const KeyUpdate& update) = 0;

  // A counter that changes whenever a key is created or revoked, by any process using the
  // same store. Cheap: a server polls it and reloads keys only when it moved.
  virtual int64_t key_generation() = 0;

  // All keys, revoked ones included, ordered by id.
  virtual KeySet load_keys() = 0;

  // All keys with their recorded usage in `period` ("YYYY-MM"), ordered by id.
  virtual std::vector<KeyWithUsage> list_keys(std::string_view period) = 0;

  // key id → units recorded in `period`; keys without usage are absent.
  virtual std::unordered_map<int64_t, int64_t> load_usage(std::string_view period) = 0;

  // Adds every usage delta and history delta in one transaction: either all are recorded
  // or none (and it throws). When it returns the deltas survive the process being killed;
  // a power loss may take those added since the last checkpoint() (the embedded store
  // commits to its write-ahead log without an fsync).
  virtual void add_usage(const std::vector<UsageDelta>& deltas,
                         const std::vector<HistoryDelta>& history) = 0;
  void add_usage(const std::vector<UsageDelta>& deltas) { add_usage(deltas, {}); }
  // add_usage when it can start at once: false, having written nothing, when it would
  // first wait (for another thread of this process using the store, or another process's
  // write). A store without such a check always answers false (use add_usage).
  virtual bool add_usage_if_free(const std::vector<UsageDelta>& /*deltas*/) { return false; }

  // Makes everything added so far survive a power loss too (the embedded store: a WAL
  // checkpoint, which syncs the log and the database file). Cheap when nothing was added
  // since the last one; a no-op for stores that need none. Throws StoreError.
  virtual void checkpoint() {}

  // The history of `key_id` on days [first_day, end_day), ordered by day, tool, metric.
  virtual std::vector<HistoryRow> load_history(int64_t key_id, int32_t first_day,
                                               int32_t end_day) = 0;
  // Forgets the history of days before `day` (Redis lets it expire on its own).
  virtual void drop_history_before(int32_t day) = 0;

  // Records `alert` as due now unless one exists for its (key, period, threshold): true
  // when this call created it, for exactly one caller among all processes.
  virtual bool create_alert(const QuotaAlert& alert) = 0;
  // Up to `limit` undelivered alerts due at `now_s`, each leased to the caller until
  // `lease_until_s`: no other caller gets it before then.
  virtual std::vector<QuotaAlert> lease_due_alerts(int64_t now_s, int64_t lease_until_s,
                                                   size_t limit) = 0;
  // After a delivery attempt at `at_s`: delivered, given up, or (Retry) tried again at
  // `at_s`.
  virtual void finish_alert(const QuotaAlert& alert, AlertOutcome outcome, int64_t at_s) = 0;
};

// Whether opening the embedded store may create a new, empty one in a data directory
// that was used by a store before (store/store_directory.hpp): only on purpose
// (`serve --new-store`, `keys create --new-store`).
enum class NewStore { OnlyInAnUnusedDirectory, EvenInAUsedOne };

// The embedded store: `<data_dir>/toolcalc.db` (SQLite, WAL, synchronous = NORMAL, no
// automatic checkpoint: checkpoint() makes them, off the path of commits), creating
// `data_dir`, the database and its schema when missing, and refusing (StoreError) what
// store/store_directory.hpp refuses: a missing, empty or unreadable database in a
// directory used before, or another store's database. Safe to share between threads;
// several processes (a server and `toolcalc keys`) may open the same file. Throws
// StoreError.
std::unique_ptr<AccountStore> open_sqlite_store(
    const std::filesystem::path& data_dir, NewStore new_store = NewStore::OnlyInAnUnusedDirectory);
// The same for the server of `data_dir`: add_usage_if_free records usage in the
// directory's usage journal (store/usage_journal.hpp), which add_usage moves into the
// database, and what a killed server left there is taken over now. A second process
// serving the same directory gets no journal (and a warning) and commits directly.
std::unique_ptr<AccountStore> open_sqlite_store_for_serving(
    const std::filesystem::path& data_dir, NewStore new_store = NewStore::OnlyInAnUnusedDirectory);

// The database file open_sqlite_store uses for `data_dir`.
std::filesystem::path sqlite_store_file(const std::filesystem::path& data_dir);

}  // namespace toolcalc::store
