#pragma once
// The embedded store's counts: units per key and month (monthly_usage, the quota usage of
// the embedded store's keys; usage_ledger, a fleet instance's ledger: the same shape) and
// the usage history (usage_history). Used under the store's lock (sqlite_account_store.hpp);
// writes go into the caller's transaction unless they say otherwise.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/account_store.hpp"
#include "store/sqlite_database.hpp"

namespace toolcalc::store::sqlite {

// One table of (key id, period) → count, a count never below zero.
class PeriodCounts {
 public:
  // monthly_usage (column `used`) and usage_ledger (column `count`).
  static PeriodCounts monthly_usage(Database& db);
  static PeriodCounts usage_ledger(Database& db);

  // key id → count in `period`; keys without a row are absent.
  std::unordered_map<int64_t, int64_t> load(std::string_view period);
  // Adds each non-zero delta (a negative one stops at zero).
  void add(const std::vector<UsageDelta>& deltas);
  void add(int64_t key_id, std::string_view period, int64_t delta);
  // Adds the deltas in a transaction of their own when SQLite grants the write lock at
  // once: false, having written nothing, when another connection holds it (no busy wait).
  // Counted as one store round trip when it wrote.
  bool add_unless_busy(const std::vector<UsageDelta>& deltas);

 private:
  PeriodCounts(Database& db, std::string_view select_sql, std::string_view upsert_sql);

  Database& db_;
  Statement select_, upsert_;
  int key_id_, count_;
};

// usage_history: counts per key, UTC day, tool and metric.
class HistoryRows {
 public:
  explicit HistoryRows(Database& db);
  // Adds each positive delta.
  void add(const std::vector<HistoryDelta>& history);
  // AccountStore::load_history and drop_history_before.
  std::vector<HistoryRow> load(int64_t key_id, int32_t first_day, int32_t end_day);
  void drop_before(int32_t day);

 private:
  Statement add_, select_, drop_;
  int day_, tool_, metric_, count_;
};

}  // namespace toolcalc::store::sqlite
