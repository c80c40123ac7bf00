#include "accounts/monthly_quota.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "support/test_support.hpp"

using namespace toolcalc::accounts;
using toolcalc::ManualClock;
using toolcalc::accounts::testing::utc_ms;

TEST(MonthlyQuota, ReservesUntilTheLimitThenRefusesUntilNextMonth) {
  ManualClock clock(utc_ms(2026, 11, 30, 23, 0));
  MonthlyQuota quota(clock);
  for (int64_t i = 1; i <= 2; ++i) {
    const QuotaReservation r = quota.reserve(7, 2);
    EXPECT_TRUE(r.allowed);
    EXPECT_FALSE(r.unlimited);
    EXPECT_EQ(r.limit, 2);
    EXPECT_EQ(r.remaining, 2 - i);
    EXPECT_EQ(r.period, "2026-11");
  }
  const QuotaReservation refused = quota.reserve(7, 2);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.retry_after_s, 3600);
  EXPECT_EQ(refused.resets_at, "2026-12-01T00:00:00Z");
  EXPECT_EQ(refused.period, "2026-11");

  const QuotaStatus s = quota.status(7, 2);
  EXPECT_EQ(s.used, 2);
  EXPECT_EQ(s.remaining, 0);
  EXPECT_EQ(s.period, "2026-11");

  clock.set_ms(utc_ms(2026, 12, 1));  // month rollover
  const QuotaReservation next = quota.reserve(7, 2);
  EXPECT_TRUE(next.allowed);
  EXPECT_EQ(next.remaining, 1);
  EXPECT_EQ(next.period, "2026-12");
  EXPECT_EQ(next.resets_at, "2027-01-01T00:00:00Z");
  EXPECT_EQ(quota.status(7, 2).used, 1);
}

TEST(MonthlyQuota, RetryAfterIsAtLeastOneSecond) {
  ManualClock clock(utc_ms(2026, 11, 30, 23, 59, 59, 500));
  MonthlyQuota quota(clock);
  const QuotaReservation r = quota.reserve(1, 0);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.retry_after_s, 1);
}

TEST(MonthlyQuota, ReleaseReturnsTheUnit) {
  ManualClock clock(utc_ms(2026, 6, 10));
  MonthlyQuota quota(clock);
  const QuotaReservation a = quota.reserve(3, 1);
  ASSERT_TRUE(a.allowed);
  EXPECT_FALSE(quota.reserve(3, 1).allowed);
  quota.release(3, a);
  EXPECT_EQ(quota.status(3, 1).used, 0);
  EXPECT_TRUE(quota.reserve(3, 1).allowed);
  // Releasing a refused reservation returns nothing.
  quota.release(3, quota.reserve(3, 1));
  EXPECT_EQ(quota.status(3, 1).used, 1);
}

// A sweep reserves one unit per point: all of them or none.
TEST(MonthlyQuota, ReservesSeveralUnitsAllOrNone) {
  ManualClock clock(utc_ms(2026, 6, 10));
  MonthlyQuota quota(clock);
  const QuotaReservation five = quota.reserve(4, 10, 5);
  ASSERT_TRUE(five.allowed);
  EXPECT_EQ(five.units, 5);
  EXPECT_EQ(five.remaining, 5);
  const QuotaReservation six = quota.reserve(4, 10, 6);  // only 5 left
  EXPECT_FALSE(six.allowed);
  EXPECT_EQ(six.units, 0);
  EXPECT_EQ(six.remaining, 5);
  EXPECT_EQ(quota.status(4, 10).used, 5);  // the refusal took nothing
  const QuotaReservation rest = quota.reserve(4, 10, 5);
  ASSERT_TRUE(rest.allowed);
  EXPECT_EQ(rest.remaining, 0);
  EXPECT_FALSE(quota.reserve(4, 10, 0).allowed);  // zero units is not a reservation
}

TEST(MonthlyQuota, ReleasesPartOfAReservationButNeverMoreThanItHeld) {
  ManualClock clock(utc_ms(2026, 6, 10));
  MonthlyQuota quota(clock);
  quota.reserve(5, 100, 2);  // earlier calls, not to be given back
  const QuotaReservation sweep = quota.reserve(5, 100, 8);
  quota.release(5, sweep, 3);  // three points failed
  EXPECT_EQ(quota.status(5, 100).used, 7);
  const QuotaReservation other = quota.reserve(5, 100, 4);
  quota.release(5, other, 50);  // capped at that reservation's 4 units
  EXPECT_EQ(quota.status(5, 100).used, 7);
  auto pending = quota.take_pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].delta, 7);  // only what was kept is written
}

TEST(MonthlyQuota, PendingDeltasAreTakenOnceAndRestoredOnFailure) {
  ManualClock clock(utc_ms(2026, 6, 10));
  MonthlyQuota quota(clock);
  quota.seed(utc_month_of(clock.now_s()), {{3, 40}});
  EXPECT_EQ(quota.status(3, 100).used, 40);
  EXPECT_TRUE(quota.take_pending().empty());  // seeded counts are already stored
  quota.reserve(3, 100);
  quota.reserve(3, 100);
  auto pending = quota.take_pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].key_id, 3);
  EXPECT_EQ(pending[0].period, "2026-06");
  EXPECT_EQ(pending[0].delta, 2);
  EXPECT_TRUE(quota.take_pending().empty());
  quota.restore_pending(pending);
  quota.reserve(3, 100);
  pending = quota.take_pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].delta, 3);
  EXPECT_EQ(quota.status(3, 100).used, 43);
}

// A take (each group commit) writes what moved since the last one, whatever else the month
// holds: of 1,000 keys seeded, only the two used are taken, each once however many times it
// moved, and a unit given back after a take is the next take's (a negative delta).
TEST(MonthlyQuota, ATakeHoldsTheCountsThatMovedSinceTheLastOne) {
  ManualClock clock(utc_ms(2026, 6, 10));
  MonthlyQuota quota(clock);
  std::unordered_map<int64_t, int64_t> seeded;
  for (int64_t key = 1; key <= 1000; ++key) seeded[key] = 5;
  quota.seed(utc_month_of(clock.now_s()), seeded);
  const QuotaReservation r = quota.reserve(17, 100, 2);
  quota.reserve(17, 100);
  quota.reserve(33, 100);  // 33 and 17 share a shard (16 shards)
  auto pending = quota.take_pending();
  std::sort(pending.begin(), pending.end(),
            [](const auto& a, const auto& b) { return a.key_id < b.key_id; });
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].key_id, 17);
  EXPECT_EQ(pending[0].delta, 3);
  EXPECT_EQ(pending[1].key_id, 33);
  EXPECT_EQ(pending[1].delta, 1);
  EXPECT_TRUE(quota.take_pending().empty());
  quota.release(17, r, 1);
  pending = quota.take_pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].key_id, 17);
  EXPECT_EQ(pending[0].delta, -1);
  EXPECT_EQ(quota.status(17, 100).used, 7);
  EXPECT_TRUE(quota.take_pending().empty());
}

TEST(MonthlyQuota, MonthsBeforeThePreviousOneAreEvictedOnceFlushedThenLoadedAgain) {
  ManualClock clock(utc_ms(2026, 6, 30, 23, 59));
  std::vector<std::string> loads;
  std::unordered_map<int64_t, int64_t> stored;  // June, as the store would hold it
  MonthlyQuota quota(clock, [&](std::string_view period) {
    loads.emplace_back(period);
    return period == "2026-06" ? stored : std::unordered_map<int64_t, int64_t>{};
  });
  quota.reserve(3, 100);
  EXPECT_EQ(loads, (std::vector<std::string>{"2026-06"}));
  clock.set_ms(utc_ms(2026, 7, 1, 0, 1));
  quota.reserve(3, 100);
  EXPECT_EQ(loads, (std::vector<std::string>{"2026-06", "2026-07"}));
  quota.evict_stale();  // June is the previous month: kept
  clock.set_ms(utc_ms(2026, 8, 2));
  quota.evict_stale();  // June has a pending unit: kept
  auto pending = quota.take_pending();
  ASSERT_EQ(pending.size(), 2u);
  stored[3] = 1;                             // what the flush wrote
  quota.evict_stale();                       // June goes; July is the previous month
  clock.set_ms(utc_ms(2026, 6, 30, 23, 0));  // the clock stepped back into June
  EXPECT_EQ(quota.status(3, 100).used, 1);   // loaded again, not counted from zero
  EXPECT_EQ(loads.back(), "2026-06");
  clock.set_ms(utc_ms(2026, 7, 1, 0, 1));
  EXPECT_EQ(quota.status(3, 100).used, 1);
  EXPECT_EQ(quota.status(3, 100).period, "2026-07");
}

TEST(MonthlyQuota, ExactUnderConcurrency) {
  ManualClock clock(utc_ms(2026, 6, 10));
  MonthlyQuota quota(clock);
  constexpr int kThreads = 8, kCallsEach = 4'000;
  constexpr int64_t kLimit = 9'999;
  std::atomic<int64_t> allowed{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      while (!go) std::this_thread::yield();
      for (int i = 0; i < kCallsEach; ++i)
        if (quota.reserve(42, kLimit).allowed) ++allowed;
    });
  go = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(allowed.load(), kLimit);
  EXPECT_EQ(quota.status(42, kLimit).used, kLimit);
  auto pending = quota.take_pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].delta, kLimit);
}
