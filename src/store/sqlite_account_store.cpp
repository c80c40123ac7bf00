// The embedded AccountStore: one SQLite database in WAL mode under the data directory.
// One connection per process for reads and writes, serialised by a mutex (the server
// writes from its committer and background threads, and from a request's thread only
// through add_usage_if_free, which never waits; it reads from a request's thread only
// when the clock enters a month not loaded yet), and a second one for checkpoints, so
// that their fsyncs never hold up a commit.
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <utility>

#include "core/log.hpp"
#include "core/service_metrics.hpp"
#include "store/account_store.hpp"
#include "store/store_directory.hpp"
#include "store/usage_journal.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::store {
namespace {

// Bump when the schema changes, and add the migration from the previous version in
// `migrate` below.
constexpr int kSchemaVersion = 3;
// How long a writer waits for another process's write transaction (a `toolcalc keys`
// command against a running server, or the reverse) before failing with "database is locked".
constexpr int kBusyTimeoutMs = 5000;

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO meta(name, value) VALUES ('key_generation', 0);
CREATE TABLE api_keys (
  id         INTEGER PRIMARY KEY,
  prefix     TEXT    NOT NULL UNIQUE,
  key_hash   BLOB    NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  label      TEXT    NOT NULL DEFAULT '',
  plan       TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE TABLE monthly_usage (
  key_id INTEGER NOT NULL REFERENCES api_keys(id),
  period TEXT    NOT NULL,
  used   INTEGER NOT NULL CHECK (used >= 0),
  PRIMARY KEY (key_id, period)
) WITHOUT ROWID;
)sql";

// Version 2: per-key limits, key rotation, quota alert webhooks, usage history and the
// alerts' delivery state.
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE api_keys ADD COLUMN rate_per_minute INTEGER;
ALTER TABLE api_keys ADD COLUMN monthly_quota INTEGER;
ALTER TABLE api_keys ADD COLUMN previous_hash BLOB CHECK (length(previous_hash) = 32);
ALTER TABLE api_keys ADD COLUMN previous_expires_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE api_keys ADD COLUMN webhook_url TEXT NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN webhook_secret TEXT NOT NULL DEFAULT '';
CREATE TABLE usage_history (
  key_id INTEGER NOT NULL REFERENCES api_keys(id),
  day    INTEGER NOT NULL,
  tool   TEXT    NOT NULL,
  metric INTEGER NOT NULL,
  count  INTEGER NOT NULL CHECK (count >= 0),
  PRIMARY KEY (key_id, day, tool, metric)
) WITHOUT ROWID;
CREATE TABLE quota_alerts (
  key_id          INTEGER NOT NULL REFERENCES api_keys(id),
  period          TEXT    NOT NULL,
  threshold       INTEGER NOT NULL,
  used            INTEGER NOT NULL,
  monthly_quota   INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  delivered_at    INTEGER,
  PRIMARY KEY (key_id, period, threshold)
) WITHOUT ROWID;
CREATE INDEX quota_alerts_due ON quota_alerts(next_attempt_at)
  WHERE next_attempt_at IS NOT NULL;
)sql";

// Version 3: the usage ledger of an instance on the shared store (usage_ledger.hpp): its
// keys live in Redis, so no row references api_keys. The instance's name as a shipper is
// made once, with the table (63 random bits).
constexpr const char* kSchemaV3 = R"sql(
CREATE TABLE usage_ledger (
  key_id INTEGER NOT NULL,
  period TEXT    NOT NULL,
  count  INTEGER NOT NULL CHECK (count >= 0),
  PRIMARY KEY (key_id, period)
) WITHOUT ROWID;
INSERT INTO meta(name, value) VALUES ('ledger_instance', random() & 9223372036854775807);
)sql";

class Database;

// A prepared statement, prepared once and reused. Every use goes through a Use guard,
// which resets the statement (releasing its read snapshot) even when a step throws.
class Statement {
 public:
  Statement(Database& db, const char* sql);
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  class Use {
   public:
    explicit Use(Statement& s) : s_(s) {
      sqlite3_reset(s_.stmt_);
      sqlite3_clear_bindings(s_.stmt_);
    }
    ~Use() { sqlite3_reset(s_.stmt_); }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

    Use& bind(int i, int64_t v) {
      check(sqlite3_bind_int64(s_.stmt_, i, v));
      return *this;
    }
    Use& bind_text(int i, std::string_view v) {
      check(sqlite3_bind_text(s_.stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      return *this;
    }
    Use& bind_optional(int i, const std::optional<int64_t>& v) {
      check(v ? sqlite3_bind_int64(s_.stmt_, i, *v) : sqlite3_bind_null(s_.stmt_, i));
      return *this;
    }
    Use& bind_blob(int i, std::string_view v) {
      check(sqlite3_bind_blob(s_.stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      return *this;
    }
    // true: a row is available; false: done.
    bool step();
    // For statements that return no row: true when done, false when SQLite answered busy.
    bool step_unless_busy();
    int64_t integer(int col) const { return sqlite3_column_int64(s_.stmt_, col); }
    bool is_null(int col) const { return sqlite3_column_type(s_.stmt_, col) == SQLITE_NULL; }
    std::string text(int col) const {
      const auto* p = sqlite3_column_text(s_.stmt_, col);
      const int n = sqlite3_column_bytes(s_.stmt_, col);
      return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n))
               : std::string();
    }
    std::string blob(int col) const {
      const void* p = sqlite3_column_blob(s_.stmt_, col);
      const int n = sqlite3_column_bytes(s_.stmt_, col);
      return p ? std::string(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
    }

   private:
    void check(int rc);
    Statement& s_;
  };

 private:
  friend class Use;
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class Database {
 public:
  // Opens `file`; creates it only with `create` (the data directory's check decides that:
  // store_directory.hpp).
  explicit Database(std::filesystem::path file, bool create = false) : file_(std::move(file)) {
    const int rc = sqlite3_open_v2(
        file_.c_str(), &db_, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nullptr);
    if (rc != SQLITE_OK) {
      std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
      sqlite3_close(db_);
      db_ = nullptr;
      throw StoreError(file_.string() + ": cannot open: " + msg);
    }
    sqlite3_extended_result_codes(db_, 1);
  }
  ~Database() {
    for (auto& st : control_) st.reset();  // finalised before the connection closes
    sqlite3_close(db_);  // the store's statements are finalised first (declared later)
  }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* handle() const { return db_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw StoreError(file_.string() + ": " + what + ": " + sqlite3_errmsg(db_));
  }
  void exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  // BEGIN, BEGIN IMMEDIATE, COMMIT: prepared on first use and kept, so that a transaction
  // does not parse its own control statements (a few microseconds of each group commit).
  enum Control { Begin, BeginImmediate, Commit };
  void control(Control c);
  // control, but false when SQLite answers busy (another connection holds the lock).
  bool try_control(Control c);
  // Runs a one-row, one-column query (PRAGMAs) and returns the value as text.
  std::string query_text(const char* sql) {
    Statement st(*this, sql);
    Statement::Use use(st);
    if (!use.step()) return {};
    return use.text(0);
  }

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  std::array<std::unique_ptr<Statement>, 3> control_;
};

Statement::Statement(Database& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v3(db.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) !=
      SQLITE_OK)
    db.fail(std::string("prepare ") + sql);
}

bool Statement::Use::step() {
  const int rc = sqlite3_step(s_.stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  s_.db_.fail(sqlite3_sql(s_.stmt_));
}

bool Statement::Use::step_unless_busy() {
  const int rc = sqlite3_step(s_.stmt_);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return true;
  if ((rc & 0xff) == SQLITE_BUSY) return false;
  s_.db_.fail(sqlite3_sql(s_.stmt_));
}

void Statement::Use::check(int rc) {
  if (rc != SQLITE_OK) s_.db_.fail("bind");
}

constexpr std::array<const char*, 3> kControlSql = {"BEGIN", "BEGIN IMMEDIATE", "COMMIT"};

void Database::control(Control c) {
  if (!try_control(c)) fail(kControlSql[c]);
}

bool Database::try_control(Control c) {
  auto& st = control_[c];
  if (!st) st = std::make_unique<Statement>(*this, kControlSql[c]);
  Statement::Use use(*st);
  return use.step_unless_busy();
}

// BEGIN … COMMIT, rolled back when left without commit() (an exception).
class Transaction {
 public:
  // Begun: the caller has run BEGIN itself (Database::try_control); this one commits or
  // rolls it back.
  enum Kind { Read, Write, Begun };
  Transaction(Database& db, Kind kind) : db_(db) {
    // IMMEDIATE takes the write lock up front, so a writer waits (busy_timeout) at BEGIN
    // instead of failing when it upgrades a read transaction another writer overtook.
    if (kind != Begun) db_.control(kind == Write ? Database::BeginImmediate : Database::Begin);
  }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    db_.control(Database::Commit);
    done_ = true;
  }

 private:
  Database& db_;
  bool done_ = false;
};

Database& configure(Database& db) {
  if (sqlite3_busy_timeout(db.handle(), kBusyTimeoutMs) != SQLITE_OK) db.fail("busy_timeout");
  // WAL: readers (a `keys list`, the key poll) never block the writer and the reverse.
  // The setting is stored in the file, so every later connection uses it too.
  if (db.query_text("PRAGMA journal_mode = WAL") != "wal")
    db.fail("cannot switch the database to WAL mode");
  // NORMAL: a commit is in the write-ahead log when it returns, without an fsync, so it
  // survives the process being killed; the log is synced by each checkpoint, which the
  // server makes in the background every flush interval (docs/durability.md), and the last
  // connection to close. No automatic checkpoint: it would sync on
  // the committing thread every 1000 pages.
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA wal_autocheckpoint = 0");
  // When the log starts again from its beginning, a file grown past this under a burst
  // is cut back to it (the space goes back to the file system).
  db.exec("PRAGMA journal_size_limit = 16777216");
  db.exec("PRAGMA foreign_keys = ON");

  Transaction tx(db, Transaction::Write);
  const int version = std::stoi(db.query_text("PRAGMA user_version"));
  if (version > kSchemaVersion)
    throw StoreError("database schema version " + std::to_string(version) +
                     " is newer than this toolcalc supports (" + std::to_string(kSchemaVersion) +
                     "); use a newer toolcalc");
  if (version < 1) db.exec(kSchemaV1);
  if (version < 2) db.exec(kSchemaV2);
  if (version < 3) db.exec(kSchemaV3);
  if (version < kSchemaVersion)
    db.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
  // The store's identity (store_directory.hpp), made with the database, or at the first
  // open by a toolcalc that keeps one. Rows, not a schema change: an older toolcalc
  // ignores them.
  db.exec(
      "INSERT OR IGNORE INTO meta(name, value) VALUES "
      "('store_id', (random() & 9223372036854775807) | 1), "
      "('store_created_at', CAST(strftime('%s', 'now') AS INTEGER))");
  tx.commit();
  return db;
}

StoreIdentity read_identity(Database& db) {
  return {std::stoll(db.query_text("SELECT value FROM meta WHERE name = 'store_id'")),
          std::stoll(db.query_text("SELECT value FROM meta WHERE name = 'store_created_at'"))};
}

KeyRecord read_key(const Statement::Use& row) {
  KeyRecord k;
  k.id = row.integer(0);
  k.prefix = row.text(1);
  k.key_hash = row.blob(2);
  k.label = row.text(3);
  k.plan = row.text(4);
  k.created_epoch_s = row.integer(5);
  if (!row.is_null(6)) k.revoked_epoch_s = row.integer(6);
  if (!row.is_null(7)) k.rate_per_minute = row.integer(7);
  if (!row.is_null(8)) k.monthly_quota = row.integer(8);
  k.previous_hash = row.blob(9);
  k.previous_expires_epoch_s = row.integer(10);
  k.webhook_url = row.text(11);
  k.webhook_secret = row.text(12);
  return k;
}

constexpr int kKeyColumns = 13;
#define KEY_COLUMNS                                                                             \
  "k.id, k.prefix, k.key_hash, k.label, k.plan, k.created_at, k.revoked_at, "                   \
  "k.rate_per_minute, k.monthly_quota, k.previous_hash, k.previous_expires_at, k.webhook_url, " \
  "k.webhook_secret"

QuotaAlert read_alert(const Statement::Use& row) {
  QuotaAlert a;
  a.key_id = row.integer(0);
  a.period = row.text(1);
  a.threshold_pct = static_cast<int32_t>(row.integer(2));
  a.used = row.integer(3);
  a.monthly_quota = row.integer(4);
  a.created_epoch_s = row.integer(5);
  a.attempts = static_cast<int32_t>(row.integer(6));
  return a;
}

// Once a store is open: the directory's marker names it.
void mark_directory(const std::filesystem::path& data_dir, const StoreIdentity& identity) {
  switch (record_store_identity(data_dir, identity)) {
    case MarkerChange::None:
      break;
    case MarkerChange::Written:
      log::info("store marker written", {{"file", store_marker_file(data_dir).string()},
                                         {"store", describe_store(identity)}});
      break;
    case MarkerChange::Rewritten:
      log::warn(
          "store marker rewritten: it was unreadable, or the database predates store ids",
          {{"file", store_marker_file(data_dir).string()}, {"store", describe_store(identity)}});
      break;
  }
}

#define ALERT_COLUMNS "key_id, period, threshold, used, monthly_quota, created_at, attempts"

class SqliteAccountStore final : public AccountStore, public UsageLedger {
 public:
  // With `journal`, add_usage_if_free records usage there (usage_journal.hpp) and add_usage
  // moves it into the database; what a killed process left in it is taken over here.
  // Once open, the directory's marker names the store (mark_directory).
  explicit SqliteAccountStore(const std::filesystem::path& file,
                              std::unique_ptr<UsageJournal> journal = nullptr)
      : file_(file),
        db_(file),
        insert_key_(configure(db_),
                    "INSERT INTO api_keys(prefix, key_hash, label, plan, created_at, "
                    "rate_per_minute, monthly_quota, webhook_url, webhook_secret) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT(prefix) DO NOTHING "
                    "RETURNING id"),
        bump_generation_(db_, "UPDATE meta SET value = value + 1 WHERE name = 'key_generation'"),
        generation_(db_, "SELECT value FROM meta WHERE name = 'key_generation'"),
        find_prefix_(db_, "SELECT id, revoked_at FROM api_keys WHERE prefix = ?1"),
        revoke_(db_, "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1"),
        all_keys_(db_, "SELECT " KEY_COLUMNS " FROM api_keys k ORDER BY k.id"),
        list_keys_(db_, "SELECT " KEY_COLUMNS
                        ", COALESCE(u.used, 0) FROM api_keys k LEFT JOIN monthly_usage u "
                        "ON u.key_id = k.id AND u.period = ?1 ORDER BY k.id"),
        usage_(db_, "SELECT key_id, used FROM monthly_usage WHERE period = ?1"),
        add_usage_(db_,
                   "INSERT INTO monthly_usage(key_id, period, used) VALUES (?1, ?2, MAX(?3, 0)) "
                   "ON CONFLICT(key_id, period) DO UPDATE SET used = MAX(used + ?3, 0)"),
        rotate_(db_,
                "UPDATE api_keys SET previous_hash = key_hash, previous_expires_at = ?3, "
                "key_hash = ?2 WHERE id = ?1"),
        update_(db_,
                "UPDATE api_keys SET plan = COALESCE(?2, plan), label = COALESCE(?3, label), "
                "rate_per_minute = CASE WHEN ?4 THEN ?5 ELSE rate_per_minute END, "
                "monthly_quota = CASE WHEN ?6 THEN ?7 ELSE monthly_quota END, "
                "webhook_url = CASE WHEN ?8 THEN ?9 ELSE webhook_url END, "
                "webhook_secret = CASE WHEN ?8 THEN ?10 ELSE webhook_secret END WHERE id = ?1"),
        add_history_(db_,
                     "INSERT INTO usage_history(key_id, day, tool, metric, count) "
                     "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(key_id, day, tool, metric) "
                     "DO UPDATE SET count = count + ?5"),
        history_(db_,
                 "SELECT day, tool, metric, count FROM usage_history WHERE key_id = ?1 "
                 "AND day >= ?2 AND day < ?3 ORDER BY day, tool, metric"),
        drop_history_(db_, "DELETE FROM usage_history WHERE day < ?1"),
        create_alert_(db_, "INSERT INTO quota_alerts(" ALERT_COLUMNS
                           ", next_attempt_at) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?6) "
                           "ON CONFLICT(key_id, period, threshold) DO NOTHING RETURNING key_id"),
        due_alerts_(db_, "SELECT " ALERT_COLUMNS
                         " FROM quota_alerts "
                         "WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ?1 "
                         "ORDER BY next_attempt_at LIMIT ?2"),
        lease_alert_(db_,
                     "UPDATE quota_alerts SET next_attempt_at = ?4 "
                     "WHERE key_id = ?1 AND period = ?2 AND threshold = ?3"),
        finish_alert_(db_,
                      "UPDATE quota_alerts SET attempts = attempts + 1, next_attempt_at = ?4, "
                      "delivered_at = ?5 WHERE key_id = ?1 AND period = ?2 AND threshold = ?3"),
        ledger_counts_(db_, "SELECT key_id, count FROM usage_ledger WHERE period = ?1"),
        add_ledger_(db_,
                    "INSERT INTO usage_ledger(key_id, period, count) VALUES (?1, ?2, MAX(?3, 0)) "
                    "ON CONFLICT(key_id, period) DO UPDATE SET count = MAX(count + ?3, 0)"),
        journal_seq_(db_, "SELECT value FROM meta WHERE name = 'usage_journal_seq'"),
        set_journal_seq_(db_,
                         "INSERT INTO meta(name, value) VALUES ('usage_journal_seq', ?1) "
                         "ON CONFLICT(name) DO UPDATE SET value = ?1"),
        journal_(std::move(journal)) {
    if (journal_) take_over_journal();
    char id[17];
    std::snprintf(id, sizeof id, "%016llx",
                  static_cast<unsigned long long>(std::stoll(
                      db_.query_text("SELECT value FROM meta WHERE name = 'ledger_instance'"))));
    instance_id_ = id;
    mark_directory(file_.parent_path(), read_identity(db_));
  }

  std::optional<int64_t> create_key(const NewKey& key) override {
    std::lock_guard lock(mu_);
    metrics::store_round_trips.inc();  // one statement or transaction
    Transaction tx(db_, Transaction::Write);
    std::optional<int64_t> id;
    {
      Statement::Use use(insert_key_);
      use.bind_text(1, key.prefix)
          .bind_blob(2, key.key_hash)
          .bind_text(3, key.label)
          .bind_text(4, key.plan)
          .bind(5, key.created_epoch_s)
          .bind_optional(6, key.rate_per_minute)
          .bind_optional(7, key.monthly_quota)
          .bind_text(8, key.webhook_url)
          .bind_text(9, key.webhook_secret);
      if (use.step()) id = use.integer(0);
      while (use.step()) {
      }
    }
    if (!id) return std::nullopt;  // prefix taken; the transaction rolls back (nothing written)
    bump_generation();
    tx.commit();
    return id;
  }

  RevokeOutcome revoke_key(std::string_view prefix, int64_t now_epoch_s) override {
    std::lock_guard lock(mu_);
    metrics::store_round_trips.inc();  // one statement or transaction
    Transaction tx(db_, Transaction::Write);
    int64_t id = 0;
    {
      Statement::Use use(find_prefix_);
      use.bind_text(1, prefix);
      if (!use.step()) return RevokeOutcome::NotFound;
      if (!use.is_null(1)) return RevokeOutcome::AlreadyRevoked;
      id = use.integer(0);
    }
    {
      Statement::Use use(revoke_);
      use.bind(1, id).bind(2, now_epoch_s);
      use.step();
    }
    bump_generation();
    tx.commit();
    return RevokeOutcome::Revoked;
  }

  ChangeOutcome rotate_key(std::string_view prefix, std::string_view new_hash,
                           int64_t previous_expires_epoch_s) override {
    std::lock_guard lock(mu_);
    Transaction tx(db_, Transaction::Write);
    int64_t id = 0;
    if (const ChangeOutcome found = find_active(prefix, id); found != ChangeOutcome::Done)
      return found;
    {
      Statement::Use use(rotate_);
      use.bind(1, id).bind_blob(2, new_hash).bind(3, previous_expires_epoch_s);
      use.step();
    }
    bump_generation();
    tx.commit();
    return ChangeOutcome::Done;
  }

  ChangeOutcome update_key(std::string_view prefix, const KeyUpdate& u) override {
    std::lock_guard lock(mu_);
    Transaction tx(db_, Transaction::Write);
    int64_t id = 0;
    if (const ChangeOutcome found = find_active(prefix, id); found != ChangeOutcome::Done)
      return found;
    {
      Statement::Use use(update_);
      use.bind(1, id);
      if (u.plan) use.bind_text(2, *u.plan);
      if (u.label) use.bind_text(3, *u.label);
      use.bind(4, u.set_rate_per_minute).bind_optional(5, u.rate_per_minute);
      use.bind(6, u.set_monthly_quota).bind_optional(7, u.monthly_quota);
      use.bind(8, u.set_webhook).bind_text(9, u.webhook_url).bind_text(10, u.webhook_secret);
      use.step();
    }
    bump_generation();
    tx.commit();
    return ChangeOutcome::Done;
  }

  int64_t key_generation() override {
    std::lock_guard lock(mu_);
    metrics::store_round_trips.inc();  // one statement or transaction
    return read_generation();
  }

  KeySet load_keys() override {
    std::lock_guard lock(mu_);
    metrics::store_round_trips.inc();        // one statement or transaction
    Transaction tx(db_, Transaction::Read);  // generation and keys from one snapshot
    KeySet set;
    set.generation = read_generation();
    Statement::Use use(all_keys_);
    while (use.step()) set.keys.push_back(read_key(use));
    return set;
  }

  std::vector<KeyWithUsage> list_keys(std::string_view period) override {
    std::lock_guard lock(mu_);
    metrics::store_round_trips.inc();  // one statement or transaction
    std::vector<KeyWithUsage> out;
    Statement::Use use(list_keys_);
    use.bind_text(1, period);
    while (use.step()) out.push_back({read_key(use), use.integer(kKeyColumns)});
    std::lock_guard journal_lock(journal_mu_);
    for (auto& row : out) row.used += journaled(row.key.id, period);
    return out;
  }

  std::unordered_map<int64_t, int64_t> load_usage(std::string_view period) override {
    std::lock_guard lock(mu_);
    auto out = load_per_key_locked(usage_, period);
    std::lock_guard journal_lock(journal_mu_);
    for (const auto& [at, delta] : journaled_)
      if (at.second == period && delta != 0) out[at.first] += delta;
    return out;
  }

  // Also moves the journal's usage into the database (with the sequence number it reached,
  // in the same transaction), then clears the journal.
  void add_usage(const std::vector<UsageDelta>& deltas,
                 const std::vector<HistoryDelta>& history) override {
    std::lock_guard lock(mu_);
    std::unique_lock<std::mutex> journal_lock;
    if (journal_) journal_lock = std::unique_lock(journal_mu_);
    const bool from_journal = journal_ && !journaled_.empty();
    if (deltas.empty() && history.empty() && !from_journal) return;
    metrics::store_round_trips.inc();  // one statement or transaction
    const int64_t changes_before = sqlite3_total_changes64(db_.handle());
    Transaction tx(db_, Transaction::Write);
    write_usage(deltas);
    if (from_journal) {
      for (const auto& [at, delta] : journaled_)
        write_delta(add_usage_, at.first, at.second, delta);
      record_journal_seq(journal_->last_seq());
    }
    for (const auto& h : history) {
      if (h.delta <= 0) continue;
      Statement::Use use(add_history_);
      use.bind(1, h.key_id).bind(2, h.day).bind_text(3, h.tool).bind(4, h.metric).bind(5, h.delta);
      use.step();
    }
    tx.commit();
    // A commit that wrote rows wrote frames: it started the log again, if that was due.
    if (sqlite3_total_changes64(db_.handle()) != changes_before) log_restarts_next_ = false;
    if (from_journal) {
      journaled_.clear();
      clear_journal();
    }
  }

  // With a journal: an append to it, unless a flush holds it at the moment (then, as
  // when the journal cannot take them, the database when it is free).
  bool add_usage_if_free(const std::vector<UsageDelta>& deltas) override {
    if (journal_) {
      std::unique_lock journal_lock(journal_mu_, std::try_to_lock);
      if (journal_lock && journal_->append(deltas)) {
        metrics::store_round_trips.inc();
        for (const auto& d : deltas)
          if (d.delta != 0) journaled_[{d.key_id, d.period}] += d.delta;
        return true;
      }
    }
    return add_if_free(add_usage_, deltas);
  }

  // UsageLedger
  const std::string& instance_id() const override { return instance_id_; }
  std::unordered_map<int64_t, int64_t> load_counts(std::string_view period) override {
    return load_per_key(ledger_counts_, period);
  }
  void add_counts(const std::vector<UsageDelta>& deltas) override {
    if (deltas.empty()) return;
    std::lock_guard lock(mu_);
    metrics::store_round_trips.inc();
    const int64_t changes_before = sqlite3_total_changes64(db_.handle());
    Transaction tx(db_, Transaction::Write);
    write_deltas(add_ledger_, deltas);
    tx.commit();
    if (sqlite3_total_changes64(db_.handle()) != changes_before) log_restarts_next_ = false;
  }
  bool add_counts_if_free(const std::vector<UsageDelta>& deltas) override {
    return add_if_free(add_ledger_, deltas);
  }

 private:
  // `statement` (key id, count of a period) over every row of `period`.
  std::unordered_map<int64_t, int64_t> load_per_key(Statement& statement, std::string_view period) {
    std::lock_guard lock(mu_);
    return load_per_key_locked(statement, period);
  }
  std::unordered_map<int64_t, int64_t> load_per_key_locked(Statement& statement,
                                                           std::string_view period) {
    metrics::store_round_trips.inc();  // one statement or transaction
    std::unordered_map<int64_t, int64_t> out;
    Statement::Use use(statement);
    use.bind_text(1, period);
    while (use.step()) out[use.integer(0)] = use.integer(1);
    return out;
  }

  // The deltas through `add` (an upsert of key id, period, delta) when the store is free at
  // once: never waits (docs/durability.md).
  bool add_if_free(Statement& add, const std::vector<UsageDelta>& deltas) {
    std::unique_lock lock(mu_, std::try_to_lock);
    if (!lock || log_restarts_next_) return false;
    // No busy wait at BEGIN: another process holding the write lock answers SQLITE_BUSY at
    // once. Restored before the lock is released.
    sqlite3_busy_timeout(db_.handle(), 0);
    struct RestoreTimeout {
      sqlite3* db;
      ~RestoreTimeout() { sqlite3_busy_timeout(db, kBusyTimeoutMs); }
    } restore{db_.handle()};
    // One key's units (a group's usual content): one statement in autocommit, which is
    // its own transaction, without running BEGIN and COMMIT as statements of their own
    // (about a third of a group commit's instructions).
    const UsageDelta* only = nullptr;
    size_t writes = 0;
    for (const auto& d : deltas)
      if (d.delta != 0) only = &d, ++writes;
    if (writes == 0) return true;
    if (writes == 1) {
      Statement::Use use(add);
      use.bind(1, only->key_id).bind_text(2, only->period).bind(3, only->delta);
      if (!use.step_unless_busy()) return false;
      metrics::store_round_trips.inc();
      return true;
    }
    if (!db_.try_control(Database::BeginImmediate)) return false;
    metrics::store_round_trips.inc();
    Transaction tx(db_, Transaction::Begun);
    write_deltas(add, deltas);
    tx.commit();
    return true;
  }

 public:
  void checkpoint() override {
    std::lock_guard lock(checkpoint_mu_);
    if (!checkpointer_) {
      checkpointer_ = std::make_unique<Database>(file_);
      // The syncs of a checkpoint are made at this connection's level: NORMAL syncs the
      // log before copying it and the database file after.
      checkpointer_->exec("PRAGMA synchronous = NORMAL");
    }
    // PASSIVE: copies what no reader still needs, never waits for readers or writers; a
    // checkpoint with nothing new to copy syncs nothing. The first pass copies the bulk
    // while commits go on. Under a steady stream of commits it never catches up with the
    // last one, and SQLite starts the log again from its beginning only when a write
    // begins with every frame copied: the log would grow without bound (hundreds of MB a
    // minute at a few thousand commits a second). So a second pass runs with this
    // process's commits held (mu_): it copies the few frames committed during the first,
    // and the next commit restarts the log.
    passive_checkpoint();
    std::lock_guard writer(mu_);
    if (passive_checkpoint()) log_restarts_next_ = true;
  }

  std::vector<HistoryRow> load_history(int64_t key_id, int32_t first_day,
                                       int32_t end_day) override {
    std::lock_guard lock(mu_);
    std::vector<HistoryRow> out;
    Statement::Use use(history_);
    use.bind(1, key_id).bind(2, first_day).bind(3, end_day);
    while (use.step())
      out.push_back({static_cast<int32_t>(use.integer(0)), use.text(1),
                     static_cast<int32_t>(use.integer(2)), use.integer(3)});
    return out;
  }

  void drop_history_before(int32_t day) override {
    std::lock_guard lock(mu_);
    Statement::Use use(drop_history_);
    use.bind(1, day);
    use.step();
  }

  bool create_alert(const QuotaAlert& a) override {
    std::lock_guard lock(mu_);
    Statement::Use use(create_alert_);
    use.bind(1, a.key_id).bind_text(2, a.period).bind(3, a.threshold_pct).bind(4, a.used);
    use.bind(5, a.monthly_quota).bind(6, a.created_epoch_s);
    const bool created = use.step();
    while (use.step()) {
    }
    return created;
  }

  std::vector<QuotaAlert> lease_due_alerts(int64_t now_s, int64_t lease_until_s,
                                           size_t limit) override {
    std::lock_guard lock(mu_);
    // One write transaction: another process's lease waits for it (busy_timeout) and
    // then no longer sees these alerts as due.
    Transaction tx(db_, Transaction::Write);
    std::vector<QuotaAlert> out;
    {
      Statement::Use use(due_alerts_);
      use.bind(1, now_s).bind(2, static_cast<int64_t>(limit));
      while (use.step()) out.push_back(read_alert(use));
    }
    for (const auto& a : out) {
      Statement::Use use(lease_alert_);
      use.bind(1, a.key_id).bind_text(2, a.period).bind(3, a.threshold_pct).bind(4, lease_until_s);
      use.step();
    }
    tx.commit();
    return out;
  }

  void finish_alert(const QuotaAlert& a, AlertOutcome outcome, int64_t at_s) override {
    std::lock_guard lock(mu_);
    Statement::Use use(finish_alert_);
    use.bind(1, a.key_id).bind_text(2, a.period).bind(3, a.threshold_pct);
    if (outcome == AlertOutcome::Retry) use.bind(4, at_s);
    if (outcome == AlertOutcome::Delivered) use.bind(5, at_s);
    use.step();
  }

 private:
  int64_t read_generation() {
    Statement::Use use(generation_);
    if (!use.step()) db_.fail("meta.key_generation is missing");
    return use.integer(0);
  }
  // The id of the key with `prefix` when it is active; NotFound or Revoked otherwise.
  ChangeOutcome find_active(std::string_view prefix, int64_t& id) {
    Statement::Use use(find_prefix_);
    use.bind_text(1, prefix);
    if (!use.step()) return ChangeOutcome::NotFound;
    if (!use.is_null(1)) return ChangeOutcome::Revoked;
    id = use.integer(0);
    return ChangeOutcome::Done;
  }
  // true when every frame of the log is in the database afterwards: the next commit then
  // starts the log again from its beginning.
  bool passive_checkpoint() {
    int log_frames = -1, copied = -1;
    const int rc = sqlite3_wal_checkpoint_v2(checkpointer_->handle(), nullptr,
                                             SQLITE_CHECKPOINT_PASSIVE, &log_frames, &copied);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY) checkpointer_->fail("checkpoint");
    return rc == SQLITE_OK && log_frames >= 0 && log_frames == copied;
  }

  void bump_generation() {
    Statement::Use use(bump_generation_);
    use.step();
  }

  void write_usage(const std::vector<UsageDelta>& deltas) { write_deltas(add_usage_, deltas); }

  // What a process killed since its last flush left in the journal goes into the database,
  // once: the records above the sequence number the database last took.
  // A record damaged inside the run is passed over, counted and logged with its offset;
  // the records after it are taken.
  void take_over_journal() {
    std::lock_guard lock(mu_);
    const uint64_t taken = journal_seq();
    const UsageJournal::Run run = journal_->read_run(taken);
    const std::vector<JournalRecord>& records = run.records;
    journal_->continue_after(taken);
    report_damage(run);
    if (!records.empty()) {
      Transaction tx(db_, Transaction::Write);
      for (const JournalRecord& r : records)
        write_delta(add_usage_, r.delta.key_id, r.delta.period, r.delta.delta);
      record_journal_seq(records.back().seq);
      tx.commit();
      log::info("usage journal taken over", {{"records", std::to_string(records.size())}});
    }
    clear_journal();
  }
  void report_damage(const UsageJournal::Run& run) const {
    const std::string file = usage_journal_file(file_.parent_path()).string();
    if (!run.damaged.empty()) {
      metrics::journal_records_damaged.inc(run.damaged.size());
      std::string offsets;
      for (size_t i = 0; i < run.damaged.size() && i < kOffsetsLogged; ++i)
        offsets += (i == 0 ? "" : ",") + std::to_string(run.damaged[i]);
      if (run.damaged.size() > kOffsetsLogged) offsets += ",…";
      log::error("usage journal: records failed their check and were skipped; their usage is lost",
                 {{"file", file},
                  {"skipped", std::to_string(run.damaged.size())},
                  {"offsets", offsets},
                  {"record_bytes", std::to_string(UsageJournal::kRecordBytes)}});
    }
    if (run.cut_short)
      log::info(
          "usage journal: its last record failed its check (a write cut short by the stop; "
          "its group was not acknowledged) and was not taken",
          {{"file", file}, {"offset", std::to_string(*run.cut_short)}});
  }
  static constexpr size_t kOffsetsLogged = 20;
  uint64_t journal_seq() {
    Statement::Use use(journal_seq_);
    return use.step() ? static_cast<uint64_t>(use.integer(0)) : 0;
  }
  void record_journal_seq(uint64_t seq) {
    Statement::Use use(set_journal_seq_);
    use.bind(1, static_cast<int64_t>(seq));
    use.step();
  }
  // After the database took every record: a journal that cannot be cleared now keeps records
  // the next start skips (their numbers are taken), and is cleared by the next flush that
  // moves records.
  void clear_journal() {
    try {
      journal_->clear();
    } catch (const std::exception& e) {
      log::warn("usage journal could not be cleared; retried at the next flush",
                {{"error", e.what()}});
    }
  }
  // Units in the journal not yet in the database (journal_mu_ held).
  int64_t journaled(int64_t key_id, std::string_view period) const {
    const auto it = journaled_.find({key_id, std::string(period)});
    return it == journaled_.end() ? 0 : it->second;
  }
  void write_deltas(Statement& add, const std::vector<UsageDelta>& deltas) {
    for (const auto& d : deltas) write_delta(add, d.key_id, d.period, d.delta);
  }
  void write_delta(Statement& add, int64_t key_id, std::string_view period, int64_t delta) {
    if (delta == 0) return;
    Statement::Use use(add);
    use.bind(1, key_id).bind_text(2, period).bind(3, delta);
    use.step();
  }

  std::filesystem::path file_;
  std::mutex mu_;
  // The next commit starts the write-ahead log again (after a checkpoint that copied all
  // of it, and when the store opens): SQLite then writes the log's header and fsyncs it,
  // and with journal_size_limit may truncate the file. add_usage_if_free leaves that
  // commit to a writer that may wait (add_usage), off the serving threads.
  bool log_restarts_next_ = true;
  Database db_;  // declared before the statements: they are finalised before it closes
  Statement insert_key_, bump_generation_, generation_, find_prefix_, revoke_, all_keys_,
      list_keys_, usage_, add_usage_, rotate_, update_, add_history_, history_, drop_history_,
      create_alert_, due_alerts_, lease_alert_, finish_alert_, ledger_counts_, add_ledger_,
      journal_seq_, set_journal_seq_;
  // Taken after mu_ when both are (add_usage_if_free takes this one alone).
  std::mutex journal_mu_;
  std::unique_ptr<UsageJournal> journal_;
  // (key id, period) → units appended to the journal since the database last took them.
  std::map<std::pair<int64_t, std::string>, int64_t> journaled_;
  std::string instance_id_;
  std::mutex checkpoint_mu_;
  std::unique_ptr<Database> checkpointer_;  // opened by the first checkpoint()
};

}  // namespace

std::filesystem::path sqlite_store_file(const std::filesystem::path& data_dir) {
  return data_dir / "toolcalc.db";
}

namespace {

void create_data_dir(const std::filesystem::path& data_dir) {
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  if (ec)
    throw StoreError("cannot create the data directory " + data_dir.string() + ": " + ec.message());
}

// Every open of a data directory's store starts here (store_directory.hpp): refused, or the
// database is there afterwards, created (with the directory's marker) before any other
// file of the store, so that a failed first start leaves no sign of use behind.
void prepare_store(const std::filesystem::path& data_dir, NewStore new_store) {
  create_data_dir(data_dir);
  const StoreOpening opening = check_store_directory(data_dir, new_store);
  if (!opening.create) return;
  set_aside(opening.set_aside);
  Database db(sqlite_store_file(data_dir), /*create=*/true);
  const StoreIdentity identity = read_identity(configure(db));
  record_store_identity(data_dir, identity);
  if (opening.earlier_use.empty() && opening.set_aside.empty()) {
    log::info("new store created",
              {{"data_dir", data_dir.string()}, {"store", describe_store(identity)}});
    return;
  }
  std::vector<std::string> set_aside_names;
  for (const auto& f : opening.set_aside) set_aside_names.push_back(f.filename().string());
  log::warn("new, empty store created on purpose (--new-store) in a data directory used before",
            {{"data_dir", data_dir.string()},
             {"store", describe_store(identity)},
             {"earlier_use", joined(opening.earlier_use)},
             {"renamed_aside", joined(set_aside_names)}});
}

// A ledger and the lock that makes it this process's alone (flock on a file beside the
// database, released when the process ends, however it ends).
class LockedLedger final : public UsageLedger {
 public:
  explicit LockedLedger(const std::filesystem::path& data_dir) {
    const std::filesystem::path lock_file = data_dir / "ledger.lock";
    lock_fd_ = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0)
      throw StoreError(lock_file.string() + ": cannot open: " + std::strerror(errno));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(lock_fd_);
      throw StoreError("the usage ledger in " + data_dir.string() +
                       " is in use by another toolcalc process: each instance of a fleet "
                       "needs a data directory of its own");
    }
    store_ = std::make_unique<SqliteAccountStore>(sqlite_store_file(data_dir));
  }
  ~LockedLedger() override {
    store_.reset();
    ::close(lock_fd_);
  }
  LockedLedger(const LockedLedger&) = delete;
  LockedLedger& operator=(const LockedLedger&) = delete;

  const std::string& instance_id() const override { return store_->instance_id(); }
  std::unordered_map<int64_t, int64_t> load_counts(std::string_view period) override {
    return store_->load_counts(period);
  }
  void add_counts(const std::vector<UsageDelta>& deltas) override { store_->add_counts(deltas); }
  bool add_counts_if_free(const std::vector<UsageDelta>& deltas) override {
    return store_->add_counts_if_free(deltas);
  }
  void checkpoint() override { store_->checkpoint(); }

 private:
  int lock_fd_ = -1;
  std::unique_ptr<SqliteAccountStore> store_;
};

}  // namespace

std::unique_ptr<AccountStore> open_sqlite_store(const std::filesystem::path& data_dir,
                                                NewStore new_store) {
  prepare_store(data_dir, new_store);
  return std::make_unique<SqliteAccountStore>(sqlite_store_file(data_dir));
}

std::unique_ptr<AccountStore> open_sqlite_store_for_serving(const std::filesystem::path& data_dir,
                                                            NewStore new_store) {
  prepare_store(data_dir, new_store);
  std::unique_ptr<UsageJournal> journal =
      UsageJournal::open_exclusive(usage_journal_file(data_dir));
  if (!journal)
    log::warn(
        "another process serves this data directory: usage is committed to the database "
        "directly (one server per data directory; docs/operations.md)",
        {{"data_dir", data_dir.string()}});
  else if (!journal->mapped())
    log::warn("usage journal written by system calls, not through a mapping (slower)",
              {{"file", usage_journal_file(data_dir).string()}, {"writes", journal->write_mode()}});
  return std::make_unique<SqliteAccountStore>(sqlite_store_file(data_dir), std::move(journal));
}

std::unique_ptr<UsageLedger> open_usage_ledger(const std::filesystem::path& data_dir,
                                               NewStore new_store) {
  prepare_store(data_dir, new_store);
  return std::make_unique<LockedLedger>(data_dir);
}

}  // namespace toolcalc::store
