#pragma once
// The usage ledger of one instance of a fleet on a shared store (docs/deploy.md, "Usage
// ledger"), and what keeps it and Redis agreeing. Executions served from units Redis
// leased to the instance are counted here: in memory at once, in the ledger (the
// instance's own SQLite file) by group commit before their responses leave, and shipped
// to Redis every ship_interval. The month's count of a key, as this instance knows it, is
// Redis's count plus what the ledger holds unshipped; reconciling the two is this class's
// other job (month_count, shipments_begun and month_count_after_step).
//
//   LedgerShipper shipper(store::open_usage_ledger(data_dir), counters, clock,
//                         {.ship_interval = 10ms, .flush_interval = 1s});
//   shipper.start();  // the committer and the shipping thread
//   … count_unit, give_back, await_durable (server threads)
//   shipper.stop();   // commits, ships and checkpoints what is left
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "accounts/access_control.hpp"
#include "accounts/background_loop.hpp"
#include "accounts/group_commit.hpp"
#include "accounts/monthly_quota.hpp"
#include "core/clock.hpp"
#include "core/thread_safety.hpp"
#include "store/shared_counters.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::accounts {

struct LedgerShipperOptions {
  // How often the counts that moved since their last shipment are shipped.
  std::chrono::milliseconds ship_interval{10};
  // How often units given back are written to the ledger, and the ledger checkpointed
  // (what a power loss can no longer take).
  std::chrono::milliseconds flush_interval{1000};
};

class LedgerShipper {
 public:
  // Loads this month's counts from `ledger` (not null) and ships what it holds before
  // returning (what an earlier run left unshipped: it was killed, or Redis was down).
  // Throws what the ledger or the counters throw when they cannot. `counters` and `clock`
  // must outlive this object.
  LedgerShipper(std::unique_ptr<store::UsageLedger> ledger, store::SharedCounters& counters,
                const Clock& clock, LedgerShipperOptions options = {});
  ~LedgerShipper();  // stop()
  LedgerShipper(const LedgerShipper&) = delete;
  LedgerShipper& operator=(const LedgerShipper&) = delete;

  // Starts the committer (GroupCommit) and the shipping thread: every ship_interval it
  // ships, every flush_interval it writes units given back and checkpoints. A failure is
  // logged once per outage and retried. Calling it again does nothing.
  void start();
  // Stops both threads, writes what is pending, ships and checkpoints. Idempotent; a
  // failure is logged (the ledger keeps the counts, shipped at the next start).
  void stop();

  // Ships each count of this month and the last one that moved since its last shipment;
  // throws StoreUnavailable when Redis cannot take them (they stay in the ledger).
  void ship();

  // One unit of `key_id` counted in this month (no limit: the lease is the limit), written
  // to the ledger by the group commit that await_durable waits for.
  struct Counted {
    QuotaReservation reservation;  // its period, reset and units; limit and remaining unset
    int64_t month = 0;             // UtcMonth::index() of the period
    int64_t month_count = 0;       // the key's month count as this instance knows it, after
  };
  Counted count_unit(int64_t key_id);
  // Units of a count_unit reservation the request did not use: out of the ledger's count
  // (written with the next flush).
  void give_back(int64_t key_id, const QuotaReservation& reservation, int64_t units);
  // GroupCommit::await_durable over the ledger.
  Durability await_durable(const CountedUnits& counted, Suspendable* request);

  // The month count of `key_id` in `period`: Redis's, plus in the current month what the
  // ledger holds unshipped (read between two shipments of it). Throws StoreUnavailable.
  int64_t month_count(int64_t key_id, const std::string& period);

  // A rate step's reply carries Redis's month count of its key. Taken before the step is
  // sent: the shipments of that count begun so far, or nullopt while one is under way (the
  // reply may then include it or not).
  std::optional<uint64_t> shipments_begun(int64_t key_id, int64_t month) const;
  // The month count the step reported as this instance knows it: `store_count` plus what
  // the ledger holds unshipped. When no shipment of the key's month began since
  // `shipments_before`, the reply holds exactly what this instance shipped of it last, and
  // becomes the base count_unit adds to (units other instances shipped, or steps counted
  // in Redis, show from then on). Other keys' shipments do not matter: each count is its own.
  int64_t month_count_after_step(int64_t key_id, int64_t month, int64_t store_count,
                                 std::optional<uint64_t> shipments_before);

  // Group commits into the ledger (tests).
  uint64_t group_commits() const { return commits_.group_commits(); }

 private:
  void ship_in_background();   // reports a failing shipment once per outage
  void flush_in_background();  // reports every failed flush or checkpoint
  // What `key_id`'s month count (UtcMonth::index()) in the ledger adds to Redis's count as
  // last seen: the units counted since the last shipment.
  int64_t unshipped(int64_t key_id, int64_t month) const TOOLCALC_EXCLUDES(shipped_mu_);
  // The month count as this instance knows it, given the ledger's count `counted`: Redis's
  // as last seen outside a shipment, plus what the ledger holds beyond what that included.
  int64_t known_month_count(int64_t key_id, int64_t month, int64_t counted) const
      TOOLCALC_EXCLUDES(shipped_mu_);
  // Ships one count of the ledger when it moved since its last shipment.
  void ship_count(int64_t key_id, const std::string& period, int64_t month, int64_t count)
      TOOLCALC_REQUIRES(run_mu_);

  std::unique_ptr<store::UsageLedger> ledger_;
  store::SharedCounters& counters_;
  const Clock& clock_;
  const LedgerShipperOptions options_;
  // The ledger's counts per key and month, and the group commit that writes them.
  MonthlyQuota counts_;
  GroupCommit commits_;

  // One ship() at a time (the constructor's, the thread's, stop's, a test's); what the
  // last one saw of the ledger's writes, so that one with nothing new reads nothing.
  Mutex run_mu_;
  bool ledger_read_ TOOLCALC_GUARDED_BY(run_mu_) = false;
  uint64_t writes_shipped_ TOOLCALC_GUARDED_BY(run_mu_) = 0;
  // One key's shipment, and a month count put together from Redis and the ledger, never
  // interleave: the count would hold the shipped units twice, or not at all.
  Mutex key_shipment_mu_ TOOLCALC_ACQUIRED_AFTER(run_mu_);
  // Per key and month (UtcMonth::index()): the ledger's count as last shipped, and
  // Redis's count that shipment returned (the base of known_month_count).
  struct Shipped {
    int64_t count = 0;
    int64_t store_count = 0;
    uint64_t shipments = 0;  // begun, of this key's month
    bool shipping = false;   // one is on its way
  };
  // Taken on the serving path (count_unit): never held across a round trip.
  mutable Mutex shipped_mu_ TOOLCALC_ACQUIRED_AFTER(key_shipment_mu_);
  std::map<std::pair<int64_t, int64_t>, Shipped> shipped_ TOOLCALC_GUARDED_BY(shipped_mu_);

  bool ship_failing_ = false;  // the shipping thread's own
  std::atomic<bool> stopped_{false};
  BackgroundLoop background_;  // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
