#include "store/sqlite_usage.hpp"

#include "core/service_metrics.hpp"

namespace toolcalc::store::sqlite {

PeriodCounts PeriodCounts::monthly_usage(Database& db) {
  return PeriodCounts(db, "SELECT key_id, used AS count FROM monthly_usage WHERE period = ?1",
                      "INSERT INTO monthly_usage(key_id, period, used) VALUES (?1, ?2, MAX(?3, 0)) "
                      "ON CONFLICT(key_id, period) DO UPDATE SET used = MAX(used + ?3, 0)");
}

PeriodCounts PeriodCounts::usage_ledger(Database& db) {
  return PeriodCounts(db, "SELECT key_id, count FROM usage_ledger WHERE period = ?1",
                      "INSERT INTO usage_ledger(key_id, period, count) VALUES (?1, ?2, MAX(?3, 0)) "
                      "ON CONFLICT(key_id, period) DO UPDATE SET count = MAX(count + ?3, 0)");
}

PeriodCounts::PeriodCounts(Database& db, std::string_view select_sql, std::string_view upsert_sql)
    : db_(db),
      select_(db, select_sql),
      upsert_(db, upsert_sql),
      key_id_(select_.column("key_id")),
      count_(select_.column("count")) {}

std::unordered_map<int64_t, int64_t> PeriodCounts::load(std::string_view period) {
  std::unordered_map<int64_t, int64_t> out;
  Statement::Use use(select_);
  use.bind_text(1, period);
  while (use.step()) out[use.integer(key_id_)] = use.integer(count_);
  return out;
}

void PeriodCounts::add(const std::vector<UsageDelta>& deltas) {
  for (const auto& d : deltas) add(d.key_id, d.period, d.delta);
}

void PeriodCounts::add(int64_t key_id, std::string_view period, int64_t delta) {
  if (delta == 0) return;
  Statement::Use use(upsert_);
  use.bind(1, key_id).bind_text(2, period).bind(3, delta);
  use.step();
}

bool PeriodCounts::add_unless_busy(const std::vector<UsageDelta>& deltas) {
  // No busy wait at BEGIN: another process holding the write lock answers SQLITE_BUSY at
  // once. Restored before the store's lock is released.
  NoBusyWait no_wait(db_);
  // One key's units (a group's usual content): one statement in autocommit, which is
  // its own transaction, without running BEGIN and COMMIT as statements of their own
  // (about a third of a group commit's instructions).
  const UsageDelta* only = nullptr;
  size_t writes = 0;
  for (const auto& d : deltas)
    if (d.delta != 0) only = &d, ++writes;
  if (writes == 0) return true;
  if (writes == 1) {
    Statement::Use use(upsert_);
    use.bind(1, only->key_id).bind_text(2, only->period).bind(3, only->delta);
    if (!use.step_unless_busy()) return false;
    metrics::store_round_trips.inc();
    return true;
  }
  if (!db_.try_control(Database::BeginImmediate)) return false;
  metrics::store_round_trips.inc();
  Transaction tx(db_, Transaction::Begun);
  add(deltas);
  tx.commit();
  return true;
}

HistoryRows::HistoryRows(Database& db)
    : add_(db,
           "INSERT INTO usage_history(key_id, day, tool, metric, count) "
           "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(key_id, day, tool, metric) "
           "DO UPDATE SET count = count + ?5"),
      select_(db,
              "SELECT day, tool, metric, count FROM usage_history WHERE key_id = ?1 "
              "AND day >= ?2 AND day < ?3 ORDER BY day, tool, metric"),
      drop_(db, "DELETE FROM usage_history WHERE day < ?1"),
      day_(select_.column("day")),
      tool_(select_.column("tool")),
      metric_(select_.column("metric")),
      count_(select_.column("count")) {}

void HistoryRows::add(const std::vector<HistoryDelta>& history) {
  for (const auto& h : history) {
    if (h.delta <= 0) continue;
    Statement::Use use(add_);
    use.bind(1, h.key_id).bind(2, h.day).bind_text(3, h.tool).bind(4, h.metric).bind(5, h.delta);
    use.step();
  }
}

std::vector<HistoryRow> HistoryRows::load(int64_t key_id, int32_t first_day, int32_t end_day) {
  std::vector<HistoryRow> out;
  Statement::Use use(select_);
  use.bind(1, key_id).bind(2, first_day).bind(3, end_day);
  while (use.step())
    out.push_back({static_cast<int32_t>(use.integer(day_)), use.text(tool_),
                   static_cast<int32_t>(use.integer(metric_)), use.integer(count_)});
  return out;
}

void HistoryRows::drop_before(int32_t day) {
  Statement::Use use(drop_);
  use.bind(1, day);
  use.step();
}

}  // namespace toolcalc::store::sqlite
