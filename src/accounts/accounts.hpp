#pragma once
// AccessControl over a store: keys from an in-memory snapshot refreshed in the
// background, per-minute rate windows, and monthly quota counters in memory whose changes
// are committed to the store in groups (group commit, docs/reliability.md "Counts on
// disk"): a response that acknowledges an execution waits (without holding its thread)
// until its count is in the store's write-ahead log.
//
//   auto acc = std::make_unique<accounts::Accounts>(
//       store::open_sqlite_store(config.data_dir), config.plans, clock,
//       std::chrono::milliseconds(config.usage_flush_interval_ms),
//       std::chrono::milliseconds(config.key_refresh_interval_ms));
//   acc->start();   // background refresh, flush and checkpoint; the committer thread
//   …
//   acc->stop();    // joins the threads and writes every unflushed count (also in ~Accounts)
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/background_loop.hpp"
#include "accounts/key_cache.hpp"
#include "accounts/monthly_quota.hpp"
#include "accounts/rate_window.hpp"
#include "accounts/usage_history.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"

namespace boost::asio {
class io_context;
}

namespace toolcalc::accounts {

// How long a server thread's waiters may gather while its event loop still finds new
// requests answered each turn, before they are committed anyway: it bounds what gathering
// adds to a response's latency under a load that never lets the loop catch up.
inline constexpr std::chrono::microseconds kGroupCommitGather{500};

class Accounts final : public AccessControl {
 public:
  // Loads the keys and this month's usage from `store` before returning (throws
  // store::StoreError when it cannot). `clock` must outlive this object.
  Accounts(std::unique_ptr<store::AccountStore> store, std::vector<Plan> plans, const Clock& clock,
           std::chrono::milliseconds usage_flush_interval,
           std::chrono::milliseconds key_refresh_interval);
  ~Accounts() override;  // stop()
  Accounts(const Accounts&) = delete;
  Accounts& operator=(const Accounts&) = delete;

  // Starts the committer thread, which commits the counts that responses wait for when
  // their server thread cannot (commit_here), and the background thread: every
  // key_refresh_interval it reloads the keys if the store's key generation moved and
  // forgets ended rate windows; every usage_flush_interval it writes the usage deltas no
  // response waits for (units given back) and the usage history, and checkpoints the
  // store (AccountStore::checkpoint: what a power loss can no longer take). Calling it
  // again does nothing.
  void start();
  // Stops both threads (the committer after committing what is queued) and flushes the
  // remaining usage. Idempotent; never throws (a failed final flush is reported on stderr).
  void stop();

  // For `serve --dev`: issues a `tc_test_` key labelled "dev" on `plan`, revokes the older
  // dev keys, makes the new key usable at once and returns it (print it once; it is not
  // stored). Throws UnknownPlan, store::StoreError.
  std::string create_dev_key(const std::string& plan);

  // What the background thread does, callable directly (tests, create_dev_key).
  // refresh_keys reloads when the generation moved (or always with force); flush_usage
  // writes the pending usage and usage history in one transaction, throwing
  // store::StoreError when it fails (the deltas are kept for the next attempt).
  void refresh_keys(bool force = false);
  void flush_usage();

  const std::vector<Plan>& plans() const { return plans_; }

  // For quota alerts: the keys with a webhook, and a key's usage this month (in memory,
  // flushed or not).
  std::vector<WebhookKey> webhook_keys() const { return keys_.webhook_keys(); }
  int64_t quota_used(int64_t key_id) const { return quota_.used(key_id); }

  // AccessControl
  AuthResult authenticate(std::optional<std::string_view> authorization,
                          std::string_view peer_ip) const override;
  RateDecision take_rate_unit(const Caller& caller) override;
  RateDecision peek_rate(const Caller& caller) const override;
  QuotaReservation reserve_quota(const Caller& caller, int64_t units) override;
  void release_quota(const Caller& caller, const QuotaReservation& reservation,
                     int64_t units) override;
  QuotaStatus quota_status(const Caller& caller) const override;
  std::optional<QuotaView> peek_quota(const Caller& caller) const override;
  void record_usage(const Caller& caller, std::string_view domain, std::string_view slug,
                    int status, int64_t units) override;
  std::vector<store::HistoryRow> usage_history(const Caller& caller, int32_t first_day,
                                               int32_t end_day) override;
  void keys_changed() override;

  // With a DurableWait and an event loop on this thread while the committer runs: queued
  // for the next group commit (Waiting). Otherwise the pending usage is committed here.
  // With acknowledge_after_commit(false): Durable at once, the units left to the next
  // background flush.
  Durability await_durable(const CountedUnits& counted,
                           std::unique_ptr<DurableWait>& wait) override;

  // Group commits made, and the responses they released (tests, docs/reliability.md).
  uint64_t group_commits() const { return group_commits_.load(std::memory_order_relaxed); }
  uint64_t committed_waits() const { return committed_waits_.load(std::memory_order_relaxed); }
  // Of those, the groups committed on the serving thread itself (commit_here).
  uint64_t group_commits_here() const {
    return group_commits_here_.load(std::memory_order_relaxed);
  }

  // true (the default): await_durable waits for the units' commit. Set before start().
  void acknowledge_after_commit(bool on) { acknowledge_after_commit_ = on; }

 private:
  // Drops the history older than the 13 months kept, once per month (and at start-up).
  void apply_history_retention();
  // A response waiting for its units (await_durable), queued for a group commit.
  struct Waiter {
    boost::asio::io_context* loop = nullptr;  // where `wait` is told
    CountedUnits counted;
    std::unique_ptr<DurableWait> wait;
  };
  // The waiters a server thread queued, committed together (one transaction for all of
  // them: on this thread when the store is free at once, else by the committer) once a
  // turn of its event loop adds none (the thread has answered every request that was
  // ready), or kGroupCommitGather after the first.
  struct Turn {
    Accounts* owner = nullptr;
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
  void settle(const std::vector<Waiter>& group, bool durable);

  // One round of the background thread: refresh and evict, flush, each when due; returns
  // when the next is due.
  BackgroundLoop::TimePoint background_step(BackgroundLoop::TimePoint& next_refresh,
                                            BackgroundLoop::TimePoint& next_flush);

  std::unique_ptr<store::AccountStore> store_;
  std::vector<Plan> plans_;
  const Clock& clock_;
  std::chrono::milliseconds flush_interval_, refresh_interval_;

  KeyCache keys_;
  RateWindows rates_;
  MonthlyQuota quota_;
  UsageHistory history_;
  int64_t history_month_ = -1;  // the month whose retention was applied (background thread)

  void commit_loop();
  // Gives the units of `counted` back (their commit failed: they were never acknowledged).
  void give_back(const CountedUnits& counted);
  // Tells every waiter of `batch` on its own event loop (one handler per loop).
  static void complete(std::vector<Waiter>& batch, bool durable);

  // With flush_mu_ held: takes the pending usage (and, with UsageAndHistory, the history)
  // and writes it, restoring it and throwing store::StoreError when that fails. IfFree:
  // false, nothing written, when the store would first wait for a lock. Group commits
  // write UsageOnly: the history is the background flush's.
  enum class Flush { UsageAndHistory, UsageOnly };
  enum class Write { Waiting, IfFree };
  bool write_pending(Flush what, Write how);

  std::mutex flush_mu_;  // one flush at a time (take → write → restore on failure)
  bool flush_failing_ = false;
  bool checkpoint_failing_ = false;  // the background thread's

  // The committer: waiters queued by the server threads, committed in one transaction per
  // batch (everything pending when the batch is taken), then released.
  std::mutex commit_mu_;
  std::condition_variable commit_cv_;
  std::vector<Waiter> commit_queue_;
  bool commit_stopping_ = false;
  bool acknowledge_after_commit_ = true;
  std::atomic<bool> committer_running_{false};
  std::atomic<uint64_t> group_commits_{0}, committed_waits_{0}, group_commits_here_{0};
  std::thread committer_;

  std::atomic<bool> stopped_{false};  // stop() flushes once
  BackgroundLoop background_;         // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
