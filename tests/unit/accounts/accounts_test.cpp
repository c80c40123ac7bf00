#include "accounts/accounts.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <functional>
#include <thread>
#include <vector>

#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "core/event_loop.hpp"
#include "support/counting_calls.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::release;
using accounts::testing::reserve;
using accounts::testing::take_rate_unit;
using accounts::testing::TempDir;
using accounts::testing::utc_ms;
using accounts::testing::WaitingRequest;
using std::chrono::milliseconds;

namespace {

const int64_t kNow = utc_ms(2026, 11, 30, 23, 58, 30);

std::vector<Plan> test_plans() {
  auto plans = builtin_plans();
  plans.push_back({"tiny", 3, 2});
  plans.push_back({"wide", 100'000'000, 5'000});
  plans.push_back({"bulk", 100'000'000, 1'000'000'000});
  return plans;
}

std::unique_ptr<Accounts> open_accounts(const std::filesystem::path& dir, const Clock& clock,
                                        std::vector<Plan> plans = test_plans(),
                                        milliseconds flush = milliseconds(50),
                                        milliseconds refresh = milliseconds(50)) {
  return std::make_unique<Accounts>(clock, AccountsOptions{.store = store::open_sqlite_store(dir),
                                                           .plans = std::move(plans),
                                                           .flush_interval = flush,
                                                           .key_refresh_interval = refresh});
}

// What `toolcalc keys create` does: its own connection to the same database.
std::string cli_create(const std::filesystem::path& dir, const std::string& plan,
                       const std::string& label = "") {
  auto s = store::open_sqlite_store(dir);
  return issue_key(*s, test_plans(), plan, label, KeyKind::Live, 1'800'000'000).key;
}

std::string bearer(const std::string& key) {
  return "Bearer " + key;
}

template <typename Pred>
bool eventually(Pred pred, milliseconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return pred();
}

int64_t stored_usage(const std::filesystem::path& dir, const std::string& period) {
  int64_t total = 0;
  for (const auto& [id, n] : store::open_sqlite_store(dir)->load_usage(period)) total += n;
  return total;
}

// The units one reservation counts, as the request's CountedUnits records them.
CountedUnits reserve_counted(Accounts& acc, const Caller& caller, int64_t units) {
  CountedUnits counted;
  acc.reserve_quota(caller, units, counted);
  return counted;
}

}  // namespace

TEST(Accounts, MissingHeaderIsAnonymousPerIp) {
  TempDir tmp;
  ManualClock clock(kNow);
  auto acc = open_accounts(tmp.path(), clock);
  const AuthResult r = acc->authenticate(std::nullopt, "192.0.2.7");
  EXPECT_EQ(r.status, AuthStatus::Missing);
  EXPECT_TRUE(r.caller.anonymous);
  EXPECT_EQ(r.caller.subject, "ip:192.0.2.7");
  EXPECT_EQ(r.caller.plan.name, "anonymous");
  EXPECT_EQ(r.caller.key_prefix, "");
  const QuotaReservation q = reserve(*acc, r.caller, 1);
  EXPECT_TRUE(q.allowed);
  EXPECT_TRUE(q.unlimited);
  EXPECT_TRUE(acc->quota_status(r.caller).unlimited);
}

TEST(Accounts, ValidKeyAuthenticatesWithItsPlan) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "pro", "ci runner");
  auto acc = open_accounts(tmp.path(), clock);
  for (const std::string& header :
       std::vector<std::string>{"Bearer " + key, "bearer " + key, "BEARER  " + key}) {
    const AuthResult r = acc->authenticate(header, "192.0.2.7");
    ASSERT_EQ(r.status, AuthStatus::Ok) << header;
    EXPECT_FALSE(r.caller.anonymous);
    EXPECT_EQ(r.caller.key_prefix, key.substr(0, 12));
    EXPECT_EQ(r.caller.label, "ci runner");
    EXPECT_EQ(r.caller.plan.name, "pro");
    EXPECT_EQ(r.caller.plan.rate_per_minute, 600);
    EXPECT_EQ(r.caller.plan.monthly_quota, 100'000);
    EXPECT_GT(r.caller.key_id, 0);
    EXPECT_EQ(r.caller.subject, "key:" + std::to_string(r.caller.key_id));
  }
}

TEST(Accounts, MalformedOrUnknownKeysAreInvalid) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "free");
  auto acc = open_accounts(tmp.path(), clock);
  std::string other = key;
  other.back() = other.back() == 'a' ? 'b' : 'a';
  for (const std::string& header :
       std::vector<std::string>{"", "Basic " + key, key, "Bearer", "Bearer " + other,
                                "Bearer tc_live_short", "Bearer " + key + " extra"}) {
    const AuthResult r = acc->authenticate(header, "198.51.100.1");
    EXPECT_EQ(r.status, AuthStatus::Invalid) << header;
    EXPECT_TRUE(r.caller.anonymous);
    EXPECT_EQ(r.caller.subject, "ip:198.51.100.1");
  }
}

TEST(Accounts, KeyCreatedElsewhereIsAcceptedWithinTheRefreshInterval) {
  TempDir tmp;
  ManualClock clock(kNow);
  auto acc = open_accounts(tmp.path(), clock, test_plans(), milliseconds(1000), milliseconds(200));
  acc->start();
  const auto created = std::chrono::steady_clock::now();
  const std::string key = cli_create(tmp.path(), "free");
  EXPECT_TRUE(
      eventually([&] { return acc->authenticate(bearer(key), "x").status == AuthStatus::Ok; },
                 milliseconds(2000)));
  EXPECT_LT(std::chrono::steady_clock::now() - created, milliseconds(2000));
}

TEST(Accounts, RevokeTakesEffectWithinTheRefreshInterval) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "free");
  auto acc = open_accounts(tmp.path(), clock, test_plans(), milliseconds(1000), milliseconds(200));
  acc->start();
  ASSERT_EQ(acc->authenticate(bearer(key), "x").status, AuthStatus::Ok);
  ASSERT_EQ(store::open_sqlite_store(tmp.path())->revoke_key(key.substr(0, 12), 1),
            store::RevokeOutcome::Revoked);
  EXPECT_TRUE(
      eventually([&] { return acc->authenticate(bearer(key), "x").status == AuthStatus::Invalid; },
                 milliseconds(2000)));
}

TEST(Accounts, RefreshReloadsOnlyWhenTheGenerationMoved) {
  TempDir tmp;
  ManualClock clock(kNow);
  auto acc = open_accounts(tmp.path(), clock);
  const std::string key = cli_create(tmp.path(), "free");
  EXPECT_EQ(acc->authenticate(bearer(key), "x").status, AuthStatus::Invalid);  // not started
  acc->refresh_keys();
  EXPECT_EQ(acc->authenticate(bearer(key), "x").status, AuthStatus::Ok);
}

TEST(Accounts, KeyOnAPlanNoLongerConfiguredIsInvalid) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "tiny");
  auto acc = open_accounts(tmp.path(), clock, builtin_plans());  // no "tiny" any more
  EXPECT_EQ(acc->authenticate(bearer(key), "x").status, AuthStatus::Invalid);
}

TEST(Accounts, RateLimitPerKeyWithWindowRollover) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 5, 4, 10, 7, 15));
  const std::string key = cli_create(tmp.path(), "tiny");  // 3 per minute
  auto acc = open_accounts(tmp.path(), clock);
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  for (int i = 2; i >= 0; --i) {
    const RateDecision d = take_rate_unit(*acc, caller);
    EXPECT_TRUE(d.allowed);
    EXPECT_EQ(d.limit, 3);
    EXPECT_EQ(d.remaining, i);
    EXPECT_EQ(d.reset_epoch_s * 1000, utc_ms(2026, 5, 4, 10, 8));
  }
  const RateDecision over = take_rate_unit(*acc, caller);
  EXPECT_FALSE(over.allowed);
  EXPECT_EQ(over.remaining, 0);
  EXPECT_EQ(over.retry_after_s, 45);
  EXPECT_EQ(acc->peek_rate(caller).remaining, 0);
  // Anonymous callers from another IP are not affected.
  EXPECT_TRUE(take_rate_unit(*acc, acc->authenticate(std::nullopt, "192.0.2.1").caller).allowed);

  clock.set_ms(utc_ms(2026, 5, 4, 10, 8));
  EXPECT_EQ(acc->peek_rate(caller).remaining, 3);
  EXPECT_TRUE(take_rate_unit(*acc, caller).allowed);
}

TEST(Accounts, QuotaWithMonthRollover) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 11, 30, 23, 59, 0));
  const std::string key = cli_create(tmp.path(), "tiny");  // 2 per month
  auto acc = open_accounts(tmp.path(), clock);
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  EXPECT_EQ(reserve(*acc, caller, 1).remaining, 1);
  EXPECT_EQ(reserve(*acc, caller, 1).remaining, 0);
  const QuotaReservation refused = reserve(*acc, caller, 1);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_s, 60);
  EXPECT_EQ(refused.resets_at, "2026-12-01T00:00:00Z");
  const QuotaStatus s = acc->quota_status(caller);
  EXPECT_EQ(s.limit, 2);
  EXPECT_EQ(s.used, 2);
  EXPECT_EQ(s.remaining, 0);
  EXPECT_EQ(s.period, "2026-11");

  clock.set_ms(utc_ms(2026, 12, 1, 0, 0, 0));
  const QuotaReservation december = reserve(*acc, caller, 1);
  EXPECT_TRUE(december.allowed);
  EXPECT_EQ(december.remaining, 1);
  EXPECT_EQ(december.period, "2026-12");
  acc->stop();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 2);
  EXPECT_EQ(stored_usage(tmp.path(), "2026-12"), 1);
}

TEST(Accounts, ReleaseReturnsTheUnit) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "tiny");
  auto acc = open_accounts(tmp.path(), clock);
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  const QuotaReservation a = reserve(*acc, caller, 1);
  const QuotaReservation b = reserve(*acc, caller, 1);
  ASSERT_TRUE(a.allowed && b.allowed);
  acc->flush_usage();  // the release then reaches the store as a negative delta
  release(*acc, caller, b, 1);
  EXPECT_EQ(acc->quota_status(caller).used, 1);
  EXPECT_TRUE(reserve(*acc, caller, 1).allowed);
  EXPECT_FALSE(reserve(*acc, caller, 1).allowed);
  release(*acc, caller, a, 1);
  acc->stop();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 1);
}

TEST(Accounts, BothLimitsAreExactUnderConcurrency) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 3, 3, 3, 3, 3));
  auto plans = test_plans();
  plans.push_back({"race", 7'777, 5'555});
  auto s = store::open_sqlite_store(tmp.path());
  const std::string key = issue_key(*s, plans, "race", "", KeyKind::Live, 0).key;
  s.reset();
  auto acc = open_accounts(tmp.path(), clock, plans, milliseconds(5), milliseconds(5));
  acc->start();  // flushes run concurrently with the reservations
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  constexpr int kThreads = 8, kCallsEach = 2'000;
  std::atomic<int64_t> rate_allowed{0}, quota_allowed{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      while (!go) std::this_thread::yield();
      for (int i = 0; i < kCallsEach; ++i) {
        if (take_rate_unit(*acc, caller).allowed) ++rate_allowed;
        if (reserve(*acc, caller, 1).allowed) ++quota_allowed;
      }
    });
  go = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(rate_allowed.load(), 7'777);
  EXPECT_EQ(quota_allowed.load(), 5'555);
  acc->stop();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-03"), 5'555);
}

TEST(Accounts, RestartContinuesTheMonthsCount) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "free");
  {
    auto acc = open_accounts(tmp.path(), clock);
    const Caller caller = acc->authenticate(bearer(key), "x").caller;
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(reserve(*acc, caller, 1).allowed);
  }  // destructor: stop → final flush
  auto acc = open_accounts(tmp.path(), clock);
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  EXPECT_EQ(acc->quota_status(caller).used, 10);
  EXPECT_EQ(reserve(*acc, caller, 1).remaining, 1'000 - 11);
}

TEST(Accounts, StopFlushesEverything) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "free");
  // Flush interval far beyond the test: only stop() can write the counts.
  auto acc =
      open_accounts(tmp.path(), clock, test_plans(), milliseconds(60'000), milliseconds(60'000));
  acc->start();
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  for (int i = 0; i < 7; ++i) reserve(*acc, caller, 1);
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 0);
  acc->stop();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 7);
  acc->stop();  // idempotent
}

TEST(Accounts, BackgroundFlushPersistsWithinTheFlushInterval) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "free");
  auto acc = open_accounts(tmp.path(), clock, test_plans(), milliseconds(100), milliseconds(1000));
  acc->start();
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  for (int i = 0; i < 4; ++i) reserve(*acc, caller, 1);
  // What a kill -9 now would keep: the counts written by the background flush.
  EXPECT_TRUE(
      eventually([&] { return stored_usage(tmp.path(), "2026-11") == 4; }, milliseconds(1000)));
}

TEST(Accounts, CreateDevKeyRevokesOlderDevKeys) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string live = cli_create(tmp.path(), "free", "dev");  // a live key labelled dev
  auto acc = open_accounts(tmp.path(), clock);
  const std::string first = acc->create_dev_key("business");
  EXPECT_TRUE(first.starts_with("tc_test_"));
  const AuthResult r = acc->authenticate(bearer(first), "x");
  ASSERT_EQ(r.status, AuthStatus::Ok);  // usable at once
  EXPECT_EQ(r.caller.plan.name, "business");
  EXPECT_EQ(r.caller.label, "dev");
  const std::string second = acc->create_dev_key("business");
  EXPECT_EQ(acc->authenticate(bearer(second), "x").status, AuthStatus::Ok);
  EXPECT_EQ(acc->authenticate(bearer(first), "x").status, AuthStatus::Invalid);
  EXPECT_EQ(acc->authenticate(bearer(live), "x").status, AuthStatus::Ok);
  EXPECT_THROW(acc->create_dev_key("gold"), UnknownPlan);
}

TEST(Accounts, DatabaseHoldsNoPlaintextKey) {
  TempDir tmp;
  ManualClock clock(kNow);
  auto acc = open_accounts(tmp.path(), clock);
  const std::string dev = acc->create_dev_key("free");
  const std::string live = cli_create(tmp.path(), "pro", "x");
  acc->refresh_keys();
  const Caller caller = acc->authenticate(bearer(live), "x").caller;
  reserve(*acc, caller, 1);
  acc->flush_usage();
  for (const std::string& key : {dev, live}) {
    const std::string bytes = accounts::testing::all_bytes_under(tmp.path());
    EXPECT_EQ(bytes.find(key), std::string::npos);
    EXPECT_EQ(bytes.find(key.substr(12)), std::string::npos);
  }
  acc->stop();
  acc.reset();
  const std::string bytes = accounts::testing::all_bytes_under(tmp.path());
  EXPECT_EQ(bytes.find(dev.substr(12)), std::string::npos);
  EXPECT_EQ(bytes.find(live.substr(12)), std::string::npos);
}

// --- group commit (docs/reliability.md, "Counts on disk") ----------------------------------

namespace {

// Records what the committer told it, on the thread that ran the loop.
// A server thread as the group commit sees it: an event loop that is never out of work,
// registered as this thread's, and what its waiting responses were told.
struct ServerLoop {
  boost::asio::io_context loop;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> busy =
      boost::asio::make_work_guard(loop);
  const EventLoopScope scope{loop};
  std::vector<bool> told;

  // Queues a response whose units are `counted`: it waits for their commit.
  void respond(Accounts& acc, const CountedUnits& counted) {
    WaitingRequest request(told);
    EXPECT_EQ(acc.await_durable(counted, &request), Durability::Waiting);
  }

  // Runs the loop until `n` responses in all were told, for at most 10 s.
  void run_until_told(size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (told.size() < n && std::chrono::steady_clock::now() < deadline)
      loop.run_one_for(milliseconds(100));
  }
};

}  // namespace

// Accounts on a fresh store with one key, started, whose background flush is far beyond any
// test (60 s): only a group commit (or stop) writes the units.
class AccountsGroupCommit : public ::testing::Test {
 protected:
  void start(const std::string& plan = "free", bool acknowledge_after_commit = true) {
    const std::string key = cli_create(tmp.path(), plan);
    acc =
        open_accounts(tmp.path(), clock, test_plans(), milliseconds(60'000), milliseconds(60'000));
    acc->acknowledge_after_commit(acknowledge_after_commit);
    acc->start();
    caller = acc->authenticate(bearer(key), "x").caller;
  }

  TempDir tmp;
  ManualClock clock{kNow};
  std::unique_ptr<Accounts> acc;
  Caller caller;
};

TEST_F(AccountsGroupCommit, AResponseWaitsOnItsLoopUntilItsUnitsAreCommitted) {
  start();
  ServerLoop server;
  // Three responses of one turn of the loop: one group, one commit.
  for (int i = 0; i < 3; ++i) {
    CountedUnits counted;
    ASSERT_TRUE(acc->reserve_quota(caller, 2, counted).allowed);
    // Given back: not counted.
    acc->release_quota(caller, acc->reserve_quota(caller, 1, counted), 1, counted);
    EXPECT_EQ(counted.total(), 2);
    WaitingRequest request(server.told);
    EXPECT_EQ(acc->await_durable(counted, &request), Durability::Waiting);
    EXPECT_EQ(request.suspensions, 1);  // taken
  }
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 0);  // nothing written before the turn ends
  server.run_until_told(3);
  EXPECT_EQ(server.told, (std::vector<bool>{true, true, true}));
  // Told only once the units are in the database, by one transaction for the three.
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 6);
  EXPECT_EQ(acc->group_commits(), 1u);
  // By the committer: the first commit after the store opens starts the log (an fsync).
  EXPECT_EQ(acc->group_commits_here(), 0u);
  EXPECT_EQ(acc->committed_waits(), 3u);
  acc->stop();
}

// While another writer holds the database (a `toolcalc keys` command, or the committer and
// a checkpoint in this process), the serving thread does not wait for it: the group goes
// to the committer, the loop goes on serving, and the responses are told once the lock is
// released and their units committed.
TEST_F(AccountsGroupCommit, AGroupGoesToTheCommitterWhileAnotherWriterHoldsTheDatabase) {
  start();
  ServerLoop server;
  // The first group starts the log (the committer's); the second finds the store free.
  for (size_t i = 1; i <= 2; ++i) {
    server.respond(*acc, reserve_counted(*acc, caller, 1));
    server.run_until_told(i);
  }
  EXPECT_EQ(acc->group_commits(), 2u);
  EXPECT_EQ(acc->group_commits_here(), 1u);

  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(store::sqlite_store_file(tmp.path()).c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  server.respond(*acc, reserve_counted(*acc, caller, 1));
  // The loop keeps running handlers while the group waits for the lock.
  int later_turns = 0;
  std::function<void()> count_turns = [&] {
    if (++later_turns < 1000) boost::asio::post(server.loop, count_turns);
  };
  boost::asio::post(server.loop, count_turns);
  const auto deadline = std::chrono::steady_clock::now() + milliseconds(300);
  while (std::chrono::steady_clock::now() < deadline) server.loop.run_one_for(milliseconds(10));
  EXPECT_EQ(later_turns, 1000);
  EXPECT_EQ(server.told.size(), 2u);  // not told before the units are written
  EXPECT_EQ(acc->group_commits(), 2u);

  ASSERT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  server.run_until_told(3);
  EXPECT_EQ(server.told, std::vector<bool>(3, true));
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 3);
  EXPECT_EQ(acc->group_commits(), 3u);
  EXPECT_EQ(acc->group_commits_here(), 1u);  // the third was the committer's

  // The database free again, the next group is committed on the serving thread.
  server.respond(*acc, reserve_counted(*acc, caller, 1));
  server.run_until_told(4);
  EXPECT_EQ(server.told, std::vector<bool>(4, true));
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 4);
  EXPECT_EQ(acc->group_commits_here(), 2u);
  acc->stop();
}

// Responses answered in the turns that follow the first one's (more requests were ready)
// join its group: one transaction once a turn adds none.
TEST_F(AccountsGroupCommit, ResponsesOfFollowingTurnsJoinTheGroupUntilATurnAddsNone) {
  start();
  ServerLoop server;
  auto respond = [&] { server.respond(*acc, reserve_counted(*acc, caller, 1)); };
  respond();  // turn 1
  // Turns 2 and 3: each answers one more request.
  boost::asio::post(server.loop, [&] {
    respond();
    boost::asio::post(server.loop, respond);
  });
  server.run_until_told(3);
  EXPECT_EQ(server.told, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 3);
  EXPECT_EQ(acc->group_commits(), 1u);
  EXPECT_EQ(acc->committed_waits(), 3u);
  acc->stop();
}

// A loop that answers a request in every turn never catches up: its group goes to the
// committer kGroupCommitGather after its first response all the same.
TEST_F(AccountsGroupCommit, AGroupThatKeepsGrowingIsCommittedAfterTheGatheringTime) {
  start("bulk");
  ServerLoop server;
  int queued = 0;
  std::function<void()> respond_each_turn = [&] {
    if (!server.told.empty() || queued >= 100'000) return;
    server.respond(*acc, reserve_counted(*acc, caller, 1));
    ++queued;
    boost::asio::post(server.loop, respond_each_turn);
  };
  const auto started = std::chrono::steady_clock::now();
  respond_each_turn();
  server.run_until_told(1);
  ASSERT_FALSE(server.told.empty());
  EXPECT_GE(std::chrono::steady_clock::now() - started, kGroupCommitGather);
  EXPECT_GT(queued, 1);        // it did gather across turns
  EXPECT_LT(queued, 100'000);  // and stopped gathering on time
  // The responses queued since then are told with the next group.
  server.run_until_told(static_cast<size_t>(queued));
  EXPECT_EQ(server.told, std::vector<bool>(static_cast<size_t>(queued), true));
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), queued);
  EXPECT_EQ(static_cast<int>(acc->committed_waits()), queued);
  EXPECT_LT(static_cast<int>(acc->group_commits()), queued);  // groups, not one per response
  acc->stop();
}

TEST_F(AccountsGroupCommit, WithoutALoopTheUnitsAreCommittedBeforeAwaitReturns) {
  start();
  const CountedUnits counted = reserve_counted(*acc, caller, 1);
  std::vector<bool> told;
  WaitingRequest request(told);
  EXPECT_EQ(acc->await_durable(counted, &request), Durability::Durable);
  EXPECT_EQ(request.suspensions, 0);  // not taken: the caller goes on at once
  EXPECT_TRUE(told.empty());
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 1);
  CountedUnits nothing;
  EXPECT_EQ(acc->await_durable(nothing, &request), Durability::Durable);
  acc->stop();
}

// acknowledge_after_commit(false): the response goes on at once and its units wait for the
// background flush (the behaviour before group commit, for the bench's comparison).
TEST_F(AccountsGroupCommit, WithoutAcknowledgeAfterCommitTheUnitsWaitForTheFlush) {
  start("free", /*acknowledge_after_commit=*/false);
  const CountedUnits counted = reserve_counted(*acc, caller, 1);
  std::vector<bool> told;
  WaitingRequest request(told);
  EXPECT_EQ(acc->await_durable(counted, &request), Durability::Durable);
  EXPECT_EQ(request.suspensions, 0);
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 0);  // not yet written
  acc->flush_usage();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 1);
  acc->stop();
}

namespace {

// An embedded store whose writes fail while `full` is set (a full disk).
class FailingStore final : public store::AccountStore {
 public:
  FailingStore(std::unique_ptr<store::AccountStore> inner, std::atomic<bool>& full,
               bool inline_writes)
      : inner_(std::move(inner)), full_(full), inline_writes_(inline_writes) {}
  std::optional<int64_t> create_key(const store::NewKey& k) override {
    return inner_->create_key(k);
  }
  store::RevokeOutcome revoke_key(std::string_view p, int64_t t) override {
    return inner_->revoke_key(p, t);
  }
  int64_t key_generation() override { return inner_->key_generation(); }
  store::KeySet load_keys() override { return inner_->load_keys(); }
  std::vector<store::KeyWithUsage> list_keys(std::string_view p) override {
    return inner_->list_keys(p);
  }
  std::unordered_map<int64_t, int64_t> load_usage(std::string_view p) override {
    return inner_->load_usage(p);
  }
  store::ChangeOutcome rotate_key(std::string_view p, std::string_view h, int64_t t) override {
    return inner_->rotate_key(p, h, t);
  }
  store::ChangeOutcome update_key(std::string_view p, const store::KeyUpdate& u) override {
    return inner_->update_key(p, u);
  }
  void add_usage(const std::vector<store::UsageDelta>& d,
                 const std::vector<store::HistoryDelta>& h) override {
    if (full_) throw store::StoreError("database or disk is full");
    inner_->add_usage(d, h);
  }
  bool add_usage_if_free(const std::vector<store::UsageDelta>& d) override {
    if (!inline_writes_) return false;  // as if always busy: every group to the committer
    if (full_) throw store::StoreError("database or disk is full");
    return inner_->add_usage_if_free(d);
  }
  std::vector<store::HistoryRow> load_history(int64_t k, int32_t first, int32_t end) override {
    return inner_->load_history(k, first, end);
  }
  void drop_history_before(int32_t day) override { inner_->drop_history_before(day); }
  bool create_alert(const store::QuotaAlert& a) override { return inner_->create_alert(a); }
  std::vector<store::QuotaAlert> lease_due_alerts(int64_t now_s, int64_t until_s,
                                                  size_t limit) override {
    return inner_->lease_due_alerts(now_s, until_s, limit);
  }
  void finish_alert(const store::QuotaAlert& a, store::AlertOutcome o, int64_t at_s) override {
    inner_->finish_alert(a, o, at_s);
  }

 private:
  std::unique_ptr<store::AccountStore> inner_;
  std::atomic<bool>& full_;
  const bool inline_writes_;
};

}  // namespace

// Whether the group is committed on the serving thread (true) or by the committer.
class FailedCommit : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Accounts, FailedCommit, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Here" : "ByTheCommitter"; });

TEST_P(FailedCommit, UnitsThatCannotBeCommittedAreGivenBackAndNeverCounted) {
  TempDir tmp;
  ManualClock clock(kNow);
  const std::string key = cli_create(tmp.path(), "tiny");  // quota 2
  std::atomic<bool> full{true};
  Accounts acc(clock, {.store = std::make_unique<FailingStore>(store::open_sqlite_store(tmp.path()),
                                                               full, GetParam()),
                       .plans = test_plans(),
                       .flush_interval = milliseconds(60'000),
                       .key_refresh_interval = milliseconds(60'000)});
  acc.start();
  const Caller caller = acc.authenticate(bearer(key), "x").caller;
  ServerLoop server;
  std::vector<bool>& told = server.told;
  auto one_response = [&] {
    CountedUnits counted;
    EXPECT_TRUE(acc.reserve_quota(caller, 1, counted).allowed);
    server.respond(acc, counted);
    server.run_until_told(told.size() + 1);
  };
  one_response();
  EXPECT_EQ(told.back(), false);
  EXPECT_EQ(acc.quota_status(caller).used, 0);  // given back: the quota is whole again
  full = false;
  one_response();
  EXPECT_EQ(told.back(), true);
  one_response();
  EXPECT_EQ(told.back(), true);
  EXPECT_EQ(acc.quota_status(caller).used, 2);
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 2);  // the failed unit was never written
  EXPECT_EQ(acc.group_commits(), 3u);
  // Here: the first group failed on its serving thread; the second went to the committer
  // (the first commit since the store opened starts the log); the third was here again.
  EXPECT_EQ(acc.group_commits_here(), GetParam() ? 2u : 0u);
  acc.stop();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 2);
}

TEST(Accounts, AMonthReenteredByAClockStepStartsFromTheStoredCount) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 10, 31, 23, 59));
  const std::string key = cli_create(tmp.path(), "tiny");  // quota 2
  {
    auto acc = open_accounts(tmp.path(), clock);
    const Caller caller = acc->authenticate(bearer(key), "x").caller;
    EXPECT_TRUE(reserve(*acc, caller, 2).allowed);
  }  // stopped: October's 2 units are stored
  clock.set_ms(utc_ms(2026, 11, 1, 0, 1));
  auto acc = open_accounts(tmp.path(), clock);  // loads November only
  const Caller caller = acc->authenticate(bearer(key), "x").caller;
  EXPECT_TRUE(reserve(*acc, caller, 1).allowed);   // the quota reset on the 1st
  clock.set_ms(utc_ms(2026, 10, 31, 23, 30));      // the clock stepped back into October
  EXPECT_FALSE(reserve(*acc, caller, 1).allowed);  // still used up: read from the store
  EXPECT_EQ(acc->quota_status(caller).used, 2);
  clock.set_ms(utc_ms(2026, 11, 1, 0, 2));
  EXPECT_EQ(acc->quota_status(caller).used, 1);  // November kept its count: reset once only
  acc->stop();
  EXPECT_EQ(stored_usage(tmp.path(), "2026-10"), 2);
  EXPECT_EQ(stored_usage(tmp.path(), "2026-11"), 1);
}
