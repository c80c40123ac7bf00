#pragma once
// AccessControl over a store: keys from an in-memory snapshot refreshed in the
// background, per-minute rate windows, and monthly quota counters in memory whose changes
// are committed to the store in groups (group commit, docs/reliability.md "Counts on
// disk"): a response that acknowledges an execution waits (without holding its thread)
// until its count is in a file: the usage journal, or the store's write-ahead log.
//
//   auto acc = std::make_unique<accounts::Accounts>(
//       clock, accounts::AccountsOptions{.store = store::open_sqlite_store(config.data_dir),
//                                        .plans = config.plans});
//   acc->start();   // background refresh, flush and checkpoint; the committer thread
//   …
//   acc->stop();    // joins the threads and writes every unflushed count (also in ~Accounts)
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/background_loop.hpp"
#include "accounts/group_commit.hpp"
#include "accounts/key_cache.hpp"
#include "accounts/monthly_quota.hpp"
#include "accounts/rate_window.hpp"
#include "accounts/usage_history.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

struct AccountsOptions {
  std::unique_ptr<store::AccountStore> store;
  std::vector<Plan> plans;
  // How often the usage no response waits for and the usage history are written, and the
  // store checkpointed (start()).
  std::chrono::milliseconds flush_interval{1000};
  // How often the store's key generation is polled (start()).
  std::chrono::milliseconds key_refresh_interval{1000};
};

class Accounts final : public AccessControl {
 public:
  // Loads the keys and this month's usage from the store before returning (throws
  // store::StoreError when it cannot). `clock` must outlive this object.
  Accounts(const Clock& clock, AccountsOptions options);
  ~Accounts() override;  // stop()
  Accounts(const Accounts&) = delete;
  Accounts& operator=(const Accounts&) = delete;

  // Starts the committer thread, which commits the counts that responses wait for when
  // their server thread cannot (commit_here), and the background thread: every
  // key_refresh_interval it reloads the keys if the store's key generation moved and
  // forgets ended rate windows; every flush_interval it writes the usage deltas no
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
  // Taken in memory, at once: never suspends, reserves no quota unit early.
  std::optional<RateStep> rate_step(const Caller& caller, bool for_execution, CountedUnits& counted,
                                    Suspendable* request) override;
  RateDecision peek_rate(const Caller& caller) const override;
  QuotaReservation reserve_quota(const Caller& caller, int64_t units,
                                 CountedUnits& counted) override;
  void release_quota(const Caller& caller, const QuotaReservation& reservation, int64_t units,
                     CountedUnits& counted) override;
  QuotaStatus quota_status(const Caller& caller) const override;
  std::optional<QuotaView> peek_quota(const Caller& caller) const override;
  void record_usage(const Caller& caller, std::string_view domain, std::string_view slug,
                    int status, int64_t units) override;
  std::vector<store::HistoryRow> usage_history(const Caller& caller, int32_t first_day,
                                               int32_t end_day) override;
  void keys_changed() override;

  // With a request that can wait and an event loop on this thread while the committer
  // runs: suspended and queued for the next group commit (Waiting). Otherwise the pending
  // usage is committed here. With acknowledge_after_commit(false): Durable at once, the
  // units left to the next background flush.
  Durability await_durable(const CountedUnits& counted, Suspendable* request) override;

  // Group commits made, and the responses they released (tests, docs/reliability.md).
  uint64_t group_commits() const { return commits_.group_commits(); }
  uint64_t committed_waits() const { return commits_.committed_waits(); }
  // Of those, the groups committed on the serving thread itself.
  uint64_t group_commits_here() const { return commits_.group_commits_here(); }

  // true (the default): await_durable waits for the units' commit. Set before start().
  void acknowledge_after_commit(bool on) { commits_.acknowledge_after_commit(on); }

 private:
  // Drops the history older than the 13 months kept, once per month (and at start-up).
  void apply_history_retention();

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

  // Commits the units responses wait for (await_durable); the background flush writes
  // the rest (units given back, the usage history) through it.
  GroupCommit commits_;
  bool checkpoint_failing_ = false;  // the background thread's

  std::atomic<bool> stopped_{false};  // stop() flushes once
  BackgroundLoop background_;         // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
