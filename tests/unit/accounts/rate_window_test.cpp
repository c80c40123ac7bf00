#include "accounts/rate_window.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "support/test_support.hpp"

using namespace toolcalc::accounts;
using toolcalc::ManualClock;
using toolcalc::accounts::testing::utc_ms;

namespace {
const int64_t kMinute = utc_ms(2026, 11, 15, 10, 7);  // a window start: 10:07:00.000
}

TEST(RateWindows, CountsDownWithinAWindowAndResetsAtItsEnd) {
  ManualClock clock(kMinute + 12'345);
  RateWindows rates(clock);
  for (int64_t i = 1; i <= 3; ++i) {
    const RateDecision d = rates.take("ip:1.2.3.4", 3);
    EXPECT_TRUE(d.allowed);
    EXPECT_EQ(d.limit, 3);
    EXPECT_EQ(d.remaining, 3 - i);
    EXPECT_EQ(d.reset_epoch_s * 1000, kMinute + 60'000);
    EXPECT_EQ(d.retry_after_s, 0);
  }
  const RateDecision over = rates.take("ip:1.2.3.4", 3);
  EXPECT_FALSE(over.allowed);
  EXPECT_EQ(over.remaining, 0);
  EXPECT_EQ(over.retry_after_s, 48);  // 10:07:12.345 → 10:08:00: 47.655 s, rounded up
  EXPECT_EQ(over.reset_epoch_s * 1000, kMinute + 60'000);

  // Another subject has its own window.
  EXPECT_TRUE(rates.take("ip:5.6.7.8", 3).allowed);

  clock.set_ms(kMinute + 60'000);  // the next window starts exactly here
  const RateDecision next = rates.take("ip:1.2.3.4", 3);
  EXPECT_TRUE(next.allowed);
  EXPECT_EQ(next.remaining, 2);
  EXPECT_EQ(next.reset_epoch_s * 1000, kMinute + 120'000);
}

TEST(RateWindows, RetryAfterIsBetweenOneAndSixty) {
  ManualClock clock(kMinute);
  RateWindows rates(clock);
  rates.take("s", 1);
  EXPECT_EQ(rates.take("s", 1).retry_after_s, 60);  // at the window's first millisecond
  clock.set_ms(kMinute + 59'999);
  EXPECT_EQ(rates.take("s", 1).retry_after_s, 1);  // 1 ms left: still at least 1
  clock.set_ms(kMinute + 59'000);
  EXPECT_EQ(rates.take("s", 1).retry_after_s, 1);
  clock.set_ms(kMinute + 58'999);
  EXPECT_EQ(rates.take("s", 1).retry_after_s, 2);
}

TEST(RateWindows, PeekUsesNothing) {
  ManualClock clock(kMinute + 1000);
  RateWindows rates(clock);
  EXPECT_EQ(rates.peek("s", 2).remaining, 2);
  rates.take("s", 2);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(rates.peek("s", 2).remaining, 1);
  rates.take("s", 2);
  const RateDecision p = rates.peek("s", 2);
  EXPECT_EQ(p.remaining, 0);
  EXPECT_FALSE(p.allowed);
  EXPECT_EQ(p.reset_epoch_s * 1000, kMinute + 60'000);
}

TEST(RateWindows, EndedWindowsAreEvicted) {
  ManualClock clock(kMinute);
  RateWindows rates(clock);
  for (int i = 0; i < 1000; ++i) rates.take("ip:10.0." + std::to_string(i), 60);
  EXPECT_EQ(rates.tracked_subjects(), 1000u);
  rates.evict_stale();
  EXPECT_EQ(rates.tracked_subjects(), 1000u);  // still this window
  clock.advance_ms(60'000);
  rates.take("ip:10.0.0", 60);
  rates.evict_stale();
  EXPECT_EQ(rates.tracked_subjects(), 1u);
}

TEST(RateWindows, AClockSteppedBackKeepsTheCountAndATruthfulReset) {
  ManualClock clock(kMinute + 30'000);
  RateWindows rates(clock);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(rates.take("key:1", 5).allowed);
  EXPECT_FALSE(rates.take("key:1", 5).allowed);
  clock.advance_ms(-3'600'000);  // back an hour
  RateDecision d = rates.take("key:1", 5);
  EXPECT_FALSE(d.allowed);  // no fresh window within the same real minute
  EXPECT_EQ(d.reset_epoch_s, (kMinute - 3'600'000) / 1000 + 60);  // the clock's minute ends
  EXPECT_LE(d.retry_after_s, 60);
  EXPECT_EQ(rates.peek("key:1", 5).remaining, 0);
  rates.evict_stale();
  EXPECT_EQ(rates.tracked_subjects(), 1u);
  clock.advance_ms(60'000);  // the stepped-back minute ends: a new window
  EXPECT_TRUE(rates.take("key:1", 5).allowed);
}

TEST(RateWindows, ExactUnderConcurrency) {
  ManualClock clock(kMinute + 5'000);
  RateWindows rates(clock);
  constexpr int kThreads = 8, kCallsEach = 5'000;
  constexpr int64_t kLimit = 12'345;
  std::atomic<int64_t> allowed{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      while (!go) std::this_thread::yield();
      for (int i = 0; i < kCallsEach; ++i) {
        const RateDecision d = rates.take("key:1", kLimit);
        EXPECT_GE(d.remaining, 0);
        if (d.allowed) ++allowed;
      }
    });
  go = true;
  for (auto& th : threads) th.join();
  EXPECT_EQ(allowed.load(), kLimit);
  EXPECT_EQ(rates.peek("key:1", kLimit).remaining, 0);
}
