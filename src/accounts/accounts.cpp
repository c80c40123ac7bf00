#include "accounts/accounts.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <exception>
#include <utility>

#include "accounts/plans.hpp"
#include "accounts/utc_month.hpp"
#include "core/event_loop.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::accounts {

Accounts::Accounts(std::unique_ptr<store::AccountStore> store, std::vector<Plan> plans,
                   const Clock& clock, std::chrono::milliseconds usage_flush_interval,
                   std::chrono::milliseconds key_refresh_interval)
    : store_(std::move(store)),
      plans_(std::move(plans)),
      clock_(clock),
      flush_interval_(usage_flush_interval),
      refresh_interval_(key_refresh_interval),
      keys_(*store_, plans_, clock),
      rates_(clock),
      quota_(clock, [this](std::string_view period) { return store_->load_usage(period); }) {
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
  {
    std::lock_guard lock(commit_mu_);
    if (!committer_.joinable() && !commit_stopping_) {
      committer_ = std::thread([this] { commit_loop(); });
      committer_running_.store(true);
    }
  }
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
  {
    std::lock_guard lock(commit_mu_);
    commit_stopping_ = true;
    committer_running_.store(false);
  }
  commit_cv_.notify_all();
  if (committer_.joinable()) committer_.join();  // commits what is queued first
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
    {
      // Not while a flush is in flight: a failed flush restores its deltas into entries
      // that must still be there.
      std::lock_guard lock(flush_mu_);
      quota_.evict_stale();
    }
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

void Accounts::flush_usage() {
  std::lock_guard lock(flush_mu_);
  write_pending(Flush::UsageAndHistory, Write::Waiting);
}

bool Accounts::write_pending(Flush what, Write how) {
  auto pending = quota_.take_pending();
  std::vector<store::HistoryDelta> history;
  if (what == Flush::UsageAndHistory) history = history_.take_pending();
  if (pending.empty() && history.empty()) return true;
  bool written = true;
  try {
    if (how == Write::IfFree)
      written = history.empty() && store_->add_usage_if_free(pending);
    else
      store_->add_usage(pending, history);
  } catch (const std::exception& e) {
    quota_.restore_pending(pending);
    history_.restore_pending(history);
    metrics::store_failures.inc();
    if (!flush_failing_)
      log::error("usage flush failed; the counts are kept in memory and retried",
                 {{"error", e.what()}});
    flush_failing_ = true;
    throw;
  }
  if (!written) {
    quota_.restore_pending(pending);
    history_.restore_pending(history);
    return false;
  }
  if (flush_failing_) log::info("usage flush succeeded again");
  flush_failing_ = false;
  return true;
}

std::string Accounts::create_dev_key(const std::string& plan) {
  return keys_.create_dev_key(plan, clock_.now_s());
}

AuthResult Accounts::authenticate(std::optional<std::string_view> authorization,
                                  std::string_view peer_ip) const {
  return keys_.authenticate(authorization, peer_ip);
}

RateDecision Accounts::take_rate_unit(const Caller& caller) {
  return rates_.take(caller.subject, caller.plan.rate_per_minute);
}

RateDecision Accounts::peek_rate(const Caller& caller) const {
  return rates_.peek(caller.subject, caller.plan.rate_per_minute);
}

QuotaReservation Accounts::reserve_quota(const Caller& caller, int64_t units) {
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
  if (r.allowed) {
    if (CountedUnits* counted = CountingScope::current())
      counted->add(caller.key_id, month_index_of_period(r.period), r.units);
  }
  return r;
}

void Accounts::release_quota(const Caller& caller, const QuotaReservation& reservation,
                             int64_t units) {
  if (caller.anonymous || reservation.unlimited) return;
  quota_.release(caller.key_id, reservation, units);
  units = std::min(units, reservation.units);
  if (reservation.allowed && units > 0) {
    if (CountedUnits* counted = CountingScope::current())
      counted->add(caller.key_id, month_index_of_period(reservation.period), -units);
  }
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

// --- group commit -----------------------------------------------------------------------

Accounts::Turn& Accounts::this_thread_turn() {
  thread_local Turn turn;
  return turn;
}

Durability Accounts::await_durable(const CountedUnits& counted,
                                   std::unique_ptr<DurableWait>& wait) {
  if (counted.empty() || !acknowledge_after_commit_) return Durability::Durable;
  boost::asio::io_context* loop = this_thread_event_loop();
  if (wait && loop && committer_running_.load(std::memory_order_relaxed)) {
    Turn& turn = this_thread_turn();
    if (turn.owner != this && !turn.waiters.empty()) turn.owner->submit(turn.waiters);
    turn.owner = this;
    const bool first = turn.waiters.empty();
    turn.waiters.push_back({loop, counted, std::move(wait)});
    if (first) {
      turn.seen = 0;
      turn.first_at = std::chrono::steady_clock::now();
      // Runs after the handlers already ready on this loop (the end of this turn).
      boost::asio::post(*loop, [this] { end_turn(); });
    }
    return Durability::Waiting;
  }
  // No loop to come back on (Service::handle, tests, tools): commit on this thread.
  try {
    flush_usage();
    return Durability::Durable;
  } catch (const std::exception&) {
    give_back(counted);
    return Durability::Failed;
  }
}

// While each turn of the loop still adds waiters (requests that were ready are being
// answered), the batch waits one more turn: the loop polls its sockets between the turns,
// so the batch grows until the thread has caught up with what its connections sent. One
// commit then holds every response of that stretch, instead of the few of one turn: fewer
// transactions and wake-ups per response (docs/reliability.md, "Counts on disk").
void Accounts::end_turn() {
  Turn& turn = this_thread_turn();
  if (turn.owner != this || turn.waiters.empty()) return;
  if (turn.waiters.size() > turn.seen &&
      std::chrono::steady_clock::now() - turn.first_at < kGroupCommitGather) {
    turn.seen = turn.waiters.size();
    boost::asio::post(*turn.waiters.front().loop, [this] { end_turn(); });  // this thread's
    return;
  }
  std::vector<Waiter> group;
  group.swap(turn.waiters);  // a response sent below may start the next group
  if (!commit_here(group)) submit(group);
  group.clear();
  if (turn.waiters.empty()) turn.waiters.swap(group);  // keeps the capacity
}

// The serving thread commits its own group when the store is free at once. Handing it to
// the committer and back costs two thread wake-ups, most of a group's latency on a loaded
// machine, and at 64 connections nearly every connection is in the group, waiting: the
// serving thread idles through it. Committed here, the wait is the transaction alone (one
// page of the WAL, about 20 µs on this machine; the usage history is left to the
// background flush). It never waits for the store: while the committer, the background
// flush, a checkpoint's second pass or another process writes, or when the commit is the
// one that restarts the log after a checkpoint (an fsync), the group goes to the committer
// (docs/reliability.md, "Counts on disk").
bool Accounts::commit_here(std::vector<Waiter>& group) {
  bool durable = true;
  {
    std::unique_lock lock(flush_mu_, std::try_to_lock);
    if (!lock) return false;
    try {
      if (!write_pending(Flush::UsageOnly, Write::IfFree)) return false;
    } catch (const std::exception&) {
      durable = false;  // reported once by write_pending
    }
    settle(group, durable);
  }
  group_commits_here_.fetch_add(1, std::memory_order_relaxed);
  for (Waiter& w : group) w.wait->on_durable(durable);
  return true;
}

// With flush_mu_ held: the units of a failed group are given back before another flush can
// take the deltas its failure restored (they would be written, then taken back).
void Accounts::settle(const std::vector<Waiter>& group, bool durable) {
  if (!durable)
    for (const Waiter& w : group) give_back(w.counted);
  group_commits_.fetch_add(1, std::memory_order_relaxed);
  committed_waits_.fetch_add(group.size(), std::memory_order_relaxed);
}

void Accounts::submit(std::vector<Waiter>& waiters) {
  if (waiters.empty()) return;
  {
    std::lock_guard lock(commit_mu_);
    if (commit_queue_.empty()) {
      commit_queue_.swap(waiters);
    } else {
      for (Waiter& w : waiters) commit_queue_.push_back(std::move(w));
      waiters.clear();
    }
  }
  commit_cv_.notify_one();
}

// One transaction per batch: every waiter queued when the batch is taken had counted its
// units before it was queued, so they are in the pending usage this flush takes, or in
// what an earlier flush (another thread's commit_here) already wrote. While one batch
// commits, the next one gathers. The usage history is a report, not what is billed: it is
// left to the background flush, whose one transaction a second writes it aggregated (a
// group commit writing one page instead of two or three costs a third less).
void Accounts::commit_loop() {
  std::vector<Waiter> batch;
  std::unique_lock lock(commit_mu_);
  for (;;) {
    commit_cv_.wait(lock, [this] { return !commit_queue_.empty() || commit_stopping_; });
    if (commit_queue_.empty()) break;  // stopping, nothing left
    batch.swap(commit_queue_);
    lock.unlock();
    bool durable = true;
    {
      std::lock_guard flush(flush_mu_);
      try {
        write_pending(Flush::UsageOnly, Write::Waiting);
      } catch (const std::exception&) {
        durable = false;  // reported once by write_pending
      }
      settle(batch, durable);
    }
    complete(batch, durable);
    batch.clear();
    lock.lock();
  }
}

void Accounts::give_back(const CountedUnits& counted) {
  for (const CountedUnits::Entry& e : counted.entries)
    if (e.units > 0) quota_.give_back(e.key_id, e.month, e.units);
}

void Accounts::complete(std::vector<Waiter>& batch, bool durable) {
  // Usually one or two loops (one per server thread): one handler each.
  while (!batch.empty()) {
    boost::asio::io_context* loop = batch.front().loop;
    std::vector<Waiter> mine;
    auto others = std::stable_partition(batch.begin(), batch.end(),
                                        [loop](const Waiter& w) { return w.loop == loop; });
    mine.reserve(static_cast<size_t>(others - batch.begin()));
    for (auto it = batch.begin(); it != others; ++it) mine.push_back(std::move(*it));
    batch.erase(batch.begin(), others);
    boost::asio::post(*loop, [mine = std::move(mine), durable]() mutable {
      for (Waiter& w : mine) w.wait->on_durable(durable);
    });
  }
}

}  // namespace toolcalc::accounts
