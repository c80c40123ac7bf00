#include "accounts/shared_accounts.hpp"

#include <algorithm>
#include <exception>
#include <limits>

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
                               std::chrono::milliseconds history_flush_interval,
                               std::unique_ptr<store::UsageLedger> ledger,
                               std::chrono::milliseconds ship_interval)
    : store_(std::move(keys_store)),
      counters_(std::move(counters)),
      plans_(std::move(plans)),
      clock_(clock),
      refresh_interval_(key_refresh_interval),
      flush_interval_(history_flush_interval),
      keys_(*store_, plans_, clock_),
      ledger_(std::move(ledger)),
      ledger_counts_(clock_,
                     [this](std::string_view period) {
                       return ledger_ ? ledger_->load_counts(period)
                                      : std::unordered_map<int64_t, int64_t>{};
                     }),
      ship_interval_(ship_interval) {
  keys_.refresh(true);
  if (!ledger_) return;
  const UtcMonth month = utc_month_of(clock_.now_s());
  ledger_counts_.seed(month, ledger_->load_counts(month.period()));
  commits_ = std::make_unique<GroupCommit>(
      ledger_counts_, [this](const std::vector<store::UsageDelta>& d) { ledger_->add_counts(d); },
      [this](const std::vector<store::UsageDelta>& d) { return ledger_->add_counts_if_free(d); });
  ship_ledger();  // what an earlier run left unshipped (it was killed, or Redis was down)
  counters_->lease_units(true);
}

SharedAccounts::~SharedAccounts() {
  stop();
}

void SharedAccounts::start() {
  if (commits_) commits_->start();
  const auto now = std::chrono::steady_clock::now();
  // Without a ledger there is nothing to ship: that step comes with the flush.
  const auto ship_every = commits_ ? ship_interval_ : flush_interval_;
  background_.start(std::min({now + refresh_interval_, now + flush_interval_, now + ship_every}),
                    [this, ship_every, next_refresh = now + refresh_interval_,
                     next_flush = now + flush_interval_, next_ship = now + ship_every]() mutable {
                      const auto t = std::chrono::steady_clock::now();
                      if (t >= next_refresh) {
                        refresh_in_background();
                        next_refresh = t + refresh_interval_;
                      }
                      if (t >= next_ship) {
                        ship_in_background();
                        next_ship = t + ship_every;
                      }
                      if (t >= next_flush) {
                        flush_history_in_background();
                        next_flush = t + flush_interval_;
                      }
                      return std::min({next_refresh, next_flush, next_ship});
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
  if (!commits_) return;
  commits_->stop();  // commits what the committer holds first
  try {
    commits_->flush();
    ship_ledger();
    ledger_->checkpoint();
  } catch (const std::exception& e) {
    log::error(
        "accounts: the usage ledger could not be shipped to Redis at stop; it keeps "
        "the counts and ships them at the next start",
        {{"error", e.what()}});
  }
}

void SharedAccounts::ship_in_background() {
  if (!commits_) return;
  try {
    ship_ledger();
    if (ship_failing_) log::info("accounts: the usage ledger ships to Redis again");
    ship_failing_ = false;
  } catch (const std::exception& e) {
    metrics::store_failures.inc();
    if (!ship_failing_)
      log::warn(
          "accounts: shipping the usage ledger to Redis failed; the counts wait in the "
          "ledger and are shipped once it answers",
          {{"error", e.what()}});
    ship_failing_ = true;
  }
}

// Each count of this month and the last one in the ledger that moved since its last
// shipment (the ledger holds what the group commits wrote: only acknowledged units, and
// units given back once the flush has written them).
void SharedAccounts::ship_ledger() {
  if (!ledger_) return;
  // Nothing written since the last shipment read the ledger: nothing to read.
  const uint64_t writes = commits_ ? commits_->writes() : 0;
  if (ledger_read_ && writes == writes_shipped_) return;
  const UtcMonth now = utc_month_of(clock_.now_s());
  const UtcMonth before = utc_month_of(now.start_s - 1);
  for (const UtcMonth& month : {before, now}) {
    for (const auto& [key_id, count] : ledger_->load_counts(month.period())) {
      const std::pair<int64_t, int64_t> slot{key_id, month.index()};
      {
        std::lock_guard lock(shipped_mu_);
        auto it = shipped_.find(slot);
        if (it != shipped_.end() && it->second.count == count) continue;
      }
      std::lock_guard one_at_a_time(ship_mu_);
      {
        std::lock_guard lock(shipped_mu_);
        Shipped& s = shipped_[slot];
        ++s.shipments;
        s.shipping = true;
      }
      int64_t store_count = 0;
      try {
        store_count = counters_->ship(ledger_->instance_id(), key_id, month.period(), count);
      } catch (...) {
        std::lock_guard lock(shipped_mu_);
        shipped_[slot].shipping = false;
        throw;
      }
      std::lock_guard lock(shipped_mu_);
      Shipped& s = shipped_[slot];
      s.count = count;
      s.store_count = store_count;
      s.shipping = false;
    }
  }
  ledger_read_ = true;
  writes_shipped_ = writes;
  std::lock_guard lock(shipped_mu_);
  std::erase_if(shipped_, [&](const auto& kv) { return kv.first.second < before.index(); });
}

int64_t SharedAccounts::unshipped(int64_t key_id, int64_t month) const {
  const int64_t counted = ledger_counts_.used(key_id);
  std::lock_guard lock(shipped_mu_);
  auto it = shipped_.find({key_id, month});
  return counted - (it == shipped_.end() ? 0 : it->second.count);
}

int64_t SharedAccounts::known_month_count(int64_t key_id, int64_t month, int64_t counted) const {
  std::lock_guard lock(shipped_mu_);
  auto it = shipped_.find({key_id, month});
  if (it == shipped_.end()) return counted;
  return it->second.store_count + counted - it->second.count;
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
  if (ledger_) {
    try {
      commits_->flush();      // units given back since the last flush
      ledger_->checkpoint();  // what a power loss can no longer take
    } catch (const std::exception& e) {
      metrics::store_failures.inc();
      log::warn("accounts: usage ledger flush or checkpoint failed (will retry)",
                {{"error", e.what()}});
    }
  }
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
  const UtcMonth month = utc_month_of(clock_.now_s());
  if (!ledger_ || period != month.period()) return counters_->quota_used(key_id, period);
  std::lock_guard between_shipments(ship_mu_);
  return counters_->quota_used(key_id, period) + unshipped(key_id, month.index());
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
  const int64_t key_id = caller.key_id;
  const uint64_t shipments = quota_limit && ledger_
                                 ? shipments_of(key_id, utc_month_of(w.now_s).index())
                                 : kShipmentUnderWay;
  return counters_->start_rate_step(
      caller.subject, w.start_s, limit, key_id, utc_month_text(w.now_s).period, quota_limit,
      for_execution,
      [this, w, limit, key_id, quota_limit, for_execution, shipments, done = std::move(done)](
          store::RateAndQuotaStep s, std::exception_ptr error) {
        // The month's count (a refused unit reports its granted units instead): what this
        // instance has counted and not shipped yet is part of it.
        const bool counted_month = !for_execution || s.quota.allowed;
        if (!error && quota_limit && ledger_ && counted_month) {
          const int64_t month = utc_month_of(w.now_s).index();
          note_store_count(key_id, month, s.quota.used, shipments);
          s.quota.used += unshipped(key_id, month);
        }
        done(error ? RateStep{} : rate_step(w, limit, quota_limit, for_execution, s), error);
      });
}

// What a step started now may learn of `key_id`'s month count: the shipments of its
// ledger count begun so far, or kShipmentUnderWay when one is on its way (the step's reply
// may then hold it or not).
uint64_t SharedAccounts::shipments_of(int64_t key_id, int64_t month) const {
  std::lock_guard lock(shipped_mu_);
  auto it = shipped_.find({key_id, month});
  if (it == shipped_.end()) return 0;
  return it->second.shipping ? kShipmentUnderWay : it->second.shipments;
}

// A count the store reported outside any shipment of this key's month holds exactly what
// this instance shipped of it last: the new base of known_month_count (units other
// instances shipped, or counted in the store by steps, show from here on). Not when a
// shipment of it began since the step was sent or was under way then. Shipments of other
// keys do not matter: each key's count is its own.
void SharedAccounts::note_store_count(int64_t key_id, int64_t month, int64_t store_count,
                                      uint64_t shipments_before) {
  if (shipments_before == kShipmentUnderWay) return;
  std::lock_guard lock(shipped_mu_);
  Shipped& s = shipped_[{key_id, month}];
  if (s.shipping || s.shipments != shipments_before) return;
  s.store_count = store_count;
}

// An execution served from the units leased to this thread: no round trip. Its quota unit
// is counted in the ledger (the response waits for its group commit, await_durable).
std::optional<RateStep> SharedAccounts::take_rate_step_now(const Caller& caller,
                                                           bool for_execution) {
  if (!commits_ || !for_execution || !has_quota(caller)) return std::nullopt;
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  const int64_t limit = caller.plan.rate_per_minute;
  const int64_t quota_limit = *caller.plan.monthly_quota;
  const UtcMonthText& month = utc_month_text(w.now_s);
  std::optional<store::RateAndQuotaStep> s = counters_->take_leased(
      caller.subject, w.start_s, limit, caller.key_id, month.period, quota_limit);
  if (!s) return std::nullopt;
  // The ledger never refuses: the lease is the limit. Its reservation carries the month
  // (period, reset) the unit was counted in, and this instance's count after it.
  constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
  QuotaReservation r = ledger_counts_.reserve(caller.key_id, kNoLimit, 1);
  const int64_t month_index = month_index_of_period(r.period);
  if (CountedUnits* scope = CountingScope::current()) scope->add(caller.key_id, month_index, 1);
  const int64_t used = known_month_count(caller.key_id, month_index, kNoLimit - r.remaining);
  r.limit = quota_limit;
  r.remaining = std::max<int64_t>(0, quota_limit - used);
  r.from_lease = true;
  RateStep step;
  step.rate = rate_decision(w, limit, s->rate.used, true);
  step.month = QuotaView{quota_limit, r.remaining};
  step.early = std::move(r);
  return step;
}

Durability SharedAccounts::await_durable(const CountedUnits& counted,
                                         std::unique_ptr<DurableWait>& wait) {
  return commits_ ? commits_->await_durable(counted, wait) : Durability::Durable;
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
  if (reservation.from_lease) {
    // Out of the ledger, and back to the lease it came from (this thread's).
    ledger_counts_.release(caller.key_id, reservation, units);
    if (CountedUnits* scope = CountingScope::current())
      scope->add(caller.key_id, month_index_of_period(reservation.period), -units);
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
