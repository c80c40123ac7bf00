#include "accounts/accounts.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include "accounts/plans.hpp"
#include "accounts/utc_month.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::accounts {

Accounts::Accounts(const Clock& clock, AccountsOptions options)
    : store_(std::move(options.store)),
      plans_(std::move(options.plans)),
      clock_(clock),
      flush_interval_(options.flush_interval),
      refresh_interval_(options.key_refresh_interval),
      keys_(*store_, plans_, clock),
      rates_(clock),
      quota_(clock, [this](std::string_view period) { return store_->load_usage(period); }),
      commits_(
          quota_, [this](const std::vector<store::UsageDelta>& d) { store_->add_usage(d); },
          [this](const std::vector<store::UsageDelta>& d) {
            return store_->add_usage_if_free(d);
          }) {
  refresh_keys(true);
  const UtcMonth month = utc_month_of(clock_.now_s());
  quota_.seed(month, store_->load_usage(month.period()));
  apply_history_retention();
}

// GET /v1/usage serves the current month and the 12 before it (docs/api.md).
void Accounts::apply_history_retention() {
  const UtcMonth month = utc_month_of(clock_.now_s());
  if (month.index() == history_month_) return;
  int64_t start_s = month.start_s;  // becomes the first day of the oldest month kept
  for (int i = 0; i < 12; ++i) start_s = utc_month_of(start_s - 1).start_s;
  store_->drop_history_before(utc_day_of(start_s));
  history_month_ = month.index();
}

Accounts::~Accounts() {
  stop();
}

void Accounts::start() {
  commits_.start();
  const auto now = std::chrono::steady_clock::now();
  auto next_refresh = now + refresh_interval_;
  auto next_flush = now + flush_interval_;
  background_.start(std::min(next_refresh, next_flush), [this, next_refresh, next_flush]() mutable {
    return background_step(next_refresh, next_flush);
  });
}

void Accounts::stop() {
  if (stopped_.exchange(true)) return;
  background_.stop();
  commits_.stop();  // commits what the committer holds first
  try {
    flush_usage();
  } catch (const std::exception& e) {
    log::error("final usage flush failed; the usage counted since the last flush is lost",
               {{"error", e.what()}});
  }
}

BackgroundLoop::TimePoint Accounts::background_step(BackgroundLoop::TimePoint& next_refresh,
                                                    BackgroundLoop::TimePoint& next_flush) {
  const auto now = std::chrono::steady_clock::now();
  if (now >= next_refresh) {
    try {
      refresh_keys();
    } catch (const std::exception& e) {
      metrics::store_failures.inc();
      log::warn("key refresh failed; keeping the current keys", {{"error", e.what()}});
    }
    rates_.evict_stale();
    commits_.evict_stale_months();
    try {
      apply_history_retention();
    } catch (const std::exception& e) {
      metrics::store_failures.inc();
      log::warn("dropping old usage history failed; retried at the next refresh",
                {{"error", e.what()}});
    }
    next_refresh = now + refresh_interval_;
  }
  if (now >= next_flush) {
    try {
      flush_usage();
    } catch (const std::exception&) {
      // reported once by flush_usage; retried next time
    }
    try {
      store_->checkpoint();
      if (checkpoint_failing_) log::info("checkpoint succeeded again");
      checkpoint_failing_ = false;
    } catch (const std::exception& e) {
      metrics::store_failures.inc();
      if (!checkpoint_failing_)
        log::error("checkpoint failed; retried at the next interval", {{"error", e.what()}});
      checkpoint_failing_ = true;
    }
    next_flush = now + flush_interval_;
  }
  return std::min(next_refresh, next_flush);
}

void Accounts::refresh_keys(bool force) {
  keys_.refresh(force);
}

// The usage and the history in one transaction; the history is restored with the usage
// when it fails.
void Accounts::flush_usage() {
  commits_.flush([this](const std::vector<store::UsageDelta>& pending) {
    std::vector<store::HistoryDelta> history = history_.take_pending();
    try {
      store_->add_usage(pending, history);
    } catch (...) {
      history_.restore_pending(history);
      throw;
    }
  });
}

Durability Accounts::await_durable(const CountedUnits& counted, Suspendable* request) {
  return commits_.await_durable(counted, request);
}

std::string Accounts::create_dev_key(const std::string& plan) {
  return keys_.create_dev_key(plan, clock_.now_s());
}

AuthResult Accounts::authenticate(std::optional<std::string_view> authorization,
                                  std::string_view peer_ip) const {
  return keys_.authenticate(authorization, peer_ip);
}

std::optional<RateStep> Accounts::rate_step(const Caller& caller, bool for_execution,
                                            CountedUnits& counted, Suspendable* request) {
  (void)for_execution, (void)counted, (void)request;
  return RateStep{rates_.take(caller.subject, caller.plan.rate_per_minute), {}, {}};
}

RateDecision Accounts::peek_rate(const Caller& caller) const {
  return rates_.peek(caller.subject, caller.plan.rate_per_minute);
}

QuotaReservation Accounts::reserve_quota(const Caller& caller, int64_t units,
                                         CountedUnits& counted) {
  if (caller.anonymous || !caller.plan.monthly_quota) {
    const int64_t now_s = clock_.now_s();
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
  QuotaReservation r = quota_.reserve(caller.key_id, *caller.plan.monthly_quota, units);
  if (r.allowed) counted.add(caller.key_id, month_index_of_period(r.period), r.units);
  return r;
}

void Accounts::release_quota(const Caller& caller, const QuotaReservation& reservation,
                             int64_t units, CountedUnits& counted) {
  if (caller.anonymous || reservation.unlimited) return;
  quota_.release(caller.key_id, reservation, units);
  units = std::min(units, reservation.units);
  if (reservation.allowed && units > 0)
    counted.add(caller.key_id, month_index_of_period(reservation.period), -units);
}

std::optional<QuotaView> Accounts::peek_quota(const Caller& caller) const {
  if (caller.anonymous || !caller.plan.monthly_quota) return std::nullopt;
  const int64_t limit = *caller.plan.monthly_quota;
  return QuotaView{limit, std::max<int64_t>(0, limit - quota_.used(caller.key_id))};
}

void Accounts::record_usage(const Caller& caller, std::string_view domain, std::string_view slug,
                            int status, int64_t units) {
  if (caller.anonymous) return;
  history_.record(caller.key_id, clock_.now_s(), domain, slug, status, units);
}

std::vector<store::HistoryRow> Accounts::usage_history(const Caller& caller, int32_t first_day,
                                                       int32_t end_day) {
  if (caller.anonymous) return {};
  return merge_history(store_->load_history(caller.key_id, first_day, end_day),
                       history_.pending_for(caller.key_id, first_day, end_day));
}

void Accounts::keys_changed() {
  try {
    refresh_keys(true);
  } catch (const std::exception&) {
    // The background refresh retries.
  }
}

QuotaStatus Accounts::quota_status(const Caller& caller) const {
  if (caller.anonymous || !caller.plan.monthly_quota) {
    const UtcMonthText& month = utc_month_text(clock_.now_s());
    QuotaStatus s;
    s.unlimited = true;
    s.period = month.period;
    s.resets_at = month.resets_at;
    return s;
  }
  return quota_.status(caller.key_id, *caller.plan.monthly_quota);
}

}  // namespace toolcalc::accounts
