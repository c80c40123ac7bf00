#include "accounts/shared_accounts.hpp"

#include <algorithm>
#include <exception>

#include "accounts/rate_window.hpp"
#include "accounts/utc_month.hpp"
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
RateStep rate_step(const WindowBounds& w, int64_t limit, std::optional<int64_t> quota_limit,
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

SharedAccounts::SharedAccounts(std::unique_ptr<store::AccountStore> keys_store,
                               std::unique_ptr<store::SharedCounters> counters,
                               std::vector<Plan> plans, const Clock& clock,
                               std::chrono::milliseconds key_refresh_interval,
                               std::chrono::milliseconds history_flush_interval)
    : store_(std::move(keys_store)),
      counters_(std::move(counters)),
      plans_(std::move(plans)),
      clock_(clock),
      refresh_interval_(key_refresh_interval),
      flush_interval_(history_flush_interval),
      keys_(*store_, plans_, clock_) {
  keys_.refresh(true);
}

SharedAccounts::~SharedAccounts() {
  stop();
}

void SharedAccounts::start() {
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
}

void SharedAccounts::flush_history() {
  std::lock_guard lock(flush_mu_);
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
  return counters_->quota_used(key_id, period);
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

RateDecision SharedAccounts::take_rate_unit(const Caller& caller) {
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = caller.plan.rate_per_minute;
  const store::CounterStep s = counters_->take_rate(caller.subject, w.start_s, limit);
  return rate_decision(w, limit, s.used, s.allowed);
}

RateDecision SharedAccounts::take_rate_unit_for_execution(const Caller& caller,
                                                          std::optional<QuotaReservation>& early) {
  RateStep step = take_rate_step(caller, true);
  early = std::move(step.early);
  return step.rate;
}

// One script for the rate unit and the month: reserved for an execution, read otherwise
// (the RateLimit header's month costs no second round trip).
RateStep SharedAccounts::take_rate_step(const Caller& caller, bool for_execution) {
  if (!has_quota(caller)) return RateStep{take_rate_unit(caller), {}, {}};
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = caller.plan.rate_per_minute;
  const int64_t quota_limit = *caller.plan.monthly_quota;
  return rate_step(
      w, limit, quota_limit, for_execution,
      counters_->take_rate_and_quota(caller.subject, w.start_s, limit, caller.key_id,
                                     utc_month_text(w.now_s).period, quota_limit, for_execution));
}

bool SharedAccounts::start_rate_step(const Caller& caller, bool for_execution, RateStepDone& done) {
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = caller.plan.rate_per_minute;
  const std::optional<int64_t> quota_limit =
      has_quota(caller) ? caller.plan.monthly_quota : std::nullopt;
  return counters_->start_rate_step(
      caller.subject, w.start_s, limit, caller.key_id, utc_month_text(w.now_s).period, quota_limit,
      for_execution,
      [w, limit, quota_limit, for_execution, done = std::move(done)](
          const store::RateAndQuotaStep& s, std::exception_ptr error) {
        done(error ? RateStep{} : rate_step(w, limit, quota_limit, for_execution, s), error);
      });
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

QuotaReservation SharedAccounts::reserve_quota(const Caller& caller, int64_t units) {
  const int64_t now_s = clock_.now_s();
  if (!has_quota(caller)) return unlimited_reservation(now_s, units);
  const UtcMonthText& month = utc_month_text(now_s);
  const int64_t limit = *caller.plan.monthly_quota;
  if (units < 1) return reservation(month, now_s, limit, {false, 0}, units);
  return reservation(month, now_s, limit,
                     counters_->reserve_quota(caller.key_id, month.period, limit, units), units);
}

void SharedAccounts::release_quota(const Caller& caller, const QuotaReservation& reservation,
                                   int64_t units) {
  if (caller.anonymous || reservation.unlimited || !reservation.allowed) return;
  units = std::min(units, reservation.units);
  if (units <= 0) return;
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
  s.used = counters_->quota_used(caller.key_id, month.period);
  s.remaining = std::max<int64_t>(0, s.limit - s.used);
  return s;
}

}  // namespace toolcalc::accounts
