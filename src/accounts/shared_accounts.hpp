#pragma once
// AccessControl over a store shared by a fleet of instances: the keys cached in
// memory as in Accounts (reloaded within key_refresh_interval of a change made by any
// process), but every rate unit and quota unit counted in the shared store itself, one
// atomic step per request, so that limits hold across the fleet and a count a client
// was told about is never only in a process's memory. When the store cannot be reached
// the counting calls throw StoreUnavailable (fail closed: 503 STORE_UNAVAILABLE).
//
//   SharedAccounts acc(store::open_redis_store(o), store::open_redis_counters(o), plans,
//                      clock, std::chrono::milliseconds(1000));
//   acc.start();   // background key refresh
//   …
//   acc.stop();
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/background_loop.hpp"
#include "accounts/key_cache.hpp"
#include "accounts/usage_history.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"
#include "store/shared_counters.hpp"

namespace toolcalc::accounts {

class SharedAccounts final : public AccessControl {
 public:
  // Loads the keys before returning (throws what the store throws when it cannot).
  // The usage history is counted in memory and written every history_flush_interval.
  SharedAccounts(std::unique_ptr<store::AccountStore> keys_store,
                 std::unique_ptr<store::SharedCounters> counters, std::vector<Plan> plans,
                 const Clock& clock, std::chrono::milliseconds key_refresh_interval,
                 std::chrono::milliseconds history_flush_interval = std::chrono::seconds(1));
  ~SharedAccounts() override;  // stop()
  SharedAccounts(const SharedAccounts&) = delete;
  SharedAccounts& operator=(const SharedAccounts&) = delete;

  void start();  // the key refresh and history flush thread; again does nothing
  // Idempotent; writes the pending usage history (every count is already in the store).
  void stop();

  std::string create_dev_key(const std::string& plan);  // as Accounts::create_dev_key
  void refresh_keys(bool force = false);
  // Writes the pending usage history; throws what the store throws (kept for next time).
  void flush_history();

  // For quota alerts: the keys with a webhook and a key's usage in `period`.
  std::vector<WebhookKey> webhook_keys() const;
  int64_t quota_used(int64_t key_id, const std::string& period);

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

  std::unique_ptr<store::AccountStore> store_;
  std::unique_ptr<store::SharedCounters> counters_;
  std::vector<Plan> plans_;
  const Clock& clock_;
  std::chrono::milliseconds refresh_interval_, flush_interval_;
  KeyCache keys_;
  UsageHistory history_;

  std::mutex flush_mu_;  // one history flush at a time
  // Written by the background thread only; read by GET /v1/ready.
  std::atomic<bool> refresh_failing_{false};
  bool flush_failing_ = false;  // background thread only
  std::atomic<bool> stopped_{false};
  BackgroundLoop background_;  // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
