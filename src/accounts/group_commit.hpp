#pragma once
// Group commit of quota units counted in memory (a MonthlyQuota's pending deltas): a
// response that acknowledges counted units waits, without holding its thread, until one
// transaction has written them (docs/reliability.md, "Counts on disk"). The embedded
// store's Accounts commits into its database; a fleet instance's LedgerShipper into its
// usage ledger, shipped to Redis after (docs/deploy.md, "Usage ledger").
//
//   GroupCommit commits(quota, write, write_if_free);
//   commits.start();  // the committer thread
//   … accounts::AccessControl::await_durable → commits.await_durable(counted, wait)
//   commits.flush();  // the background thread's flush: everything pending, waiting
//   commits.stop();
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/monthly_quota.hpp"
#include "core/thread_safety.hpp"
#include "store/account_store.hpp"

namespace boost::asio {
class io_context;
}

namespace toolcalc::accounts {

// How long a server thread's waiters may gather while its event loop still finds new
// requests answered each turn, before they are committed anyway: it bounds what gathering
// adds to a response's latency under a load that never lets the loop catch up.
inline constexpr std::chrono::microseconds kGroupCommitGather{500};

class GroupCommit {
 public:
  // Writes the deltas in one transaction, waiting for the store as long as it must;
  // throws store::StoreError when it cannot.
  using Write = std::function<void(const std::vector<store::UsageDelta>&)>;
  // The same when the store is free at once; false, having written nothing, otherwise.
  using WriteIfFree = std::function<bool(const std::vector<store::UsageDelta>&)>;

  // `quota` must outlive this object; its pending deltas are what a commit writes.
  GroupCommit(MonthlyQuota& quota, Write write, WriteIfFree write_if_free);
  ~GroupCommit();  // stop()
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;

  // Starts the committer thread, which commits the groups their server thread could not
  // (the store was busy). Calling it again does nothing.
  void start();
  // Stops the committer after it has committed what it holds. Idempotent.
  void stop();

  // With a request that can wait and an event loop on this thread while the committer
  // runs: the request suspended and queued for the next group commit (Waiting). Otherwise
  // the pending usage is written here. With acknowledge_after_commit(false): Durable at
  // once, the units left to flush().
  Durability await_durable(const CountedUnits& counted, Suspendable* request);

  // Takes every pending delta and writes it with `write` (which may add what else belongs
  // in the same transaction, and is called even with none), waiting for the store as long
  // as it must. When it throws the deltas are kept for the next attempt, and so is the
  // exception: it goes on to the caller, reported on stderr once per run of failures.
  void flush(const Write& write);
  void flush() { flush(write_); }
  // The quota's MonthlyQuota::evict_stale with no flush or commit in flight: a failed one
  // restores its deltas into entries that must still be there.
  void evict_stale_months() {
    MutexLock no_flush(flush_mu_);
    quota_.evict_stale();
  }

  // Group commits made, and the responses they released (tests, docs/reliability.md).
  uint64_t group_commits() const { return group_commits_.load(std::memory_order_relaxed); }
  uint64_t committed_waits() const { return committed_waits_.load(std::memory_order_relaxed); }
  // Of those, the groups committed on the serving thread itself (commit_here).
  uint64_t group_commits_here() const {
    return group_commits_here_.load(std::memory_order_relaxed);
  }
  // Writes that wrote deltas, by any path: moves whenever the store's counts did.
  uint64_t writes() const { return writes_.load(std::memory_order_acquire); }

  // true (the default): await_durable waits for the units' commit. Set before start().
  void acknowledge_after_commit(bool on) { acknowledge_after_commit_ = on; }

 private:
  // A response waiting for its units (await_durable), queued for a group commit.
  struct Waiter {
    boost::asio::io_context* loop = nullptr;  // where `request` is told
    CountedUnits counted;
    std::shared_ptr<Suspended> request;
  };
  // The waiters a server thread queued, committed together (one transaction for all of
  // them: on this thread when the store is free at once, else by the committer) once a
  // turn of its event loop adds none (the thread has answered every request that was
  // ready), or kGroupCommitGather after the first.
  struct Turn {
    GroupCommit* owner = nullptr;
    std::vector<Waiter> waiters;
    size_t seen = 0;  // waiters when the last turn ended
    std::chrono::steady_clock::time_point first_at;
  };
  static Turn& this_thread_turn();
  // At the end of a turn of this thread's event loop: commit the group (here, or by the
  // committer), or look again a turn later.
  void end_turn();
  // Commits `group` on this thread and tells its waiters, when the store is free at once;
  // false (nothing done) otherwise.
  bool commit_here(std::vector<Waiter>& group);
  // Hands the waiters to the committer thread.
  void submit(std::vector<Waiter>& waiters);
  // After a group's commit, with flush_mu_ held: its units given back when it failed, and
  // the counters.
  void settle(const std::vector<Waiter>& group, bool durable) TOOLCALC_REQUIRES(flush_mu_);
  void commit_loop();
  // Gives the units of `counted` back (their commit failed: they were never acknowledged).
  void give_back(const CountedUnits& counted);
  // Tells every waiter of `batch` on its own event loop (one handler per loop).
  static void complete(std::vector<Waiter>& batch, bool durable);

  // With flush_mu_ held: takes the pending usage and writes it, restoring it and throwing
  // store::StoreError when that fails. A group's take writes with write_ (GroupIfFree:
  // write_if_free_, false when it wrote nothing), a flush's with `write` (always called).
  enum class Take { GroupIfFree, Group, Flush };
  bool write_pending(Take how, const Write* write = nullptr) TOOLCALC_REQUIRES(flush_mu_);

  MonthlyQuota& quota_;
  const Write write_;
  const WriteIfFree write_if_free_;

  Mutex flush_mu_;  // one flush at a time (take → write → restore on failure)
  bool flush_failing_ TOOLCALC_GUARDED_BY(flush_mu_) = false;

  // The committer: waiters queued by the server threads, committed in one transaction per
  // batch (everything pending when the batch is taken), then released.
  Mutex commit_mu_;
  CondVar commit_cv_;
  std::vector<Waiter> commit_queue_ TOOLCALC_GUARDED_BY(commit_mu_);
  bool commit_stopping_ TOOLCALC_GUARDED_BY(commit_mu_) = false;
  bool acknowledge_after_commit_ = true;  // set before start()
  std::atomic<bool> committer_running_{false};
  std::atomic<uint64_t> group_commits_{0}, committed_waits_{0}, group_commits_here_{0}, writes_{0};
  // Started under commit_mu_ unless stopping; joined by stop() once commit_stopping_ is set
  // (no start() can follow).
  std::thread committer_;
};

}  // namespace toolcalc::accounts
