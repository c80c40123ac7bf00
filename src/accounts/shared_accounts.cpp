#include "accounts/shared_accounts.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <exception>
#include <utility>

#include "accounts/monthly_quota.hpp"
#include "accounts/rate_window.hpp"
#include "accounts/utc_month.hpp"
#include "core/event_loop.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::accounts {
namespace {

bool has_quota(const Caller& caller) {
  return !caller.anonymous && caller.plan.monthly_quota.has_value();
}

// The reservation of a plan without a quota (anonymous callers, unlimited plans).
QuotaReservation unlimited_reservation(int64_t now_s, int64_t units) {
  const UtcMonthText& month = utc_month_text(now_s);
  QuotaReservation r;
  r.allowed = true;
  r.unlimited = true;
  r.units = units;
  r.period = month.period;
  r.resets_at = month.resets_at;
  r.retry_after_s = month.month.end_s - now_s;
  return r;
}

QuotaReservation reservation(const UtcMonthText& month, int64_t now_s, int64_t limit,
                             const store::CounterStep& step, int64_t units) {
  QuotaReservation r;
  r.allowed = step.allowed;
  r.units = step.allowed ? units : 0;
  r.limit = limit;
  r.remaining = std::max<int64_t>(0, limit - step.used);
  r.period = month.period;
  r.resets_at = month.resets_at;
  r.retry_after_s = std::max<int64_t>(1, month.month.end_s - now_s);
  return r;
}

// What the counters' step reports: the rate decision; with a quota, the month's count
// (read or reserved with the unit), and when `reserved` and the unit was allowed, the
// quota reservation made with it.
RateStep rate_step_of(const WindowBounds& w, int64_t limit, std::optional<int64_t> quota_limit,
                      bool reserved, const store::RateAndQuotaStep& s) {
  RateStep step;
  step.rate = rate_decision(w, limit, s.rate.used, s.rate.allowed);
  if (!quota_limit) return step;
  step.month = QuotaView{*quota_limit, std::max<int64_t>(0, *quota_limit - s.quota.used)};
  if (reserved && s.rate.allowed)
    step.early = reservation(utc_month_text(w.now_s), w.now_s, *quota_limit, s.quota, 1);
  return step;
}

}  // namespace

SharedAccounts::SharedAccounts(const Clock& clock, SharedAccountsOptions options)
    : store_(std::move(options.keys_store)),
      counters_(std::move(options.counters)),
      plans_(std::move(options.plans)),
      clock_(clock),
      refresh_interval_(options.key_refresh_interval),
      flush_interval_(options.flush_interval),
      keys_(*store_, plans_, clock_) {
  keys_.refresh(true);
  if (!options.ledger) return;
  shipper_ = std::make_unique<LedgerShipper>(
      std::move(options.ledger), *counters_, clock_,
      LedgerShipperOptions{.ship_interval = options.ship_interval,
                           .flush_interval = options.flush_interval});
  counters_->lease_units(true);
}

SharedAccounts::~SharedAccounts() {
  stop();
}

void SharedAccounts::start() {
  if (shipper_) shipper_->start();
  const auto now = std::chrono::steady_clock::now();
  background_.start(
      std::min(now + refresh_interval_, now + flush_interval_),
      [this, next_refresh = now + refresh_interval_, next_flush = now + flush_interval_]() mutable {
        const auto t = std::chrono::steady_clock::now();
        if (t >= next_refresh) {
          refresh_in_background();
          next_refresh = t + refresh_interval_;
        }
        if (t >= next_flush) {
          flush_history_in_background();
          next_flush = t + flush_interval_;
        }
        return std::min(next_refresh, next_flush);
      });
}

void SharedAccounts::stop() {
  if (stopped_.exchange(true)) return;
  background_.stop();
  try {
    flush_history();
  } catch (const std::exception& e) {
    log::error("accounts: final usage history flush failed, recent history is lost",
               {{"error", e.what()}});
  }
  if (shipper_) shipper_->stop();
}

void SharedAccounts::flush_history() {
  MutexLock lock(flush_mu_);
  auto pending = history_.take_pending();
  if (pending.empty()) return;
  try {
    store_->add_usage({}, pending);
  } catch (...) {
    history_.restore_pending(pending);
    throw;
  }
}

void SharedAccounts::flush_history_in_background() {
  try {
    flush_history();
    if (flush_failing_) log::info("accounts: usage history flush works again");
    flush_failing_ = false;
  } catch (const std::exception& e) {
    metrics::store_failures.inc();
    if (!flush_failing_)
      log::warn("accounts: usage history flush failed (will retry)", {{"error", e.what()}});
    flush_failing_ = true;
  }
}

void SharedAccounts::record_usage(const Caller& caller, std::string_view domain,
                                  std::string_view slug, int status, int64_t units) {
  if (caller.anonymous) return;
  history_.record(caller.key_id, clock_.now_s(), domain, slug, status, units);
}

std::vector<store::HistoryRow> SharedAccounts::usage_history(const Caller& caller,
                                                             int32_t first_day, int32_t end_day) {
  if (caller.anonymous) return {};
  std::vector<store::HistoryRow> stored;
  try {
    stored = store_->load_history(caller.key_id, first_day, end_day);
  } catch (const store::StoreError& e) {
    throw StoreUnavailable(e.what());
  }
  return merge_history(std::move(stored), history_.pending_for(caller.key_id, first_day, end_day));
}

void SharedAccounts::keys_changed() {
  try {
    refresh_keys(true);
  } catch (const std::exception&) {
    // The background refresh picks the change up once the store answers again.
  }
}

std::vector<WebhookKey> SharedAccounts::webhook_keys() const {
  return keys_.webhook_keys();
}

int64_t SharedAccounts::quota_used(int64_t key_id, const std::string& period) {
  return month_count(key_id, period);
}

int64_t SharedAccounts::month_count(int64_t key_id, const std::string& period) const {
  return shipper_ ? shipper_->month_count(key_id, period) : counters_->quota_used(key_id, period);
}

void SharedAccounts::refresh_in_background() {
  try {
    refresh_keys();
    metrics::store_up.set(1);
    if (refresh_failing_.exchange(false)) log::info("key refresh works again");
  } catch (const std::exception& e) {
    metrics::store_up.set(0);
    if (!refresh_failing_.exchange(true))
      log::warn("key refresh failed; keeping the current keys", {{"error", e.what()}});
  }
}

void SharedAccounts::refresh_keys(bool force) {
  keys_.refresh(force);
}

std::string SharedAccounts::create_dev_key(const std::string& plan) {
  return keys_.create_dev_key(plan, clock_.now_s());
}

AuthResult SharedAccounts::authenticate(std::optional<std::string_view> authorization,
                                        std::string_view peer_ip) const {
  return keys_.authenticate(authorization, peer_ip);
}

std::optional<RateStep> SharedAccounts::rate_step(const Caller& caller, bool for_execution,
                                                  CountedUnits& counted, Suspendable* request) {
  const StepOf step{caller.subject, caller.plan.rate_per_minute,
                    has_quota(caller) ? caller.plan.monthly_quota : std::nullopt, caller.key_id,
                    for_execution};
  if (request && this_thread_event_loop() && counters_->steps_asynchronously()) {
    if (std::optional<RateStep> now = leased_step(caller, for_execution, counted)) return now;
    start_step(step, *request);
    return std::nullopt;
  }
  return blocking_step(step);
}

RateStep SharedAccounts::blocking_step(const StepOf& s) {
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  if (!s.quota_limit) {
    const store::CounterStep c = counters_->take_rate(s.subject, w.start_s, s.rate_limit);
    return RateStep{rate_decision(w, s.rate_limit, c.used, c.allowed), {}, {}};
  }
  return rate_step_of(w, s.rate_limit, s.quota_limit, s.for_execution,
                      counters_->take_rate_and_quota(s.subject, w.start_s, s.rate_limit, s.key_id,
                                                     utc_month_text(w.now_s).period, *s.quota_limit,
                                                     s.for_execution));
}

// `s` views the request's caller, which moves when the request is suspended: it is read
// before, or copied.
void SharedAccounts::start_step(const StepOf& s, Suspendable& request) {
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = s.rate_limit;
  const std::optional<int64_t> quota_limit = s.quota_limit;
  const int64_t key_id = s.key_id;
  const bool for_execution = s.for_execution;
  const std::optional<uint64_t> shipments =
      quota_limit && shipper_ ? shipper_->shipments_begun(key_id, utc_month_of(w.now_s).index())
                              : std::nullopt;
  std::string subject(s.subject);
  std::shared_ptr<Suspended> waiting = request.suspend();
  const bool started = counters_->start_rate_step(
      subject, w.start_s, limit, key_id, utc_month_text(w.now_s).period, quota_limit, for_execution,
      [this, w, limit, key_id, quota_limit, for_execution, shipments, waiting](
          store::RateAndQuotaStep r, std::exception_ptr error) {
        // The month's count (a refused unit reports its granted units instead): what this
        // instance has counted and not shipped yet is part of it.
        const bool counted_month = !for_execution || r.quota.allowed;
        if (!error && quota_limit && shipper_ && counted_month)
          r.quota.used = shipper_->month_count_after_step(key_id, utc_month_of(w.now_s).index(),
                                                          r.quota.used, shipments);
        waiting->rate_step_taken(
            error ? RateStep{} : rate_step_of(w, limit, quota_limit, for_execution, r), error);
      });
  if (started) return;
  // The store stopped stepping asynchronously since it was asked (its connection began
  // failing fast): the step is taken here, and the request told on this thread's loop as
  // it would have been.
  RateStep step;
  std::exception_ptr failure;
  try {
    step = blocking_step({subject, limit, quota_limit, key_id, for_execution});
  } catch (...) {
    failure = std::current_exception();
  }
  boost::asio::post(*this_thread_event_loop(),
                    [waiting = std::move(waiting), step = std::move(step), failure]() mutable {
                      waiting->rate_step_taken(std::move(step), failure);
                    });
}

// An execution served from the units leased to this thread: no round trip. Its quota unit
// is counted in the ledger (the response waits for its group commit, await_durable).
std::optional<RateStep> SharedAccounts::leased_step(const Caller& caller, bool for_execution,
                                                    CountedUnits& counted) {
  if (!shipper_ || !for_execution || !has_quota(caller)) return std::nullopt;
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = caller.plan.rate_per_minute;
  const int64_t quota_limit = *caller.plan.monthly_quota;
  const UtcMonthText& month = utc_month_text(w.now_s);
  std::optional<store::RateAndQuotaStep> s = counters_->take_leased(
      caller.subject, w.start_s, limit, caller.key_id, month.period, quota_limit);
  if (!s) return std::nullopt;
  // The ledger never refuses: the lease is the limit. Its reservation carries the month
  // (period, reset) the unit was counted in.
  LedgerShipper::Counted unit = shipper_->count_unit(caller.key_id);
  counted.add(caller.key_id, unit.month, 1);
  QuotaReservation& r = unit.reservation;
  r.limit = quota_limit;
  r.remaining = std::max<int64_t>(0, quota_limit - unit.month_count);
  r.from_lease = true;
  RateStep step;
  step.rate = rate_decision(w, limit, s->rate.used, true);
  step.month = QuotaView{quota_limit, r.remaining};
  step.early = std::move(r);
  return step;
}

Durability SharedAccounts::await_durable(const CountedUnits& counted, Suspendable* request) {
  return shipper_ ? shipper_->await_durable(counted, request) : Durability::Durable;
}

RateDecision SharedAccounts::peek_rate(const Caller& caller) const {
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = caller.plan.rate_per_minute;
  int64_t used = 0;
  try {
    used = counters_->rate_used(caller.subject, w.start_s);
  } catch (const StoreUnavailable&) {
    // Health and preflight answer without the store; no unit can be promised meanwhile.
    used = limit;
  }
  return rate_decision(w, limit, used, used < limit);
}

QuotaReservation SharedAccounts::reserve_quota(const Caller& caller, int64_t units,
                                               CountedUnits& counted) {
  (void)counted;  // counted in Redis: durable when this returns
  const int64_t now_s = clock_.now_s();
  if (!has_quota(caller)) return unlimited_reservation(now_s, units);
  const UtcMonthText& month = utc_month_text(now_s);
  const int64_t limit = *caller.plan.monthly_quota;
  if (units < 1) return reservation(month, now_s, limit, {false, 0}, units);
  return reservation(month, now_s, limit,
                     counters_->reserve_quota(caller.key_id, month.period, limit, units), units);
}

void SharedAccounts::release_quota(const Caller& caller, const QuotaReservation& reservation,
                                   int64_t units, CountedUnits& counted) {
  if (caller.anonymous || reservation.unlimited || !reservation.allowed) return;
  units = std::min(units, reservation.units);
  if (units <= 0) return;
  if (reservation.from_lease) {
    // Out of the ledger, and back to the lease it came from (this thread's).
    shipper_->give_back(caller.key_id, reservation, units);
    counted.add(caller.key_id, month_index_of_period(reservation.period), -units);
    counters_->return_leased(caller.key_id, reservation.period, *caller.plan.monthly_quota, units);
    return;
  }
  try {
    counters_->release_quota(caller.key_id, reservation.period, units);
  } catch (const std::exception& e) {
    // The unit stays counted: the client is charged one execution it did not get, which
    // errs on the safe side of the limit. The store client has reported the outage.
    (void)e;
  }
}

QuotaStatus SharedAccounts::quota_status(const Caller& caller) const {
  const int64_t now_s = clock_.now_s();
  const UtcMonthText& month = utc_month_text(now_s);
  QuotaStatus s;
  s.period = month.period;
  s.resets_at = month.resets_at;
  if (!has_quota(caller)) {
    s.unlimited = true;
    return s;
  }
  s.limit = *caller.plan.monthly_quota;
  s.used = month_count(caller.key_id, month.period);
  s.remaining = std::max<int64_t>(0, s.limit - s.used);
  return s;
}

}  // namespace toolcalc::accounts
