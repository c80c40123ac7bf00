#pragma once
// The embedded store's quota alerts (accounts/quota_alerts.hpp): the quota_alerts table,
// one row per key, month and threshold, with its delivery state. Used under the store's
// lock (sqlite_account_store.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "store/account_store.hpp"
#include "store/sqlite_database.hpp"

namespace toolcalc::store::sqlite {

class AlertRows {
 public:
  explicit AlertRows(Database& db);
  // AccountStore::create_alert, lease_due_alerts (one write transaction of its own) and
  // finish_alert.
  bool create(const QuotaAlert& alert);
  std::vector<QuotaAlert> lease_due(int64_t now_s, int64_t lease_until_s, size_t limit);
  void finish(const QuotaAlert& alert, AlertOutcome outcome, int64_t at_s);

 private:
  Database& db_;
  Statement create_, due_, lease_, finish_;
  int key_id_, period_, threshold_, used_, monthly_quota_, created_at_, attempts_;
};

}  // namespace toolcalc::store::sqlite
