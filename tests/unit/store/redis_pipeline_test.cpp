// The pipelined Redis path: the RESP codec, and the asynchronous
// rate step of SharedCounters / SharedAccounts on an Asio event loop against a real
// redis-server — exact limits with hundreds of steps in flight at once, NOSCRIPT after a
// SCRIPT FLUSH, an unreachable server and one that never answers.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "accounts/shared_accounts.hpp"
#include "core/event_loop.hpp"
#include "store/account_store.hpp"
#include "store/counter_steps.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_store.hpp"
#include "store/resp.hpp"
#include "support/counting_calls.hpp"
#include "support/redis_process.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::RedisProcess;
using accounts::testing::take_rate_unit;
using accounts::testing::WaitingRequest;
namespace net = boost::asio;
using namespace toolcalc::testing_steps;

namespace {

// ---------------------------------------------------------------- RESP codec

TEST(Resp, EncodesCommandsAsArraysOfBulkStrings) {
  std::string out;
  store::resp::append_command(out, {"EVALSHA", "ab", "1", "tc:rate:{k}:60", ""});
  EXPECT_EQ(out,
            "*5\r\n$7\r\nEVALSHA\r\n$2\r\nab\r\n$1\r\n1\r\n$14\r\ntc:rate:{k}:60\r\n$0\r\n\r\n");
}

TEST(Resp, ParsesEveryReplyType) {
  using store::resp::ParseStatus;
  store::RedisValue v;
  auto r = store::resp::parse_reply("+OK\r\n", v);
  EXPECT_EQ(r.status, ParseStatus::Value);
  EXPECT_EQ(r.used, 5u);
  EXPECT_EQ(v.type, store::RedisValue::Type::Status);
  EXPECT_EQ(v.str, "OK");

  r = store::resp::parse_reply(":-42\r\n", v);
  EXPECT_EQ(v.type, store::RedisValue::Type::Integer);
  EXPECT_EQ(v.integer, -42);

  r = store::resp::parse_reply("$5\r\na\r\nbc\r\n", v);  // CRLF inside a bulk string
  EXPECT_EQ(r.used, 11u);
  EXPECT_EQ(v.str, "a\r\nbc");

  r = store::resp::parse_reply("$-1\r\n", v);
  EXPECT_TRUE(v.is_nil());

  r = store::resp::parse_reply("-NOSCRIPT No matching script\r\n", v);
  EXPECT_EQ(r.status, ParseStatus::ErrorReply);
  EXPECT_EQ(v.str, "NOSCRIPT No matching script");

  // The reply of the rate-and-quota script: {1, used, 0, q}.
  r = store::resp::parse_reply("*4\r\n:1\r\n:7\r\n:0\r\n:5000\r\n+next", v);
  EXPECT_EQ(r.status, ParseStatus::Value);
  EXPECT_EQ(r.used, 23u);  // stops before the next reply
  ASSERT_EQ(v.elements.size(), 4u);
  EXPECT_EQ(v.elements[1].integer, 7);
  EXPECT_EQ(v.elements[3].integer, 5000);
}

TEST(Resp, AReplyCutAnywhereIsIncompleteUntilItsLastByte) {
  const std::string reply = "*2\r\n$3\r\nabc\r\n*1\r\n:12\r\n";
  store::RedisValue v;
  for (size_t n = 0; n < reply.size(); ++n)
    EXPECT_EQ(store::resp::parse_reply(reply.substr(0, n), v).status,
              store::resp::ParseStatus::Incomplete)
        << n;
  const auto r = store::resp::parse_reply(reply, v);
  EXPECT_EQ(r.used, reply.size());
  EXPECT_EQ(v.elements[0].str, "abc");
  EXPECT_EQ(v.elements[1].elements[0].integer, 12);
}

TEST(Resp, BytesThatAreNotRespAreAnError) {
  store::RedisValue v;
  EXPECT_THROW(store::resp::parse_reply("HTTP/1.1 200 OK\r\n", v), store::StoreError);
  EXPECT_THROW(store::resp::parse_reply(":12x\r\n", v), store::StoreError);
  EXPECT_THROW(store::resp::parse_reply("$3\r\nabcd\r\n", v), store::StoreError);
  EXPECT_THROW(store::resp::parse_reply("+OK\rX", v), store::StoreError);
  // Integers as Redis writes them, as hiredis's reader requires them.
  EXPECT_THROW(store::resp::parse_reply(":007\r\n", v), store::StoreError);
  EXPECT_THROW(store::resp::parse_reply(":-0\r\n", v), store::StoreError);
  EXPECT_THROW(store::resp::parse_reply("*2147483648\r\n", v), store::StoreError);
  // A wrong type byte fails at once, without waiting for a CRLF that may never come.
  EXPECT_THROW(store::resp::parse_reply("H", v), store::StoreError);
  // Arrays nest 8 deep at most (hiredis's limit too).
  std::string nested;
  for (int i = 0; i < 8; ++i) nested += "*1\r\n";
  EXPECT_EQ(store::resp::parse_reply(nested + ":1\r\n", v).status, store::resp::ParseStatus::Value);
  EXPECT_THROW(store::resp::parse_reply(nested + "*", v), store::StoreError);
}

// ---------------------------------------------------------------- against redis-server

// The anonymous subject "s" takes a unit of its window (limit 5, no quota); false when
// the blocking calls must take it.
bool start_step(store::SharedCounters& counters, Outcome& o) {
  return counters.start_rate_step("s", 60, 5, 0, "2026-11", std::nullopt, true, record(o));
}

TEST_F(RedisPipelineTest, WithoutAnEventLoopTheBlockingCallsAreUsed) {
  auto counters = store::open_redis_counters(options_);
  EXPECT_FALSE(counters->steps_asynchronously());
  Outcome o;
  EXPECT_FALSE(start_step(*counters, o));
  EXPECT_FALSE(o.called);
}

TEST_F(RedisPipelineTest, StepsInFlightTogetherAllowExactlyTheLimits) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  ASSERT_TRUE(counters->steps_asynchronously());
  // 300 steps started before any reply is read: they travel pipelined on one connection.
  constexpr int kSteps = 300, kRateLimit = 250, kQuotaLimit = 120;
  std::vector<Outcome> outcomes(kSteps);
  for (int i = 0; i < kSteps; ++i)
    ASSERT_TRUE(counters->start_rate_step("key:4", 1'800'000'020, kRateLimit, 4, "2026-11",
                                          kQuotaLimit, true, record(outcomes[i])));
  EXPECT_FALSE(outcomes[0].called);  // never completed inside start_rate_step
  loop_.run();
  int rate_allowed = 0, quota_allowed = 0;
  for (int i = 0; i < kSteps; ++i) {
    const Outcome& o = outcomes[i];
    ASSERT_TRUE(o.called) << i;
    ASSERT_FALSE(o.error) << i;
    // Replies come back in the order the steps were sent: the counts run 1, 2, 3, …
    if (i < kRateLimit) {
      EXPECT_TRUE(o.step.rate.allowed);
      EXPECT_EQ(o.step.rate.used, i + 1);
      EXPECT_EQ(o.step.quota.allowed, i < kQuotaLimit) << i;
      EXPECT_EQ(o.step.quota.used, std::min(i + 1, kQuotaLimit)) << i;
    } else {
      EXPECT_FALSE(o.step.rate.allowed);
      EXPECT_FALSE(o.step.quota.allowed);  // no quota step when the rate unit is refused
    }
    rate_allowed += o.step.rate.allowed;
    quota_allowed += o.step.quota.allowed;
  }
  EXPECT_EQ(rate_allowed, kRateLimit);
  EXPECT_EQ(quota_allowed, kQuotaLimit);
  EXPECT_EQ(counters->rate_used("key:4", 1'800'000'020), kRateLimit);
  EXPECT_EQ(counters->quota_used(4, "2026-11"), kQuotaLimit);
}

// Steps started in one turn of the loop go to Redis as one script call: steps of
// different subjects, with and without a quota, interleaved, each counted as if alone.
TEST_F(RedisPipelineTest, StepsOfOneTurnAreCountedEachAsIfAlone) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  constexpr int kRounds = 6, kRateLimit = 4, kQuotaLimit = 3;
  std::vector<Outcome> keyed(kRounds), anonymous(kRounds), other(kRounds);
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_TRUE(counters->start_rate_step("key:7", 1'800'000'040, kRateLimit, 7, "2026-11",
                                          kQuotaLimit, true, record(keyed[i])));
    ASSERT_TRUE(counters->start_rate_step("ip:10.0.0.9", 1'800'000'040, kRateLimit, 0, {},
                                          std::nullopt, true, record(anonymous[i])));
    ASSERT_TRUE(counters->start_rate_step("key:8", 1'800'000'040, 100, 8, "2026-11", 1, true,
                                          record(other[i])));
  }
  loop_.run();
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_TRUE(keyed[i].called && anonymous[i].called && other[i].called) << i;
    ASSERT_FALSE(keyed[i].error || anonymous[i].error || other[i].error) << i;
    EXPECT_EQ(keyed[i].step.rate.allowed, i < kRateLimit) << i;
    EXPECT_EQ(keyed[i].step.rate.used, std::min(i + 1, kRateLimit)) << i;
    EXPECT_EQ(keyed[i].step.quota.allowed, i < kQuotaLimit) << i;
    if (i < kRateLimit) {
      EXPECT_EQ(keyed[i].step.quota.used, std::min(i + 1, kQuotaLimit)) << i;
    }
    EXPECT_EQ(anonymous[i].step.rate.allowed, i < kRateLimit) << i;
    EXPECT_EQ(anonymous[i].step.rate.used, std::min(i + 1, kRateLimit)) << i;
    EXPECT_FALSE(anonymous[i].step.quota.allowed);  // no quota asked
    EXPECT_TRUE(other[i].step.rate.allowed);
    EXPECT_EQ(other[i].step.rate.used, i + 1);
    EXPECT_EQ(other[i].step.quota.allowed, i == 0) << i;
  }
  EXPECT_EQ(counters->rate_used("key:7", 1'800'000'040), kRateLimit);
  EXPECT_EQ(counters->quota_used(7, "2026-11"), kQuotaLimit);
  EXPECT_EQ(counters->rate_used("ip:10.0.0.9", 1'800'000'040), kRateLimit);
  EXPECT_EQ(counters->quota_used(8, "2026-11"), 1);

  // The windows the batch created expire (EXPIRE with the window's first unit); the
  // quota counters, the month's usage record, do not.
  store::RedisClient redis(options_);
  for (const char* subject : {"key:7", "ip:10.0.0.9", "key:8"}) {
    const int64_t ttl =
        redis.command({"TTL", store::redis_keys::rate(subject, 1'800'000'040)}).as_integer();
    EXPECT_GT(ttl, 0) << subject;
    EXPECT_LE(ttl, 120) << subject;
  }
  EXPECT_EQ(redis.command({"TTL", store::redis_keys::quota(7, "2026-11")}).as_integer(), -1);

  // A window that already exists keeps counting from where it is, in a later batch.
  loop_.restart();
  Outcome more, fresh;
  ASSERT_TRUE(
      counters->start_rate_step("key:8", 1'800'000'040, 100, 8, "2026-11", 1, true, record(more)));
  ASSERT_TRUE(
      counters->start_rate_step("key:9", 1'800'000'040, 100, 9, "2026-11", 5, true, record(fresh)));
  loop_.run();
  ASSERT_TRUE(more.called && fresh.called);
  EXPECT_EQ(more.step.rate.used, kRounds + 1);
  EXPECT_FALSE(more.step.quota.allowed);
  EXPECT_EQ(more.step.quota.used, 1);
  EXPECT_EQ(fresh.step.rate.used, 1);
  EXPECT_EQ(fresh.step.quota.used, 1);
}

// A step that does not execute reads the month for the RateLimit header: its count, no unit
// taken; a refused rate unit reads it too.
TEST_F(RedisPipelineTest, ReadingStepsReportTheQuotaWithoutTakingIt) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  Outcome taken, read, refused;
  ASSERT_TRUE(
      counters->start_rate_step("key:3", 1'800'000'040, 2, 3, "2026-11", 10, true, record(taken)));
  ASSERT_TRUE(
      counters->start_rate_step("key:3", 1'800'000'040, 2, 3, "2026-11", 10, false, record(read)));
  ASSERT_TRUE(counters->start_rate_step("key:3", 1'800'000'040, 2, 3, "2026-11", 10, true,
                                        record(refused)));
  loop_.run();
  ASSERT_TRUE(taken.called && read.called && refused.called);
  EXPECT_TRUE(taken.step.quota.allowed);
  EXPECT_EQ(taken.step.quota.used, 1);
  EXPECT_TRUE(read.step.rate.allowed);
  EXPECT_FALSE(read.step.quota.allowed);
  EXPECT_EQ(read.step.quota.used, 1);
  EXPECT_FALSE(refused.step.rate.allowed);  // the window of 2 is full
  EXPECT_FALSE(refused.step.quota.allowed);
  EXPECT_EQ(refused.step.quota.used, 1);
  EXPECT_EQ(counters->quota_used(3, "2026-11"), 1);
  // The blocking call does the same.
  const auto blocking =
      counters->take_rate_and_quota("key:4", 1'800'000'040, 5, 3, "2026-11", 10, false);
  EXPECT_TRUE(blocking.rate.allowed);
  EXPECT_FALSE(blocking.quota.allowed);
  EXPECT_EQ(blocking.quota.used, 1);
}

// Identical steps in a row travel as one step of several units (redis_counters.cpp,
// RateSteps::add), decided as that many steps in a row: a run cut by a read, and a run in
// which the quota and then the window fill up, reply exactly as steps one at a time.
TEST_F(RedisPipelineTest, IdenticalStepsInARowAreDecidedAsOneAtATime) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  constexpr int kRateLimit = 5, kQuotaLimit = 3;
  const bool reserve[] = {true, true, false, true, true, true, true};
  std::vector<Outcome> o(std::size(reserve));
  for (size_t i = 0; i < o.size(); ++i)
    ASSERT_TRUE(counters->start_rate_step("key:5", 1'800'000'060, kRateLimit, 5, "2026-11",
                                          kQuotaLimit, reserve[i], record(o[i])));
  loop_.run();
  expect_steps(o, {
                      {true, 1, true, 1},
                      {true, 2, true, 2},
                      {true, 3, false, 2},  // reads the month
                      {true, 4, true, 3},
                      {true, 5, false, 3},  // the quota is full
                      {false, 5, false, 3},
                      {false, 5, false, 3},  // and now the window
                  });
  EXPECT_EQ(counters->rate_used("key:5", 1'800'000'060), kRateLimit);
  EXPECT_EQ(counters->quota_used(5, "2026-11"), kQuotaLimit);
}

// Merged steps on counters that already hold units (another instance's), a window that
// fills while its month still has room, a limit lowered below the window's count, and
// steps without a quota: each unit replies as it would alone.
TEST_F(RedisPipelineTest, MergedStepsContinueFromCountsAlreadyThere) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  constexpr int64_t kWindow = 1'800'000'120;
  store::RedisClient redis(options_);
  redis.command({"SET", store::redis_keys::rate("key:6", kWindow), "3"});
  redis.command({"SET", store::redis_keys::quota(6, "2026-11"), "8"});
  redis.command({"SET", store::redis_keys::rate("key:7", kWindow), "6"});

  std::vector<Outcome> held(4), lowered(3), no_quota(3);
  for (auto& o : held)  // window 3 of 5, month 8 of 20
    ASSERT_TRUE(counters->start_rate_step("key:6", kWindow, 5, 6, "2026-11", 20, true, record(o)));
  for (auto& o : lowered)  // window 6, its limit now 4
    ASSERT_TRUE(counters->start_rate_step("key:7", kWindow, 4, 7, "2026-11", std::nullopt, true,
                                          record(o)));
  for (auto& o : no_quota)  // an empty window of 2
    ASSERT_TRUE(counters->start_rate_step("key:8", kWindow, 2, 8, "2026-11", std::nullopt, true,
                                          record(o)));
  loop_.run();

  expect_steps(held, {
                         {true, 4, true, 9},
                         {true, 5, true, 10},
                         {false, 5, false, 10},  // the window is full: no unit of the month taken
                         {false, 5, false, 10},
                     });
  // A refused rate unit leaves the month untouched, and a step without a quota has none.
  expect_steps(lowered, {{false, 6, false, 0}, {false, 6, false, 0}, {false, 6, false, 0}});
  expect_steps(no_quota, {{true, 1, false, 0}, {true, 2, false, 0}, {false, 2, false, 0}});
  EXPECT_EQ(counters->rate_used("key:6", kWindow), 5);
  EXPECT_EQ(counters->quota_used(6, "2026-11"), 10);
  EXPECT_EQ(counters->rate_used("key:7", kWindow), 6);  // a refused step writes nothing
  EXPECT_EQ(counters->rate_used("key:8", kWindow), 2);
  EXPECT_EQ(redis.command({"TTL", store::redis_keys::rate("key:7", kWindow)}).as_integer(), -1);
  EXPECT_GT(redis.command({"TTL", store::redis_keys::rate("key:8", kWindow)}).as_integer(), 0);
}

TEST_F(RedisPipelineTest, AFlushedScriptIsLoadedAgain) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  Outcome first, second;
  ASSERT_TRUE(start_step(*counters, first));
  loop_.run();
  loop_.restart();
  store::RedisClient(options_).command({"SCRIPT", "FLUSH"});
  ASSERT_TRUE(start_step(*counters, second));
  loop_.run();
  ASSERT_TRUE(second.called);
  ASSERT_FALSE(second.error);
  EXPECT_TRUE(second.step.rate.allowed);
  EXPECT_EQ(second.step.rate.used, 2);  // counted once, not once per attempt

  // The same for the script that takes the steps of one turn together.
  loop_.restart();
  store::RedisClient(options_).command({"SCRIPT", "FLUSH"});
  Outcome third, fourth;
  ASSERT_TRUE(start_step(*counters, third));
  ASSERT_TRUE(start_step(*counters, fourth));
  loop_.run();
  ASSERT_TRUE(third.called && fourth.called);
  ASSERT_FALSE(third.error || fourth.error);
  EXPECT_EQ(third.step.rate.used, 3);
  EXPECT_EQ(fourth.step.rate.used, 4);
}

// After a Redis restart the scripts are gone and this thread's blocking connection is
// dead: NOSCRIPT must be answered on the pipeline's own live connection (EVAL), not on
// the blocking one, or every request of the turn fails with 503.
TEST_F(RedisPipelineTest, NoScriptIsAnsweredOnThePipelineNotTheBlockingConnection) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  EXPECT_EQ(counters->rate_used("s", 60), 0);  // opens this thread's blocking connection
  store::RedisClient admin(options_);
  admin.command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"});  // and closes it
  admin.command({"SCRIPT", "FLUSH"});
  Outcome lone, first, second;
  ASSERT_TRUE(start_step(*counters, lone));
  loop_.run();
  loop_.restart();
  ASSERT_TRUE(start_step(*counters, first));
  ASSERT_TRUE(start_step(*counters, second));
  loop_.run();
  ASSERT_TRUE(lone.called && first.called && second.called);
  ASSERT_FALSE(lone.error);
  ASSERT_FALSE(first.error);
  ASSERT_FALSE(second.error);
  EXPECT_EQ(lone.step.rate.used, 1);
  EXPECT_EQ(first.step.rate.used, 2);
  EXPECT_EQ(second.step.rate.used, 3);
  EXPECT_EQ(counters->rate_used("s", 60), 3);  // each counted once
}

// Redis restarted while the pipeline's connection sat idle: the next turn's steps go out
// on a new connection instead of failing with EOF on the old one (in the fleet test a
// worker thread idle during a Redis restart answered 503s this way).
TEST_F(RedisPipelineTest, AConnectionClosedWhileIdleIsReplacedBeforeSending) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  Outcome before, after;
  ASSERT_TRUE(start_step(*counters, before));
  loop_.run();
  ASSERT_TRUE(before.called);
  ASSERT_FALSE(before.error);
  ASSERT_TRUE(server_.restart()) << server_.why();
  loop_.restart();
  ASSERT_TRUE(start_step(*counters, after));
  loop_.run();
  ASSERT_TRUE(after.called);
  ASSERT_FALSE(after.error);
  EXPECT_TRUE(after.step.rate.allowed);
  EXPECT_TRUE(counters->steps_asynchronously());  // no failure was reported
}

TEST_F(RedisPipelineTest, AnUnreachableServerFailsTheStepAndRecovers) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  server_.stop();
  Outcome o;
  ASSERT_TRUE(start_step(*counters, o));
  loop_.run();
  ASSERT_TRUE(o.called);
  ASSERT_TRUE(o.error);
  EXPECT_THROW(std::rethrow_exception(o.error), StoreUnavailable);
  // Failing fast now: the server's requests take the blocking path, which answers 503 at once.
  EXPECT_FALSE(counters->steps_asynchronously());

  ASSERT_TRUE(server_.restart()) << server_.why();
  bool async_again = false;
  for (int i = 0; i < 100 && !async_again; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    async_again = counters->steps_asynchronously();
  }
  ASSERT_TRUE(async_again);
  Outcome after;
  loop_.restart();
  ASSERT_TRUE(start_step(*counters, after));
  loop_.run();
  ASSERT_TRUE(after.called);
  EXPECT_FALSE(after.error);
  EXPECT_EQ(after.step.rate.used, 1);
}

TEST_F(RedisPipelineTest, AServerThatNeverAnswersTimesOut) {
  // A listener that accepts and reads nothing: the command is sent, no reply comes.
  net::ip::tcp::acceptor silent(loop_, {net::ip::make_address("127.0.0.1"), 0});
  net::ip::tcp::socket accepted(loop_);
  silent.async_accept(accepted, [](const boost::system::error_code&) {});
  store::RedisOptions o = options_;
  o.port = silent.local_endpoint().port();
  o.command_timeout_ms = 200;
  auto counters = store::open_redis_counters(o);
  const EventLoopScope scope(loop_);
  Outcome out;
  const auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(start_step(*counters, out));
  loop_.run();
  const auto waited = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(out.called);
  ASSERT_TRUE(out.error);
  EXPECT_THROW(std::rethrow_exception(out.error), StoreUnavailable);
  EXPECT_GE(waited, std::chrono::milliseconds(200));
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST_F(RedisPipelineTest, AReleaseOnTheLoopIsSentWithoutWaiting) {
  auto counters = store::open_redis_counters(options_);
  EXPECT_TRUE(counters->reserve_quota(9, "2026-11", 10, 3).allowed);
  const EventLoopScope scope(loop_);
  counters->release_quota(9, "2026-11", 1);
  store::RedisClient(options_).command({"SCRIPT", "FLUSH"});  // the second goes via EVAL
  counters->release_quota(9, "2026-11", 1);
  EXPECT_EQ(counters->quota_used(9, "2026-11"), 3);  // queued, not sent yet
  loop_.run();
  EXPECT_EQ(counters->quota_used(9, "2026-11"), 1);
}

TEST_F(RedisPipelineTest, SharedAccountsStepsLikeTheBlockingCalls) {
  ManualClock clock(accounts::testing::utc_ms(2026, 11, 30, 23, 58, 30));
  std::vector<Plan> plans = builtin_plans();
  plans.push_back({"tiny", 3, 2});
  SharedAccounts acc(clock, {.keys_store = store::open_redis_store(options_),
                             .counters = store::open_redis_counters(options_),
                             .plans = plans,
                             .key_refresh_interval = std::chrono::milliseconds(50)});
  auto cli = store::open_redis_store(options_);
  const std::string key = issue_key(*cli, plans, "tiny", "", KeyKind::Live, clock.now_s()).key;
  const std::string other_key =
      issue_key(*cli, plans, "tiny", "", KeyKind::Live, clock.now_s()).key;
  acc.refresh_keys(true);
  const Caller caller = acc.authenticate("Bearer " + key, "::1").caller;
  ASSERT_FALSE(caller.anonymous);

  const EventLoopScope scope(loop_);
  std::vector<std::optional<RateStep>> steps(4);
  for (auto& slot : steps) {
    WaitingRequest request([&slot](RateStep&& s, std::exception_ptr e) {
      EXPECT_FALSE(e);
      slot = std::move(s);
    });
    CountedUnits counted;
    ASSERT_FALSE(acc.rate_step(caller, true, counted, &request));
    ASSERT_EQ(request.suspensions, 1);  // stepped asynchronously, on the pipeline
  }
  loop_.run();
  // Plan "tiny": 3 per minute, 2 per month.
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(steps[i]) << i;
  EXPECT_TRUE(steps[0]->rate.allowed);
  EXPECT_EQ(steps[0]->rate.limit, 3);
  EXPECT_EQ(steps[0]->rate.remaining, 2);
  EXPECT_EQ(steps[0]->rate.reset_epoch_s, clock.now_s() / 60 * 60 + 60);
  ASSERT_TRUE(steps[0]->early);
  EXPECT_TRUE(steps[0]->early->allowed);
  EXPECT_EQ(steps[0]->early->remaining, 1);
  EXPECT_EQ(steps[0]->early->period, "2026-11");
  EXPECT_EQ(steps[0]->early->resets_at, "2026-12-01T00:00:00Z");
  EXPECT_TRUE(steps[1]->early->allowed);
  EXPECT_TRUE(steps[2]->rate.allowed);
  EXPECT_FALSE(steps[2]->early->allowed);  // the month's 2 are used
  EXPECT_FALSE(steps[3]->rate.allowed);    // the minute's 3 are used
  EXPECT_GE(steps[3]->rate.retry_after_s, 1);
  EXPECT_FALSE(steps[3]->early);
  // The request moves when it is suspended (api/suspended_request.hpp), its caller with
  // it: the step is still counted on that caller's window. Plan "tiny" allows 3 a minute.
  const Caller other = acc.authenticate("Bearer " + other_key, "::1").caller;
  ASSERT_FALSE(other.anonymous);
  ASSERT_NE(other.subject, caller.subject);
  std::vector<std::optional<RateStep>> moved(3);
  loop_.restart();
  for (auto& slot : moved) {
    Caller held = other;
    WaitingRequest request([&slot](RateStep&& s, std::exception_ptr) { slot = std::move(s); });
    request.on_suspend = [&held] { held = Caller{}; };
    CountedUnits counted;
    ASSERT_FALSE(acc.rate_step(held, false, counted, &request));
  }
  loop_.run();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(moved[i]) << i;
    EXPECT_TRUE(moved[i]->rate.allowed) << i;
    EXPECT_EQ(moved[i]->rate.remaining, 2 - i) << i;
  }
  EXPECT_FALSE(take_rate_unit(acc, other).allowed);  // its window holds the three

  // A plain rate step (not an execution) reserves nothing.
  std::optional<RateStep> plain;
  WaitingRequest request([&plain](RateStep&& s, std::exception_ptr) { plain = s; });
  loop_.restart();
  CountedUnits counted;
  ASSERT_FALSE(
      acc.rate_step(acc.authenticate(std::nullopt, "10.0.0.1").caller, false, counted, &request));
  ASSERT_EQ(request.suspensions, 1);
  loop_.run();
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->rate.allowed);
  EXPECT_FALSE(plain->early);
}

}  // namespace
