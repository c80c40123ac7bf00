#include "store/sqlite_alerts.hpp"

#include <utility>

namespace toolcalc::store::sqlite {

AlertRows::AlertRows(Database& db)
    : db_(db),
      create_(db,
              "INSERT INTO quota_alerts(key_id, period, threshold, used, monthly_quota, "
              "created_at, attempts, next_attempt_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?6) "
              "ON CONFLICT(key_id, period, threshold) DO NOTHING RETURNING key_id"),
      due_(db,
           "SELECT key_id, period, threshold, used, monthly_quota, created_at, attempts "
           "FROM quota_alerts WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ?1 "
           "ORDER BY next_attempt_at LIMIT ?2"),
      lease_(db,
             "UPDATE quota_alerts SET next_attempt_at = ?4 "
             "WHERE key_id = ?1 AND period = ?2 AND threshold = ?3"),
      finish_(db,
              "UPDATE quota_alerts SET attempts = attempts + 1, next_attempt_at = ?4, "
              "delivered_at = ?5 WHERE key_id = ?1 AND period = ?2 AND threshold = ?3"),
      key_id_(due_.column("key_id")),
      period_(due_.column("period")),
      threshold_(due_.column("threshold")),
      used_(due_.column("used")),
      monthly_quota_(due_.column("monthly_quota")),
      created_at_(due_.column("created_at")),
      attempts_(due_.column("attempts")) {}

bool AlertRows::create(const QuotaAlert& a) {
  Statement::Use use(create_);
  use.bind(1, a.key_id).bind_text(2, a.period).bind(3, a.threshold_pct).bind(4, a.used);
  use.bind(5, a.monthly_quota).bind(6, a.created_epoch_s);
  const bool created = use.step();
  while (use.step()) {
  }
  return created;
}

std::vector<QuotaAlert> AlertRows::lease_due(int64_t now_s, int64_t lease_until_s, size_t limit) {
  // One write transaction: another process's lease waits for it (busy_timeout) and
  // then no longer sees these alerts as due.
  Transaction tx(db_, Transaction::Write);
  std::vector<QuotaAlert> out;
  {
    Statement::Use use(due_);
    use.bind(1, now_s).bind(2, static_cast<int64_t>(limit));
    while (use.step()) {
      QuotaAlert a;
      a.key_id = use.integer(key_id_);
      a.period = use.text(period_);
      a.threshold_pct = static_cast<int32_t>(use.integer(threshold_));
      a.used = use.integer(used_);
      a.monthly_quota = use.integer(monthly_quota_);
      a.created_epoch_s = use.integer(created_at_);
      a.attempts = static_cast<int32_t>(use.integer(attempts_));
      out.push_back(std::move(a));
    }
  }
  for (const auto& a : out) {
    Statement::Use use(lease_);
    use.bind(1, a.key_id).bind_text(2, a.period).bind(3, a.threshold_pct).bind(4, lease_until_s);
    use.step();
  }
  tx.commit();
  return out;
}

void AlertRows::finish(const QuotaAlert& a, AlertOutcome outcome, int64_t at_s) {
  Statement::Use use(finish_);
  use.bind(1, a.key_id).bind_text(2, a.period).bind(3, a.threshold_pct);
  if (outcome == AlertOutcome::Retry) use.bind(4, at_s);
  if (outcome == AlertOutcome::Delivered) use.bind(5, at_s);
  use.step();
}

}  // namespace toolcalc::store::sqlite
