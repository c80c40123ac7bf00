// Leases of rate and quota units (store/counter_leases.hpp, redis_counters.cpp) against a
// real redis-server: executions of large limits are served from a thread's lease and
// counted exactly; a key below 90 % of a limit is never refused while other instances hold
// leases, and no key is served beyond a limit; a new limit gives up the old lease.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/event_loop.hpp"
#include "store/counter_leases.hpp"
#include "store/counter_steps.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_store.hpp"

using namespace toolcalc;
using namespace toolcalc::testing_steps;

namespace {

constexpr int64_t kWindow = 1'800'000'180;
constexpr char kPeriod[] = "2026-11";
constexpr int64_t kKey = 9;

// ---------------------------------------------------------------- the book, alone

TEST(LeaseBook, ALeaseIsServedOnlyUnderTheLimitItWasGrantedUnder) {
  store::LeaseBook book;
  store::Lease& window = book.at("w", 1000, 60, false);
  window.left = 40;
  EXPECT_EQ(&book.at("w", 1000, 60, false), &window);
  EXPECT_EQ(window.left, 40);
  book.at("w", 2000, 60, false);  // a new limit: the units are given up for the window
  EXPECT_EQ(window.left, 0);
  EXPECT_EQ(window.limit, 2000);
  EXPECT_TRUE(window.no_refill);
  store::Lease& month = book.at("m", 1000, 24322, true);
  month.left = 40;
  book.at("m", 500, 24322, true);  // a month's lease may be asked again (counted apart)
  EXPECT_EQ(month.left, 0);
  EXPECT_FALSE(month.no_refill);
}

TEST(LeaseBook, WindowsAndMonthsAreDroppedWhenTheNextOneStarts) {
  store::LeaseBook book;
  book.at("w60", 1000, 60, false);
  book.at("m", 1000, 24322, true);
  book.at("other-w60", 1000, 60, false);
  EXPECT_EQ(book.size(), 3u);
  book.at("w120", 1000, 120, false);  // the next window: the windows before it go
  EXPECT_EQ(book.find("w60"), nullptr);
  EXPECT_EQ(book.find("other-w60"), nullptr);
  EXPECT_NE(book.find("m"), nullptr);  // the month goes on
  book.at("m-next", 1000, 24323, true);
  EXPECT_EQ(book.find("m"), nullptr);
  EXPECT_EQ(book.size(), 2u);
}

// ---------------------------------------------------------------- against redis-server

class CounterLeasesTest : public RedisPipelineTest {
 protected:
  void SetUp() override {
    RedisPipelineTest::SetUp();
    if (!IsSkipped()) redis_ = std::make_unique<store::RedisClient>(options_);
  }

  // Executions of key 9, `n` started in one turn of the loop, run until all replied.
  std::vector<Outcome> turn(store::SharedCounters& counters, int n, int64_t rate_limit,
                            int64_t quota_limit) {
    std::vector<Outcome> o(n);
    for (Outcome& x : o)
      EXPECT_TRUE(counters.start_rate_step("key:9", kWindow, rate_limit, kKey, kPeriod, quota_limit,
                                           true, record(x)));
    loop_.restart();
    loop_.run();
    for (const Outcome& x : o) EXPECT_TRUE(x.called && !x.error);
    return o;
  }

  int64_t redis_count(const std::string& key) {
    const store::RedisValue v = redis_->command({"GET", key});
    return v.is_nil() ? 0 : v.as_integer();
  }

  static int64_t allowed(const std::vector<Outcome>& o) {
    int64_t n = 0;
    for (const Outcome& x : o) n += x.step.rate.allowed && x.step.quota.allowed;
    return n;
  }

  const std::string window_ = store::redis_keys::rate("key:9", kWindow);
  const std::string quota_ = store::redis_keys::quota(kKey, kPeriod);
  const std::string granted_ = store::redis_keys::quota_granted(quota_);
  std::unique_ptr<store::RedisClient> redis_;
};

// The first execution asks for leases: half of a tenth of each limit (50 of 1,000). The
// next ones are served from them: the window and the month's granted units do not move,
// the month's count does, by one INCRBY per turn, and each reply reads its own count.
TEST_F(CounterLeasesTest, ExecutionsAreServedFromTheThreadsLeaseAndCountedExactly) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  expect_steps(turn(*counters, 1, 1000, 1000), {{true, 1, true, 1}});
  EXPECT_EQ(redis_count(window_), 1 + 50);
  EXPECT_EQ(redis_count(granted_), 1 + 50);
  EXPECT_EQ(redis_count(quota_), 1);
  const store::RedisValue holders =
      redis_->command({"HVALS", store::redis_keys::rate_leases(window_)});
  ASSERT_EQ(holders.elements.size(), 1u);
  EXPECT_EQ(holders.elements[0].as_integer(), 50);

  std::vector<Expected> expected;
  for (int64_t i = 2; i <= 11; ++i) expected.push_back({true, i, true, i});
  expect_steps(turn(*counters, 10, 1000, 1000), expected);
  EXPECT_EQ(redis_count(window_), 51);  // no script ran: served from the leases
  EXPECT_EQ(redis_count(granted_), 51);
  EXPECT_EQ(counters->quota_used(kKey, kPeriod), 11);

  // A unit given back (a 400 after the reservation) leaves the count and the granted units.
  counters->release_quota(kKey, kPeriod, 1);
  loop_.restart();
  loop_.run();
  EXPECT_EQ(redis_count(quota_), 10);
  EXPECT_EQ(redis_count(granted_), 50);
}

// Three instances; two of them take leases and go idle; the third serves the key until a
// limit refuses it: by then at least 90 % of the limit was served. Then every instance
// serves until refused: exactly the limit in all, never more.
struct Limits {
  const char* name;
  int64_t rate, quota;
};
class NinetyPercentTest : public CounterLeasesTest, public ::testing::WithParamInterface<Limits> {};

TEST_P(NinetyPercentTest, AKeyBelowNinetyPercentIsNeverRefusedWhileOthersHoldLeases) {
  const Limits l = GetParam();
  const int64_t limit = std::min(l.rate, l.quota);
  std::vector<std::unique_ptr<store::SharedCounters>> fleet;
  for (int i = 0; i < 3; ++i) fleet.push_back(store::open_redis_counters(options_));
  const EventLoopScope scope(loop_);
  int64_t served = allowed(turn(*fleet[0], 1, l.rate, l.quota));
  served += allowed(turn(*fleet[1], 1, l.rate, l.quota));
  ASSERT_EQ(served, 2);
  EXPECT_GT(redis_count(l.rate < l.quota ? window_ : granted_), 2);  // leases held

  bool refused = false;
  for (int turns = 0; !refused && turns < 200; ++turns) {
    const std::vector<Outcome> o = turn(*fleet[2], 25, l.rate, l.quota);
    served += allowed(o);
    for (const Outcome& x : o) {
      if (x.step.rate.allowed && x.step.quota.allowed) continue;
      refused = true;
      // The limit that refused it, with nothing left of it in the reply.
      EXPECT_EQ(x.step.rate.allowed, l.rate > l.quota) << l.name;
      EXPECT_EQ(l.rate < l.quota ? x.step.rate.used : x.step.quota.used, limit) << l.name;
    }
  }
  ASSERT_TRUE(refused);
  EXPECT_GE(served * 10, limit * 9) << l.name << ": refused at " << served << " of " << limit;
  EXPECT_LT(served, limit) << l.name << ": the idle instances hold no lease";

  // The idle instances' leases are still theirs to serve; then nobody has any left.
  for (auto& counters : fleet)
    for (int turns = 0; turns < 10; ++turns)
      served += allowed(turn(*counters, 25, l.rate, l.quota));
  EXPECT_EQ(served, limit) << l.name;
  EXPECT_EQ(redis_count(quota_), l.quota < l.rate ? limit : served);
  EXPECT_LE(redis_count(window_), l.rate);
}

INSTANTIATE_TEST_SUITE_P(Limits, NinetyPercentTest,
                         ::testing::Values(Limits{"window", 1000, 1'000'000},
                                           Limits{"month", 1'000'000, 1000}),
                         [](const auto& info) { return std::string(info.param.name); });

// A lease is served only under the limit it was granted under: a raised limit gives the
// lease up (its units stay recorded as this holder's, so the window is counted unit by
// unit from then on), and the window counts every execution in Redis.
TEST_F(CounterLeasesTest, ANewLimitGivesTheLeaseUp) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  expect_steps(turn(*counters, 1, 1000, 1'000'000), {{true, 1, true, 1}});
  EXPECT_EQ(redis_count(window_), 51);
  expect_steps(turn(*counters, 3, 2000, 1'000'000),
               {{true, 52, true, 2}, {true, 53, true, 3}, {true, 54, true, 4}});
  expect_steps(turn(*counters, 1, 2000, 1'000'000), {{true, 55, true, 5}});
  EXPECT_EQ(redis_count(window_), 55);
}

}  // namespace
