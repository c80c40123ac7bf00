#pragma once
// A test double for accounts::AccessControl with small, exact limits, so the API's
// decisions (which status, which headers, what is counted) can be checked without a store.
#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"

namespace toolcalc::test_support {

class FakeAccess : public accounts::AccessControl {
 public:
  // Keys that authenticate; everything else is invalid.
  std::map<std::string, accounts::Plan> keys{{"tc_live_good", {"pro", 100, 2}}};
  mutable std::map<std::string, int64_t> window_used;
  int64_t quota_used = 0;
  int64_t now_s = 1'800'000'010;  // 10 s into a minute
  bool store_down = false;        // counting calls throw StoreUnavailable (a shared store)
  bool reserve_early = false;     // the rate step of an execution reserves its quota unit too

  bool store_reachable() const override { return !store_down; }

  accounts::AuthResult authenticate(std::optional<std::string_view> authorization,
                                    std::string_view peer_ip) const override {
    accounts::AuthResult r;
    if (!authorization) {
      r.status = accounts::AuthStatus::Missing;
      r.caller.subject = "ip:" + std::string(peer_ip);
      r.caller.plan = {"anonymous", 5, std::nullopt};
      return r;
    }
    std::string_view v = *authorization;
    if (v.substr(0, 7) == "Bearer ") v.remove_prefix(7);
    auto it = keys.find(std::string(v));
    if (it == keys.end()) {
      r.status = accounts::AuthStatus::Invalid;
      return r;
    }
    r.status = accounts::AuthStatus::Ok;
    r.caller.anonymous = false;
    r.caller.subject = "key:" + it->first;
    r.caller.key_prefix = it->first.substr(0, 12);
    r.caller.label = "test";
    r.caller.plan = it->second;
    return r;
  }
  accounts::RateDecision decide(const accounts::Caller& c, int64_t used) const {
    accounts::RateDecision d;
    d.limit = c.plan.rate_per_minute;
    d.allowed = used <= d.limit;
    d.remaining = std::max<int64_t>(0, d.limit - used);
    d.reset_epoch_s = now_s - now_s % 60 + 60;
    d.retry_after_s = d.allowed ? 0 : d.reset_epoch_s - now_s;
    return d;
  }
  // The step taken at once (throws while the store is down).
  accounts::RateStep take_step(const accounts::Caller& c, bool for_execution) {
    if (store_down) throw accounts::StoreUnavailable("fake store down");
    accounts::RateStep step;
    step.rate = decide(c, ++window_used[c.subject]);
    accounts::CountedUnits counted;  // a shared store's: durable when counted
    if (for_execution && reserve_early && step.rate.allowed)
      step.early = reserve_quota(c, 1, counted);
    return step;
  }
  std::optional<accounts::RateStep> rate_step(const accounts::Caller& c, bool for_execution,
                                              accounts::CountedUnits&,
                                              accounts::Suspendable* request) override {
    if (asynchronous && request) {
      pending.push_back({c, for_execution, request->suspend()});
      return std::nullopt;
    }
    return take_step(c, for_execution);
  }
  accounts::RateDecision peek_rate(const accounts::Caller& c) const override {
    return decide(c, window_used[c.subject]);
  }
  int64_t quota_released = 0;  // units given back so far

  accounts::QuotaReservation reserve_quota(const accounts::Caller& c, int64_t units,
                                           accounts::CountedUnits& counted) override {
    if (store_down) throw accounts::StoreUnavailable("fake store down");
    accounts::QuotaReservation q;
    q.limit = *c.plan.monthly_quota;
    q.allowed = units >= 1 && quota_used + units <= q.limit;
    if (q.allowed) {
      quota_used += units;
      q.units = units;
      counted.add(c.key_id, 0, units);  // as the embedded store records them
    }
    q.remaining = q.limit - quota_used;
    q.retry_after_s = 1000;
    q.resets_at = "2027-01-01T00:00:00Z";
    q.period = "2026-12";
    return q;
  }
  void release_quota(const accounts::Caller& c, const accounts::QuotaReservation& q, int64_t units,
                     accounts::CountedUnits& counted) override {
    if (!q.allowed) return;
    const int64_t n = std::min(units, q.units);
    quota_used -= n;
    quota_released += n;
    counted.add(c.key_id, 0, -n);
  }
  // Durable waits (a group commit on an event loop): with `durable_waits`, await_durable
  // suspends a request that can wait and has units to wait for; complete_durable() tells
  // each that its units are stored.
  bool durable_waits = false;
  std::vector<std::shared_ptr<accounts::Suspended>> waiting_durable;
  accounts::Durability await_durable(const accounts::CountedUnits& counted,
                                     accounts::Suspendable* request) override {
    if (!durable_waits || !request || counted.empty()) return accounts::Durability::Durable;
    waiting_durable.push_back(request->suspend());
    return accounts::Durability::Waiting;
  }
  void complete_durable() {
    std::vector<std::shared_ptr<accounts::Suspended>> waiting;
    waiting.swap(waiting_durable);
    for (auto& request : waiting) request->units_durable(true);
  }
  // Asynchronous mode (a shared store on an event loop): rate_step suspends a request that
  // can wait and queues its step; complete_pending() takes each with take_step and tells
  // the request.
  bool asynchronous = false;
  struct PendingStep {
    accounts::Caller caller;
    bool for_execution;
    std::shared_ptr<accounts::Suspended> request;
  };
  std::vector<PendingStep> pending;

  void complete_pending() {
    std::vector<PendingStep> steps;
    steps.swap(pending);
    for (auto& p : steps) {
      accounts::RateStep step;
      std::exception_ptr error;
      try {
        step = take_step(p.caller, p.for_execution);
      } catch (...) {
        error = std::current_exception();
      }
      p.request->rate_step_taken(std::move(step), error);
    }
  }

  // The usage history: what the Service recorded, and what usage_history answers.
  struct Recorded {
    std::string domain, slug;
    int status;
    int64_t units;
  };
  std::vector<Recorded> recorded;
  std::vector<store::HistoryRow> history;
  int32_t history_first_day = 0, history_end_day = 0;  // the last range asked for
  void record_usage(const accounts::Caller& c, std::string_view domain, std::string_view slug,
                    int status, int64_t units) override {
    if (!c.anonymous) recorded.push_back({std::string(domain), std::string(slug), status, units});
  }
  std::vector<store::HistoryRow> usage_history(const accounts::Caller&, int32_t first_day,
                                               int32_t end_day) override {
    history_first_day = first_day;
    history_end_day = end_day;
    return history;
  }

  accounts::QuotaStatus quota_status(const accounts::Caller& c) const override {
    if (store_down) throw accounts::StoreUnavailable("fake store down");
    accounts::QuotaStatus s;
    s.limit = *c.plan.monthly_quota;
    s.used = quota_used;
    s.remaining = s.limit - quota_used;
    s.period = "2026-12";
    s.resets_at = "2027-01-01T00:00:00Z";
    return s;
  }
};

}  // namespace toolcalc::test_support
