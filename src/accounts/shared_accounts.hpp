#pragma once
// AccessControl over a store shared by a fleet of instances: the keys cached in
// memory as in Accounts (reloaded within key_refresh_interval of a change made by any
// process), every rate unit and quota unit decided in the shared store, so that limits hold
// across the fleet, and no count a client was told about only in a process's memory.
// Units are counted in the shared store itself, one atomic step per request, except those
// of executions served from units the store leased to a server thread ahead of need
// (store/counter_leases.hpp): with a usage ledger, those are counted in the ledger (the
// instance's own SQLite file) before their responses leave and shipped to Redis every
// ship_interval, by its LedgerShipper (ledger_shipper.hpp; docs/deploy.md, "Usage
// ledger"). When the store cannot be reached a counting call that needs it throws
// StoreUnavailable (fail closed: 503 STORE_UNAVAILABLE).
//
//   SharedAccounts acc(clock, {.keys_store = store::open_redis_store(o),
//                              .counters = store::open_redis_counters(o),
//                              .plans = plans,
//                              .ledger = store::open_usage_ledger(data_dir)});
//   acc.start();   // background key refresh and history flush; the ledger's shipping
//   …
//   acc.stop();    // ships what the ledger holds
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/background_loop.hpp"
#include "accounts/key_cache.hpp"
#include "accounts/ledger_shipper.hpp"
#include "accounts/usage_history.hpp"
#include "core/clock.hpp"
#include "core/thread_safety.hpp"
#include "store/account_store.hpp"
#include "store/shared_counters.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::accounts {

struct SharedAccountsOptions {
  std::unique_ptr<store::AccountStore> keys_store;
  std::unique_ptr<store::SharedCounters> counters;
  std::vector<Plan> plans;
  // How soon a key created or revoked by another process is seen.
  std::chrono::milliseconds key_refresh_interval{1000};
  // How often the usage history counted in memory is written, and the ledger writes
  // given-back units and checkpoints.
  std::chrono::milliseconds flush_interval{1000};
  // This instance's usage ledger. Without one no unit is leased: every one is counted in
  // Redis.
  std::unique_ptr<store::UsageLedger> ledger = nullptr;
  std::chrono::milliseconds ship_interval{10};
};

class SharedAccounts final : public AccessControl {
 public:
  // Loads the keys, and ships what the ledger holds, before returning (throws what the
  // store throws when it cannot). `clock` must outlive this object.
  SharedAccounts(const Clock& clock, SharedAccountsOptions options);
  ~SharedAccounts() override;  // stop()
  SharedAccounts(const SharedAccounts&) = delete;
  SharedAccounts& operator=(const SharedAccounts&) = delete;

  // The key refresh and history flush thread, and the ledger's committer and shipping
  // thread; again does nothing.
  void start();
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

  // LedgerShipper::ship (the shipping thread does it every ship_interval); nothing
  // without a ledger.
  void ship_ledger() {
    if (shipper_) shipper_->ship();
  }
  // Group commits into the ledger (tests).
  uint64_t ledger_commits() const { return shipper_ ? shipper_->group_commits() : 0; }

  // AccessControl
  AuthResult authenticate(std::optional<std::string_view> authorization,
                          std::string_view peer_ip) const override;
  // Served from units the store leased to this thread when it can (no round trip; the
  // execution's quota unit counted in the ledger and in `counted`); else, with `request`
  // and an event loop, started on the thread's Redis pipeline (suspended); else blocking.
  // One script for the rate unit and the month either way: reserved for an execution,
  // read otherwise (the RateLimit header's month costs no second round trip).
  std::optional<RateStep> rate_step(const Caller& caller, bool for_execution, CountedUnits& counted,
                                    Suspendable* request) override;
  RateDecision peek_rate(const Caller& caller) const override;
  QuotaReservation reserve_quota(const Caller& caller, int64_t units,
                                 CountedUnits& counted) override;
  void release_quota(const Caller& caller, const QuotaReservation& reservation, int64_t units,
                     CountedUnits& counted) override;
  QuotaStatus quota_status(const Caller& caller) const override;
  Durability await_durable(const CountedUnits& counted, Suspendable* request) override;
  bool store_reachable() const override {
    return !refresh_failing_.load(std::memory_order_relaxed);
  }
  void record_usage(const Caller& caller, std::string_view domain, std::string_view slug,
                    int status, int64_t units) override;
  std::vector<store::HistoryRow> usage_history(const Caller& caller, int32_t first_day,
                                               int32_t end_day) override;
  void keys_changed() override;

 private:
  void refresh_in_background();        // reports a failing refresh once per outage
  void flush_history_in_background();  // the same for the history
  // The month's count of `key_id` in `period` as this instance knows it: the store's, and
  // in the current month what the ledger holds unshipped.
  int64_t month_count(int64_t key_id, const std::string& period) const;
  // What a rate step needs of its caller.
  struct StepOf {
    std::string_view subject;
    int64_t rate_limit = 0;
    std::optional<int64_t> quota_limit;  // nullopt: no quota (the month is not read)
    int64_t key_id = 0;
    bool for_execution = false;
  };
  // rate_step's three ways: from this thread's leases (nullopt when they cannot serve it),
  // on the thread's Redis pipeline (`request` suspended, told later), blocking.
  std::optional<RateStep> leased_step(const Caller& caller, bool for_execution,
                                      CountedUnits& counted);
  void start_step(const StepOf& step, Suspendable& request);
  RateStep blocking_step(const StepOf& step);

  std::unique_ptr<store::AccountStore> store_;
  std::unique_ptr<store::SharedCounters> counters_;
  std::vector<Plan> plans_;
  const Clock& clock_;
  std::chrono::milliseconds refresh_interval_, flush_interval_;
  KeyCache keys_;
  UsageHistory history_;
  // Counts, writes and ships the units of executions served from leases; null without a
  // usage ledger.
  std::unique_ptr<LedgerShipper> shipper_;

  Mutex flush_mu_;  // one history flush at a time
  // Written by the background thread only; read by GET /v1/ready.
  std::atomic<bool> refresh_failing_{false};
  bool flush_failing_ = false;  // background thread only
  std::atomic<bool> stopped_{false};
  BackgroundLoop background_;  // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
