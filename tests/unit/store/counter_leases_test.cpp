// Leases of rate and quota units (store/counter_leases.hpp, redis_counters.cpp) against a
// real redis-server: executions of large limits are served from a thread's lease without
// Redis (take_leased) and shipped as counts, each unit once; a key below 90 % of a limit is
// never refused while other instances hold leases, and no key is served beyond a limit; a
// new limit gives up the old lease.
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

  std::unique_ptr<store::SharedCounters> leasing_counters() {
    auto counters = store::open_redis_counters(options_);
    counters->lease_units(true);
    return counters;
  }

  // Executions of key 9 on one instance's thread, as SharedAccounts makes them: each from
  // the thread's leases when they can serve it (counted in `leased`, the instance's own
  // count, as a ledger would), the others as steps started in one turn of the loop.
  std::vector<Outcome> serve(store::SharedCounters& counters, int n, int64_t rate_limit,
                             int64_t quota_limit, int64_t& leased) {
    std::vector<Outcome> o(n);
    for (Outcome& x : o) {
      if (auto step =
              counters.take_leased("key:9", kWindow, rate_limit, kKey, kPeriod, quota_limit)) {
        x.called = true;
        x.step = *step;
        ++leased;
        continue;
      }
      EXPECT_TRUE(counters.start_rate_step("key:9", kWindow, rate_limit, kKey, kPeriod, quota_limit,
                                           true, record(x)));
    }
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

// The first execution asks for leases: half of a tenth of each limit (50 of 1,000), and is
// counted in Redis by its step. The next ones are taken from the leases without Redis: the
// window, the month's granted units and its count do not move until the instance ships its
// count, which Redis adds once however often it is sent.
TEST_F(CounterLeasesTest, ExecutionsAreServedFromTheThreadsLeaseAndShippedOnce) {
  auto counters = leasing_counters();
  const EventLoopScope scope(loop_);
  int64_t leased = 0;
  expect_steps(serve(*counters, 1, 1000, 1000, leased), {{true, 1, true, 1}});
  EXPECT_EQ(leased, 0);
  EXPECT_EQ(redis_count(window_), 1 + 50);
  EXPECT_EQ(redis_count(granted_), 1 + 50);
  EXPECT_EQ(redis_count(quota_), 1);
  const store::RedisValue holders =
      redis_->command({"HVALS", store::redis_keys::rate_leases(window_)});
  ASSERT_EQ(holders.elements.size(), 1u);
  EXPECT_EQ(holders.elements[0].as_integer(), 50);

  const std::vector<Outcome> o = serve(*counters, 10, 1000, 1000, leased);
  EXPECT_EQ(leased, 10);
  for (size_t i = 0; i < o.size(); ++i) {
    EXPECT_TRUE(o[i].step.rate.allowed && o[i].step.quota.allowed);
    EXPECT_EQ(o[i].step.rate.used,
              static_cast<int64_t>(i) + 2);  // the window as the thread knows it
  }
  EXPECT_EQ(redis_count(window_), 51);  // no script ran: served from the leases
  EXPECT_EQ(redis_count(granted_), 51);
  EXPECT_EQ(redis_count(quota_), 1);  // not shipped yet

  EXPECT_EQ(counters->ship("instance-a", kKey, kPeriod, leased), 11);
  EXPECT_EQ(counters->ship("instance-a", kKey, kPeriod, leased), 11);      // sent again: once
  EXPECT_EQ(counters->ship("instance-b", kKey, kPeriod, 2), 13);           // another instance's
  EXPECT_EQ(counters->ship("instance-a", kKey, kPeriod, leased - 1), 12);  // one given back
  EXPECT_EQ(counters->quota_used(kKey, kPeriod), 12);

  // A unit taken and given back (the request failed after it) is served again.
  ASSERT_TRUE(counters->take_leased("key:9", kWindow, 1000, kKey, kPeriod, 1000));
  counters->return_leased(kKey, kPeriod, 1000, 1);
  int64_t more = 0;
  while (counters->take_leased("key:9", kWindow, 1000, kKey, kPeriod, 1000)) ++more;
  EXPECT_EQ(more, 40 - 1);  // the window's lease (50 less 10, less the unit taken above)
}

// Without leasing (a caller with no ledger to count leased units in), every execution is a
// step counted in Redis, and no lease is asked.
TEST_F(CounterLeasesTest, WithoutLeasingEveryUnitIsCountedInRedis) {
  auto counters = store::open_redis_counters(options_);
  const EventLoopScope scope(loop_);
  int64_t leased = 0;
  expect_steps(serve(*counters, 3, 1000, 1000, leased),
               {{true, 1, true, 1}, {true, 2, true, 2}, {true, 3, true, 3}});
  EXPECT_EQ(leased, 0);
  EXPECT_EQ(redis_count(window_), 3);
  EXPECT_EQ(redis_count(granted_), 3);
  EXPECT_EQ(redis_count(quota_), 3);
}

// Three instances; two of them take leases and go idle; the third serves the key until a
// limit refuses it: by then at least 90 % of the limit was served. Then every instance
// serves until refused: exactly the limit in all, never more; shipped, the month's count
// is what was served.
struct Limits {
  const char* name;
  int64_t rate, quota;
};
class NinetyPercentTest : public CounterLeasesTest, public ::testing::WithParamInterface<Limits> {};

TEST_P(NinetyPercentTest, AKeyBelowNinetyPercentIsNeverRefusedWhileOthersHoldLeases) {
  const Limits l = GetParam();
  const int64_t limit = std::min(l.rate, l.quota);
  std::vector<std::unique_ptr<store::SharedCounters>> fleet;
  for (int i = 0; i < 3; ++i) fleet.push_back(leasing_counters());
  std::vector<int64_t> leased(3, 0);
  const EventLoopScope scope(loop_);
  int64_t served = allowed(serve(*fleet[0], 1, l.rate, l.quota, leased[0]));
  served += allowed(serve(*fleet[1], 1, l.rate, l.quota, leased[1]));
  ASSERT_EQ(served, 2);
  EXPECT_GT(redis_count(l.rate < l.quota ? window_ : granted_), 2);  // leases held

  bool refused = false;
  for (int turns = 0; !refused && turns < 200; ++turns) {
    const std::vector<Outcome> o = serve(*fleet[2], 25, l.rate, l.quota, leased[2]);
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
  for (size_t i = 0; i < fleet.size(); ++i)
    for (int turns = 0; turns < 10; ++turns)
      served += allowed(serve(*fleet[i], 25, l.rate, l.quota, leased[i]));
  EXPECT_EQ(served, limit) << l.name;
  EXPECT_LE(redis_count(window_), l.rate);
  // Each instance ships what it served from its leases: the month's count is every unit
  // served, whichever way it was counted.
  int64_t month = 0;
  for (size_t i = 0; i < fleet.size(); ++i)
    month = fleet[i]->ship("instance-" + std::to_string(i), kKey, kPeriod, leased[i]);
  EXPECT_EQ(month, served) << l.name;
}

INSTANTIATE_TEST_SUITE_P(Limits, NinetyPercentTest,
                         ::testing::Values(Limits{"window", 1000, 1'000'000},
                                           Limits{"month", 1'000'000, 1000}),
                         [](const auto& info) { return std::string(info.param.name); });

// A lease is served only under the limit it was granted under: a raised limit gives the
// lease up (its units stay recorded as this holder's, so the window is counted unit by
// unit from then on), and the window counts every execution in Redis.
TEST_F(CounterLeasesTest, ANewLimitGivesTheLeaseUp) {
  auto counters = leasing_counters();
  const EventLoopScope scope(loop_);
  int64_t leased = 0;
  expect_steps(serve(*counters, 1, 1000, 1'000'000, leased), {{true, 1, true, 1}});
  EXPECT_EQ(redis_count(window_), 51);
  expect_steps(serve(*counters, 3, 2000, 1'000'000, leased),
               {{true, 52, true, 2}, {true, 53, true, 3}, {true, 54, true, 4}});
  expect_steps(serve(*counters, 1, 2000, 1'000'000, leased), {{true, 55, true, 5}});
  EXPECT_EQ(redis_count(window_), 55);
  EXPECT_EQ(leased, 0);
}

}  // namespace
