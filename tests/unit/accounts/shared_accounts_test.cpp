// The Redis backend against a real redis-server: keys through the AccountStore
// interface, counters through SharedCounters, SharedAccounts end to end, and what an
// unreachable Redis does.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "accounts/shared_accounts.hpp"
#include "core/event_loop.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_store.hpp"
#include "store/usage_ledger.hpp"
#include "support/counting_calls.hpp"
#include "support/redis_process.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::new_key;
using accounts::testing::RedisProcess;
using accounts::testing::release;
using accounts::testing::reserve;
using accounts::testing::take_rate_unit;
using accounts::testing::take_rate_unit_for_execution;
using accounts::testing::TempDir;
using accounts::testing::utc_ms;
using accounts::testing::WaitingRequest;

namespace {

const int64_t kNow = utc_ms(2026, 11, 30, 23, 58, 30);

std::vector<Plan> test_plans() {
  auto plans = builtin_plans();
  plans.push_back({"tiny", 3, 2});
  plans.push_back({"wide", 100'000'000, 5'000});
  return plans;
}

// One redis-server for the whole binary; each test gets a database of its own, emptied.
class RedisTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new RedisProcess();
    if (!server_->start()) {
      skip_reason_ = server_->why();
      delete server_;
      server_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (!server_) GTEST_SKIP() << skip_reason_;
    options_ = server_->options(next_db_++ % 64);
    store::RedisClient(options_).command({"FLUSHDB"});
  }
  std::unique_ptr<store::AccountStore> open_store() { return store::open_redis_store(options_); }
  std::unique_ptr<store::SharedCounters> open_counters() {
    return store::open_redis_counters(options_);
  }
  std::unique_ptr<SharedAccounts> open_accounts(const Clock& clock) {
    return std::make_unique<SharedAccounts>(
        clock, SharedAccountsOptions{.keys_store = open_store(),
                                     .counters = open_counters(),
                                     .plans = test_plans(),
                                     .key_refresh_interval = std::chrono::milliseconds(50)});
  }
  // An instance of a fleet with its usage ledger in `data_dir`.
  std::unique_ptr<SharedAccounts> open_accounts_with_ledger(const Clock& clock,
                                                            const std::filesystem::path& data_dir) {
    return std::make_unique<SharedAccounts>(
        clock, SharedAccountsOptions{.keys_store = open_store(),
                                     .counters = open_counters(),
                                     .plans = test_plans(),
                                     .key_refresh_interval = std::chrono::milliseconds(50),
                                     .flush_interval = std::chrono::seconds(1),
                                     .ledger = store::open_usage_ledger(data_dir)});
  }

  static inline RedisProcess* server_ = nullptr;
  static inline std::string skip_reason_;
  static inline int next_db_ = 1;
  store::RedisOptions options_;
};

}  // namespace

TEST(RedisUrl, ParsesHostPortDatabaseAndPassword) {
  auto o = store::parse_redis_url("redis://10.0.0.5:6380/3");
  EXPECT_EQ(o.host, "10.0.0.5");
  EXPECT_EQ(o.port, 6380);
  EXPECT_EQ(o.db, 3);
  EXPECT_EQ(o.password, "");
  o = store::parse_redis_url("redis://:s3cret@cache.internal");
  EXPECT_EQ(o.host, "cache.internal");
  EXPECT_EQ(o.port, 6379);
  EXPECT_EQ(o.db, 0);
  EXPECT_EQ(o.password, "s3cret");
  EXPECT_EQ(o.url(), "redis://cache.internal:6379/0");  // no password in logs
  EXPECT_THROW(store::parse_redis_url("http://x:1/0"), std::invalid_argument);
  EXPECT_THROW(store::parse_redis_url("redis://x:0/0"), std::invalid_argument);
  EXPECT_THROW(store::parse_redis_url("redis://x:1/db"), std::invalid_argument);
  EXPECT_THROW(store::parse_redis_url("redis://:6379/0"), std::invalid_argument);
}

TEST_F(RedisTest, KeysRoundTripAndBumpTheGeneration) {
  auto s = open_store();
  EXPECT_EQ(s->key_generation(), 0);
  const auto id = s->create_key(new_key("tc_live_AAAA", '\x01'));
  ASSERT_TRUE(id);
  EXPECT_EQ(*id, 1);
  EXPECT_EQ(s->key_generation(), 1);
  EXPECT_FALSE(s->create_key(new_key("tc_live_AAAA", 'b')));  // prefix taken
  EXPECT_EQ(s->key_generation(), 1);
  const auto id2 = s->create_key(new_key("tc_live_BBBB", '\xff'));
  ASSERT_TRUE(id2);
  EXPECT_EQ(*id2, 2);

  auto other = open_store();  // another process (the CLI) sees the same keys
  const store::KeySet set = other->load_keys();
  EXPECT_EQ(set.generation, 2);
  ASSERT_EQ(set.keys.size(), 2u);
  EXPECT_EQ(set.keys[0].prefix, "tc_live_AAAA");
  EXPECT_EQ(set.keys[0].key_hash, std::string(32, '\x01'));
  EXPECT_EQ(set.keys[1].key_hash, std::string(32, '\xff'));
  EXPECT_EQ(set.keys[0].label, "label");
  EXPECT_EQ(set.keys[0].plan, "free");
  EXPECT_EQ(set.keys[0].created_epoch_s, 1'700'000'000);
  EXPECT_FALSE(set.keys[0].revoked_epoch_s);

  EXPECT_EQ(other->revoke_key("tc_live_AAAA", 1'800'000'000), store::RevokeOutcome::Revoked);
  EXPECT_EQ(other->revoke_key("tc_live_AAAA", 1'800'000'001), store::RevokeOutcome::AlreadyRevoked);
  EXPECT_EQ(other->revoke_key("tc_live_ZZZZ", 1), store::RevokeOutcome::NotFound);
  EXPECT_EQ(s->key_generation(), 3);
  EXPECT_EQ(s->load_keys().keys[0].revoked_epoch_s, 1'800'000'000);
}

TEST_F(RedisTest, UsageIsListedPerPeriodAndNeverNegative) {
  auto s = open_store();
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  const int64_t b = *s->create_key(new_key("tc_live_BBBB", 'b'));
  s->add_usage({{a, "2026-11", 5}, {b, "2026-11", 2}, {a, "2026-10", 9}});
  s->add_usage({{b, "2026-11", -7}});
  const auto usage = s->load_usage("2026-11");
  EXPECT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage.at(a), 5);
  const auto listed = s->list_keys("2026-10");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].used, 9);
  EXPECT_EQ(listed[1].used, 0);
}

TEST_F(RedisTest, RateWindowAllowsExactlyTheLimitAcrossClients) {
  // Four "instances" (own clients), four threads each, against one limit.
  constexpr int kLimit = 37, kClients = 4, kThreads = 4, kCallsPerThread = 25;
  std::vector<std::unique_ptr<store::SharedCounters>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(open_counters());
  std::atomic<int> allowed{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c)
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, c] {
        for (int i = 0; i < kCallsPerThread; ++i)
          if (clients[c]->take_rate("key:9", 1'800'000'020, kLimit).allowed) ++allowed;
      });
  for (auto& t : threads) t.join();
  EXPECT_EQ(allowed.load(), kLimit);
  EXPECT_EQ(clients[0]->rate_used("key:9", 1'800'000'020), kLimit);
  EXPECT_EQ(clients[0]->rate_used("key:9", 1'800'000'080), 0);  // the next window is new
  // The window's counter expires by itself (two windows).
  store::RedisClient raw(options_);
  const int64_t ttl = raw.command({"TTL", store::redis_keys::rate("key:9", 1'800'000'020)}).integer;
  EXPECT_GT(ttl, 60);
  EXPECT_LE(ttl, 120);
}

TEST_F(RedisTest, QuotaReservesUpToTheLimitAndReleases) {
  auto c = open_counters();
  EXPECT_EQ(c->reserve_quota(7, "2026-11", 2, 1).used, 1);
  EXPECT_TRUE(c->reserve_quota(7, "2026-11", 2, 1).allowed);
  const store::CounterStep refused = c->reserve_quota(7, "2026-11", 2, 1);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.used, 2);
  c->release_quota(7, "2026-11", 1);
  EXPECT_EQ(c->quota_used(7, "2026-11"), 1);
  c->release_quota(7, "2026-11", 1);
  c->release_quota(7, "2026-11", 1);  // never below zero
  EXPECT_EQ(c->quota_used(7, "2026-11"), 0);

  // Several units (a sweep): all or none, and given back in part.
  EXPECT_FALSE(c->reserve_quota(8, "2026-11", 10, 11).allowed);
  EXPECT_EQ(c->quota_used(8, "2026-11"), 0);
  const store::CounterStep ten = c->reserve_quota(8, "2026-11", 10, 10);
  EXPECT_TRUE(ten.allowed);
  EXPECT_EQ(ten.used, 10);
  EXPECT_FALSE(c->reserve_quota(8, "2026-11", 10, 1).allowed);
  c->release_quota(8, "2026-11", 3);
  EXPECT_EQ(c->quota_used(8, "2026-11"), 7);
  c->release_quota(8, "2026-11", 50);  // never below zero
  EXPECT_EQ(c->quota_used(8, "2026-11"), 0);

  // Rate and quota in one step: a refused rate unit reserves nothing.
  auto both = c->take_rate_and_quota("key:7", 60, 1, 7, "2026-11", 1);
  EXPECT_TRUE(both.rate.allowed);
  EXPECT_TRUE(both.quota.allowed);
  EXPECT_EQ(both.quota.used, 1);
  both = c->take_rate_and_quota("key:7", 60, 1, 7, "2026-11", 1);
  EXPECT_FALSE(both.rate.allowed);
  EXPECT_FALSE(both.quota.allowed);
  EXPECT_EQ(c->quota_used(7, "2026-11"), 1);
  both = c->take_rate_and_quota("key:7", 120, 1, 7, "2026-11", 1);  // next window
  EXPECT_TRUE(both.rate.allowed);
  EXPECT_FALSE(both.quota.allowed);
  EXPECT_EQ(both.quota.used, 1);
}

TEST_F(RedisTest, SharedAccountsCountAcrossInstancesAndSeeNewKeys) {
  ManualClock clock(kNow);
  auto one = open_accounts(clock);
  auto two = open_accounts(clock);
  one->start();
  two->start();
  auto cli = open_store();
  const std::string key =
      issue_key(*cli, test_plans(), "tiny", "fleet", KeyKind::Live, clock.now_s()).key;
  // Seen by both instances through the generation poll (50 ms here).
  for (int i = 0; i < 100 && two->authenticate("Bearer " + key, "1.2.3.4").status != AuthStatus::Ok;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const AuthResult a1 = one->authenticate("Bearer " + key, "1.2.3.4");
  const AuthResult a2 = two->authenticate("Bearer " + key, "1.2.3.4");
  ASSERT_EQ(a1.status, AuthStatus::Ok);
  ASSERT_EQ(a2.status, AuthStatus::Ok);

  // tiny: 3 per minute, 2 per month, fleet-wide.
  std::optional<QuotaReservation> q1, q2, q3;
  EXPECT_TRUE(take_rate_unit_for_execution(*one, a1.caller, q1).allowed);
  EXPECT_TRUE(take_rate_unit_for_execution(*two, a2.caller, q2).allowed);
  ASSERT_TRUE(q1 && q2);
  EXPECT_TRUE(q1->allowed);
  EXPECT_TRUE(q2->allowed);
  EXPECT_EQ(q2->remaining, 0);
  const RateDecision third = take_rate_unit_for_execution(*one, a1.caller, q3);
  EXPECT_TRUE(third.allowed);
  EXPECT_EQ(third.remaining, 0);
  ASSERT_TRUE(q3);
  EXPECT_FALSE(q3->allowed);  // quota used up across the two instances
  EXPECT_EQ(q3->period, "2026-11");
  EXPECT_EQ(q3->resets_at, "2026-12-01T00:00:00Z");
  EXPECT_FALSE(take_rate_unit(*two, a2.caller).allowed);  // the 4th unit of the window
  EXPECT_EQ(two->peek_rate(a2.caller).remaining, 0);
  EXPECT_EQ(one->quota_status(a1.caller).used, 2);
  release(*two, a2.caller, *q2, 1);
  EXPECT_EQ(one->quota_status(a1.caller).used, 1);

  // The next minute is a new window; the new month a new quota.
  clock.advance_ms(90'000);
  std::optional<QuotaReservation> q4;
  EXPECT_TRUE(take_rate_unit_for_execution(*one, a1.caller, q4).allowed);
  ASSERT_TRUE(q4);
  EXPECT_TRUE(q4->allowed);
  EXPECT_EQ(q4->period, "2026-12");
  EXPECT_EQ(q4->remaining, 1);

  // Revoked through the CLI: refused by both instances within the refresh interval.
  ASSERT_EQ(cli->revoke_key(key.substr(0, 12), clock.now_s()), store::RevokeOutcome::Revoked);
  for (int i = 0; i < 100 && one->authenticate("Bearer " + key, "1.2.3.4").status == AuthStatus::Ok;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(one->authenticate("Bearer " + key, "1.2.3.4").status, AuthStatus::Invalid);
}

// With a usage ledger: an execution served from the leases is counted in the instance's
// ledger before it is acknowledged, reported with the month's count as it stands (the
// store's and what is not shipped yet), and shipped to Redis once; a unit given back leaves
// the ledger and goes back to the lease; what a killed instance left in its ledger is
// shipped when it starts again, once.
TEST_F(RedisTest, LeasedExecutionsAreCountedInTheLedgerAndShippedOnce) {
  ManualClock clock(kNow);
  TempDir data;
  auto cli = open_store();
  const std::string key =
      issue_key(*cli, test_plans(), "wide", "fleet", KeyKind::Live, clock.now_s()).key;
  auto quota_in_redis = [&] { return open_counters()->quota_used(1, "2026-11"); };
  {
    const auto instance = open_accounts_with_ledger(clock, data.path());
    SharedAccounts& acc = *instance;
    const Caller caller = acc.authenticate("Bearer " + key, "::1").caller;
    ASSERT_EQ(caller.key_id, 1);
    boost::asio::io_context loop;
    const EventLoopScope scope(loop);
    std::optional<RateStep> first;
    WaitingRequest request([&first](RateStep&& s, std::exception_ptr e) {
      EXPECT_FALSE(e);
      first = std::move(s);
    });
    {
      CountedUnits counted;
      EXPECT_FALSE(acc.rate_step(caller, true, counted, &request));  // no lease yet
      EXPECT_TRUE(counted.empty());
    }
    ASSERT_EQ(request.suspensions, 1);  // its step went to Redis
    loop.run();
    ASSERT_TRUE(first && first->early && first->early->allowed);
    EXPECT_FALSE(first->early->from_lease);  // counted in Redis by its step
    EXPECT_EQ(first->early->remaining, 4999);
    EXPECT_EQ(quota_in_redis(), 1);

    std::optional<QuotaReservation> last;
    for (int i = 1; i <= 10; ++i) {
      CountedUnits counted;
      {
        std::optional<RateStep> step = acc.rate_step(caller, true, counted, &request);
        ASSERT_TRUE(step && step->early) << i;
        EXPECT_TRUE(step->rate.allowed);
        EXPECT_TRUE(step->early->from_lease);
        EXPECT_EQ(step->early->remaining, 4999 - i);  // every unit so far, shipped or not
        last = step->early;
      }
      EXPECT_EQ(counted.total(), 1);
      EXPECT_EQ(acc.await_durable(counted, nullptr), Durability::Durable);  // written here
    }
    EXPECT_EQ(request.suspensions, 1);             // none of the ten went to Redis
    EXPECT_EQ(quota_in_redis(), 1);                // not shipped yet
    EXPECT_EQ(acc.quota_status(caller).used, 11);  // but counted
    acc.ship_ledger();
    EXPECT_EQ(quota_in_redis(), 11);
    acc.ship_ledger();
    EXPECT_EQ(quota_in_redis(), 11);  // nothing moved: nothing sent
    EXPECT_EQ(acc.quota_status(caller).used, 11);

    // The last request failed after its unit: out of the ledger, back to the lease.
    {
      CountedUnits counted;
      acc.release_quota(caller, *last, 1, counted);
      EXPECT_EQ(counted.total(), -1);
    }
    EXPECT_EQ(acc.quota_status(caller).used, 10);
    acc.stop();  // writes the given-back unit and ships it
    EXPECT_EQ(quota_in_redis(), 10);
  }
  // Units counted in the ledger by an instance killed before it shipped them: the next
  // start ships them, and a start after that adds nothing.
  store::open_usage_ledger(data.path())->add_counts({{1, "2026-11", 5}});
  for (int start = 0; start < 2; ++start) {
    const auto again = open_accounts_with_ledger(clock, data.path());
    EXPECT_EQ(quota_in_redis(), 15) << start;
  }
}

// A step's reply carries the store's month count of its key: the base to which leased
// executions add. A shipment of another key's count, begun while the step was on its way,
// does not make that count doubtful (each key's count is its own), so the next leased
// execution still reports every unit of the month.
TEST_F(RedisTest, AnotherKeysShipmentDoesNotHideAStepsCount) {
  ManualClock clock(kNow);
  TempDir data;
  auto cli = open_store();
  const std::string shipped_key =
      issue_key(*cli, test_plans(), "wide", "a", KeyKind::Live, clock.now_s()).key;
  const std::string stepped_key =
      issue_key(*cli, test_plans(), "wide", "b", KeyKind::Live, clock.now_s()).key;
  const auto instance = open_accounts_with_ledger(clock, data.path());
  SharedAccounts& acc = *instance;
  const Caller a = acc.authenticate("Bearer " + shipped_key, "::1").caller;
  const Caller b = acc.authenticate("Bearer " + stepped_key, "::1").caller;
  boost::asio::io_context loop;
  const EventLoopScope scope(loop);
  // A step that goes to Redis (no lease serves it).
  auto step = [&](const Caller& caller, auto between) {
    std::optional<RateStep> result;
    WaitingRequest request([&result](RateStep&& s, std::exception_ptr e) {
      EXPECT_FALSE(e);
      result = std::move(s);
    });
    CountedUnits counted;
    EXPECT_FALSE(acc.rate_step(caller, true, counted, &request));
    EXPECT_EQ(request.suspensions, 1);
    between();
    loop.restart();
    loop.run();
    return result;
  };
  // A step served from the thread's leases (none other is expected).
  auto leased = [&](const Caller& caller) {
    CountedUnits counted;
    WaitingRequest request([](RateStep&&, std::exception_ptr) {});
    std::optional<RateStep> s = acc.rate_step(caller, true, counted, &request);
    EXPECT_EQ(request.suspensions, 0);
    EXPECT_EQ(acc.await_durable(counted, nullptr), Durability::Durable);
    return s;
  };
  // Key a: a lease, and a leased execution counted in the ledger, waiting to be shipped.
  ASSERT_TRUE(step(a, [] {}));
  ASSERT_TRUE(leased(a));
  // Key b's first step is on its way while key a's count is shipped.
  const std::optional<RateStep> first = step(b, [&] { acc.ship_ledger(); });
  ASSERT_TRUE(first && first->early);
  EXPECT_EQ(first->early->remaining, 4999);
  const std::optional<RateStep> second = leased(b);
  ASSERT_TRUE(second && second->early && second->early->from_lease);
  EXPECT_EQ(second->early->remaining, 4998);  // the step's unit and this one
}

TEST_F(RedisTest, UnreachableRedisFailsClosedAndRecovers) {
  // A server of its own, so that stopping it leaves the others alone.
  RedisProcess own;
  ASSERT_TRUE(own.start()) << own.why();
  store::RedisOptions o = own.options(0);
  ManualClock clock(kNow);
  SharedAccounts acc(clock, {.keys_store = store::open_redis_store(o),
                             .counters = store::open_redis_counters(o),
                             .plans = test_plans(),
                             .key_refresh_interval = std::chrono::milliseconds(50)});
  auto cli = store::open_redis_store(o);
  const std::string key =
      issue_key(*cli, test_plans(), "wide", "", KeyKind::Live, clock.now_s()).key;
  acc.refresh_keys(true);
  const Caller caller = acc.authenticate("Bearer " + key, "::1").caller;
  ASSERT_FALSE(caller.anonymous);
  EXPECT_TRUE(reserve(acc, caller, 1).allowed);

  own.stop();
  EXPECT_THROW(take_rate_unit(acc, caller), StoreUnavailable);
  EXPECT_THROW(reserve(acc, caller, 1), StoreUnavailable);
  EXPECT_THROW(acc.quota_status(caller), StoreUnavailable);
  std::optional<QuotaReservation> early;
  EXPECT_THROW(take_rate_unit_for_execution(acc, caller, early), StoreUnavailable);
  EXPECT_FALSE(early);
  // Never throws: health and preflight still answer, promising no unit.
  EXPECT_EQ(acc.peek_rate(caller).remaining, 0);
  // Keys stay known from the cache; authentication needs no store.
  EXPECT_EQ(acc.authenticate("Bearer " + key, "::1").status, AuthStatus::Ok);

  ASSERT_TRUE(own.restart()) << own.why();  // same port, same AOF
  QuotaReservation r;
  for (int i = 0; i < 100; ++i) {  // the client waits out its short back-off
    try {
      r = reserve(acc, caller, 1);
      break;
    } catch (const StoreUnavailable&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(acc.quota_status(caller).used, 2);  // the count before the restart survived
}
