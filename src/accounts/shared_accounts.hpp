#pragma once
// AccessControl over a store shared by a fleet of instances: the keys cached in
// memory as in Accounts (reloaded within key_refresh_interval of a change made by any
// process), every rate unit and quota unit decided in the shared store, so that limits hold
// across the fleet, and no count a client was told about only in a process's memory.
// Units are counted in the shared store itself, one atomic step per request, except those
// of executions served from units the store leased to a server thread ahead of need
// (store/counter_leases.hpp): with a usage ledger, those are counted in the ledger (the
// instance's own SQLite file) before their responses leave, by group commit as on the
// embedded store, and shipped to Redis every ship_interval (docs/deploy.md, "Usage
// ledger"). When the store cannot be reached a counting call that needs it throws
// StoreUnavailable (fail closed: 503 STORE_UNAVAILABLE).
//
//   SharedAccounts acc(store::open_redis_store(o), store::open_redis_counters(o), plans,
//                      clock, std::chrono::milliseconds(1000), std::chrono::seconds(1),
//                      store::open_usage_ledger(data_dir));
//   acc.start();   // background key refresh, history flush, shipping; the committer
//   …
//   acc.stop();    // ships what the ledger holds
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/background_loop.hpp"
#include "accounts/group_commit.hpp"
#include "accounts/key_cache.hpp"
#include "accounts/monthly_quota.hpp"
#include "accounts/usage_history.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"
#include "store/shared_counters.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::accounts {

class SharedAccounts final : public AccessControl {
 public:
  // Loads the keys, and ships what `ledger` holds, before returning (throws what the store
  // throws when it cannot). The usage history is counted in memory and written every
  // history_flush_interval, which is also how often the ledger writes given-back units and
  // checkpoints. Without a ledger no unit is leased: every one is counted in Redis.
  SharedAccounts(std::unique_ptr<store::AccountStore> keys_store,
                 std::unique_ptr<store::SharedCounters> counters, std::vector<Plan> plans,
                 const Clock& clock, std::chrono::milliseconds key_refresh_interval,
                 std::chrono::milliseconds history_flush_interval = std::chrono::seconds(1),
                 std::unique_ptr<store::UsageLedger> ledger = nullptr,
                 std::chrono::milliseconds ship_interval = std::chrono::milliseconds(10));
  ~SharedAccounts() override;  // stop()
  SharedAccounts(const SharedAccounts&) = delete;
  SharedAccounts& operator=(const SharedAccounts&) = delete;

  void start();  // the key refresh and history flush thread; again does nothing
  // Idempotent; writes the pending usage history and ships the ledger (a failure is
  // reported on stderr: the ledger keeps the counts for the next start).
  void stop();

  std::string create_dev_key(const std::string& plan);  // as Accounts::create_dev_key
  void refresh_keys(bool force = false);
  // Writes the pending usage history; throws what the store throws (kept for next time).
  void flush_history();

  // For quota alerts: the keys with a webhook and a key's usage in `period` (the store's
  // count and what this instance has not shipped yet).
  std::vector<WebhookKey> webhook_keys() const;
  int64_t quota_used(int64_t key_id, const std::string& period);

  // Ships every count of the ledger that moved since its last shipment (the background
  // thread does, every ship_interval); throws StoreUnavailable when Redis cannot take them
  // (they stay in the ledger).
  void ship_ledger();
  // Group commits into the ledger (tests).
  uint64_t ledger_commits() const { return commits_ ? commits_->group_commits() : 0; }

  // AccessControl
  AuthResult authenticate(std::optional<std::string_view> authorization,
                          std::string_view peer_ip) const override;
  RateDecision take_rate_unit(const Caller& caller) override;
  RateDecision take_rate_unit_for_execution(const Caller& caller,
                                            std::optional<QuotaReservation>& early) override;
  RateDecision peek_rate(const Caller& caller) const override;
  QuotaReservation reserve_quota(const Caller& caller, int64_t units) override;
  void release_quota(const Caller& caller, const QuotaReservation& reservation,
                     int64_t units) override;
  QuotaStatus quota_status(const Caller& caller) const override;
  bool start_rate_step(const Caller& caller, bool for_execution, RateStepDone& done) override;
  std::optional<RateStep> take_rate_step_now(const Caller& caller, bool for_execution) override;
  Durability await_durable(const CountedUnits& counted,
                           std::unique_ptr<DurableWait>& wait) override;
  bool steps_asynchronously() const override { return counters_->steps_asynchronously(); }
  bool store_reachable() const override {
    return !refresh_failing_.load(std::memory_order_relaxed);
  }
  RateStep take_rate_step(const Caller& caller, bool for_execution) override;
  void record_usage(const Caller& caller, std::string_view domain, std::string_view slug,
                    int status, int64_t units) override;
  std::vector<store::HistoryRow> usage_history(const Caller& caller, int32_t first_day,
                                               int32_t end_day) override;
  void keys_changed() override;

 private:
  void refresh_in_background();        // reports a failing refresh once per outage
  void flush_history_in_background();  // the same for the history
  void ship_in_background();           // the same for shipping (and the ledger's flush)

  // What this instance's month count of `key_id` (now's month) adds to the store's count as
  // last seen: the units counted in the ledger since the last shipment. ship_mu_ held by
  // the caller when the two must not change between reading the store and this.
  int64_t unshipped(int64_t key_id, int64_t month) const;
  // The month's count of `key_id` in `period` as this instance knows it: the store's, and
  // in the current month what the ledger holds unshipped.
  int64_t month_count(int64_t key_id, const std::string& period) const;
  // The month's count as this instance knows it, given the ledger's count `counted`: the
  // store's as last seen outside a shipment, plus what the ledger holds beyond what that
  // count included.
  int64_t known_month_count(int64_t key_id, int64_t month, int64_t counted) const;
  // A month count the store reported for a step started when `shipments_before` shipments
  // of that key's month had begun (shipments_of).
  static constexpr uint64_t kShipmentUnderWay = ~uint64_t{0};
  uint64_t shipments_of(int64_t key_id, int64_t month) const;
  void note_store_count(int64_t key_id, int64_t month, int64_t store_count,
                        uint64_t shipments_before);

  std::unique_ptr<store::AccountStore> store_;
  std::unique_ptr<store::SharedCounters> counters_;
  std::vector<Plan> plans_;
  const Clock& clock_;
  std::chrono::milliseconds refresh_interval_, flush_interval_;
  KeyCache keys_;
  UsageHistory history_;

  // The usage ledger, when the instance has one; its counts per key and month (no limit:
  // the leases are the limit), and the group commit that writes them.
  std::unique_ptr<store::UsageLedger> ledger_;
  MonthlyQuota ledger_counts_;
  std::unique_ptr<GroupCommit> commits_;
  std::chrono::milliseconds ship_interval_;
  // Per key and month (UtcMonth::index()): the ledger's count as last shipped, and the
  // store's count that shipment returned (the base of known_month_count).
  struct Shipped {
    int64_t count = 0;
    int64_t store_count = 0;
    uint64_t shipments = 0;  // begun, of this key's month
    bool shipping = false;   // one is on its way
  };
  mutable std::mutex shipped_mu_;  // shipped_
  std::map<std::pair<int64_t, int64_t>, Shipped> shipped_;
  mutable std::mutex ship_mu_;  // one shipment at a time; quota_status reads between them
  bool ship_failing_ = false;   // background thread only
  // Whether ship_ledger read the ledger, and the writes it had seen then (shipping and the
  // constructor's, which come one after the other).
  bool ledger_read_ = false;
  uint64_t writes_shipped_ = 0;

  std::mutex flush_mu_;  // one history flush at a time
  // Written by the background thread only; read by GET /v1/ready.
  std::atomic<bool> refresh_failing_{false};
  bool flush_failing_ = false;  // background thread only
  std::atomic<bool> stopped_{false};
  BackgroundLoop background_;  // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
