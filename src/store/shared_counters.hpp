#pragma once
// Rate windows and monthly quotas kept by a store every instance of a fleet shares
// (redis_store.hpp: Redis), so that a key's limits hold across the fleet; what
// accounts::SharedAccounts counts with. Every step is atomic in the store, and a count is
// in the store before the client hears about it. A store may grant a server thread units of
// a limit ahead of need (leases, store/counter_leases.hpp): units served never exceed units
// granted, and granted ones never exceed the limit.
// Every call may throw StoreUnavailable (store_errors.hpp).
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string_view>

namespace toolcalc::store {

struct CounterStep {
  bool allowed = false;
  int64_t used = 0;  // the count after the step (unchanged when refused)
};

struct RateAndQuotaStep {
  CounterStep rate;
  CounterStep quota;  // untouched (allowed false, used 0) when the rate unit was refused
};

class SharedCounters {
 public:
  virtual ~SharedCounters() = default;

  // One unit of `subject`'s window that started at `window_start_s`, when fewer than
  // `limit` are used. The window's counter expires on its own after the window.
  virtual CounterStep take_rate(std::string_view subject, int64_t window_start_s,
                                int64_t limit) = 0;
  // take_rate, then (only when it allowed) reserve_quota, in one step. With `reserve`
  // false the quota is only read: `quota.used` is its count, `quota.allowed` false. A
  // refused rate unit also reads the count.
  virtual RateAndQuotaStep take_rate_and_quota(std::string_view subject, int64_t window_start_s,
                                               int64_t rate_limit, int64_t key_id,
                                               std::string_view period, int64_t quota_limit,
                                               bool reserve = true) = 0;
  // `units` of `key_id`'s quota in `period` ("YYYY-MM"), all or none: refused when fewer
  // than `units` are left below `limit`.
  virtual CounterStep reserve_quota(int64_t key_id, std::string_view period, int64_t limit,
                                    int64_t units) = 0;
  // Gives back `units` reserved units (never below zero).
  virtual void release_quota(int64_t key_id, std::string_view period, int64_t units) = 0;

  // take_rate_and_quota (or take_rate when quota_limit is empty) without blocking the
  // calling thread: returns false when this store or thread cannot (the caller then uses
  // the blocking call); otherwise `done` gets the step, or a StoreUnavailable, later on
  // the calling thread's event loop (core/event_loop.hpp).
  using StepDone = std::function<void(const RateAndQuotaStep&, std::exception_ptr)>;
  virtual bool start_rate_step(std::string_view subject, int64_t window_start_s, int64_t rate_limit,
                               int64_t key_id, std::string_view period,
                               std::optional<int64_t> quota_limit, bool reserve, StepDone done) {
    (void)subject, (void)window_start_s, (void)rate_limit, (void)key_id, (void)period;
    (void)quota_limit, (void)reserve, (void)done;
    return false;
  }
  // Whether start_rate_step can work on the calling thread now.
  virtual bool steps_asynchronously() const { return false; }

  // Leases (counter_leases.hpp): with `on`, the steps of executions whose limits are large
  // enough ask Redis for units ahead of need, which take_leased then serves on the calling
  // thread. Only for a caller that counts those units itself and ships them (ship): Redis
  // does not count a leased unit when it is served. Set before the server threads start.
  virtual void lease_units(bool on) { (void)on; }
  // An execution's rate unit and quota unit from the calling thread's leases, without
  // Redis: nullopt when they cannot serve it now (none held, spent, another limit, or
  // limits too small to lease), and the caller starts a step instead. rate.used is the
  // window's count as this thread knows it; quota.used is left 0 for the caller to fill.
  virtual std::optional<RateAndQuotaStep> take_leased(std::string_view subject,
                                                      int64_t window_start_s, int64_t rate_limit,
                                                      int64_t key_id, std::string_view period,
                                                      int64_t quota_limit) {
    (void)subject, (void)window_start_s, (void)rate_limit, (void)key_id, (void)period;
    (void)quota_limit;
    return std::nullopt;
  }
  // Quota units take_leased served and the request did not use (it failed after them):
  // back to the calling thread's lease.
  virtual void return_leased(int64_t key_id, std::string_view period, int64_t quota_limit,
                             int64_t units) {
    (void)key_id, (void)period, (void)quota_limit, (void)units;
  }
  // Ships an instance's count of `key_id` in `period` (usage_ledger.hpp): the month's count
  // grows by what this count adds to the instance's last shipment, once however often it
  // is sent. Returns the month's count after. Blocking.
  virtual int64_t ship(std::string_view instance, int64_t key_id, std::string_view period,
                       int64_t count) = 0;

  virtual int64_t rate_used(std::string_view subject, int64_t window_start_s) = 0;
  virtual int64_t quota_used(int64_t key_id, std::string_view period) = 0;
};

}  // namespace toolcalc::store
