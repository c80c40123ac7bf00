#include "accounts/group_commit.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <exception>
#include <utility>

#include "core/event_loop.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::accounts {

GroupCommit::GroupCommit(MonthlyQuota& quota, Write write, WriteIfFree write_if_free)
    : quota_(quota), write_(std::move(write)), write_if_free_(std::move(write_if_free)) {}

GroupCommit::~GroupCommit() {
  stop();
}

void GroupCommit::start() {
  MutexLock lock(commit_mu_);
  if (committer_.joinable() || commit_stopping_) return;
  committer_ = std::thread([this] { commit_loop(); });
  committer_running_.store(true);
}

void GroupCommit::stop() {
  {
    MutexLock lock(commit_mu_);
    commit_stopping_ = true;
    committer_running_.store(false);
  }
  commit_cv_.notify_all();
  if (committer_.joinable()) committer_.join();  // commits what is queued first
}

void GroupCommit::flush(const Write& write) {
  MutexLock lock(flush_mu_);
  write_pending(Take::Flush, &write);
}

bool GroupCommit::write_pending(Take how, const Write* write) {
  auto pending = quota_.take_pending();
  // A group with nothing pending has nothing to write (an earlier commit took its units);
  // a flush still calls `write`, which may write more than the usage.
  if (how != Take::Flush && pending.empty()) return true;
  bool written = true;
  try {
    if (how == Take::GroupIfFree)
      written = write_if_free_(pending);
    else if (write)
      (*write)(pending);
    else
      write_(pending);
  } catch (const std::exception& e) {
    quota_.restore_pending(pending);
    metrics::store_failures.inc();
    if (!flush_failing_)
      log::error("usage flush failed; the counts are kept in memory and retried",
                 {{"error", e.what()}});
    flush_failing_ = true;
    throw;
  }
  if (!written) {
    quota_.restore_pending(pending);
    return false;
  }
  if (!pending.empty()) writes_.fetch_add(1, std::memory_order_release);
  if (flush_failing_) log::info("usage flush succeeded again");
  flush_failing_ = false;
  return true;
}

GroupCommit::Turn& GroupCommit::this_thread_turn() {
  thread_local Turn turn;
  return turn;
}

Durability GroupCommit::await_durable(const CountedUnits& counted, Suspendable* request) {
  if (counted.empty() || !acknowledge_after_commit_) return Durability::Durable;
  boost::asio::io_context* loop = this_thread_event_loop();
  if (request && loop && committer_running_.load(std::memory_order_relaxed)) {
    Turn& turn = this_thread_turn();
    if (turn.owner != this && !turn.waiters.empty()) turn.owner->submit(turn.waiters);
    turn.owner = this;
    const bool first = turn.waiters.empty();
    const CountedUnits units = counted;  // read before the request moves (suspend)
    turn.waiters.push_back({loop, units, request->suspend()});
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
    flush();
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
// transactions and wake-ups per response (docs/durability.md).
void GroupCommit::end_turn() {
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
// (docs/durability.md).
bool GroupCommit::commit_here(std::vector<Waiter>& group) {
  bool durable = true;
  {
    if (!flush_mu_.try_lock()) return false;
    MutexLock lock(flush_mu_, std::adopt_lock);
    try {
      if (!write_pending(Take::GroupIfFree)) return false;
    } catch (const std::exception&) {
      durable = false;  // reported once by write_pending
    }
    settle(group, durable);
  }
  group_commits_here_.fetch_add(1, std::memory_order_relaxed);
  for (Waiter& w : group) w.request->units_durable(durable);
  return true;
}

// With flush_mu_ held: the units of a failed group are given back before another flush can
// take the deltas its failure restored (they would be written, then taken back).
void GroupCommit::settle(const std::vector<Waiter>& group, bool durable) {
  if (!durable)
    for (const Waiter& w : group) give_back(w.counted);
  group_commits_.fetch_add(1, std::memory_order_relaxed);
  committed_waits_.fetch_add(group.size(), std::memory_order_relaxed);
}

void GroupCommit::submit(std::vector<Waiter>& waiters) {
  if (waiters.empty()) return;
  {
    MutexLock lock(commit_mu_);
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
// commits, the next one gathers.
void GroupCommit::commit_loop() {
  std::vector<Waiter> batch;
  MutexLock lock(commit_mu_);
  for (;;) {
    commit_cv_.wait(lock, [this]() TOOLCALC_REQUIRES(commit_mu_) {
      return !commit_queue_.empty() || commit_stopping_;
    });
    if (commit_queue_.empty()) break;  // stopping, nothing left
    batch.swap(commit_queue_);
    lock.unlock();
    bool durable = true;
    {
      MutexLock flush(flush_mu_);
      try {
        write_pending(Take::Group);
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

void GroupCommit::give_back(const CountedUnits& counted) {
  for (const CountedUnits::Entry& e : counted.entries)
    if (e.units > 0) quota_.give_back(e.key_id, e.month, e.units);
}

void GroupCommit::complete(std::vector<Waiter>& batch, bool durable) {
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
      for (Waiter& w : mine) w.request->units_durable(durable);
    });
  }
}

}  // namespace toolcalc::accounts
