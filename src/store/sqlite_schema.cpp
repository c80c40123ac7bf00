#include "store/sqlite_schema.hpp"

#include <cstdio>

namespace toolcalc::store::sqlite {
namespace {

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

}  // namespace

Database& configure(Database& db) {
  if (sqlite3_busy_timeout(db.handle(), kBusyTimeoutMs) != SQLITE_OK) db.fail("busy_timeout");
  // WAL: readers (a `keys list`, the key poll) never block the writer and the reverse.
  // The setting is stored in the file, so every later connection uses it too.
  if (db.query_text("PRAGMA journal_mode = WAL") != "wal")
    db.fail("cannot switch the database to WAL mode");
  // NORMAL: a commit is in the write-ahead log when it returns, without an fsync, so it
  // survives the process being killed; the log is synced by each checkpoint, which the
  // server makes in the background every flush interval (docs/durability.md), and the last
  // connection to close. No automatic checkpoint: it would sync on the committing thread
  // every 1000 pages.
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

std::string read_ledger_instance(Database& db) {
  char id[17];
  std::snprintf(id, sizeof id, "%016llx",
                static_cast<unsigned long long>(std::stoll(
                    db.query_text("SELECT value FROM meta WHERE name = 'ledger_instance'"))));
  return id;
}

}  // namespace toolcalc::store::sqlite
