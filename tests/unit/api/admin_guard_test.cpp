// Failed admin authentications per source address (api/admin_guard.hpp).
#include "api/admin_guard.hpp"

#include <gtest/gtest.h>

#include <string>

using toolcalc::api::AdminGuard;

namespace {

constexpr int64_t kStart = 1'800'000'000;

void fail(AdminGuard& g, std::string_view address, int times, int64_t now_s) {
  for (int i = 0; i < times; ++i) g.record_failure(address, now_s, "req_test");
}

}  // namespace

TEST(AdminGuard, RefusesAnAddressAfterItsFailuresUntilTheWindowEnds) {
  AdminGuard g;
  EXPECT_EQ(g.retry_after_s("10.0.0.1", kStart), 0);
  fail(g, "10.0.0.1", AdminGuard::kMaxFailures - 1, kStart);
  EXPECT_EQ(g.retry_after_s("10.0.0.1", kStart + 5), 0);
  fail(g, "10.0.0.1", 1, kStart + 5);
  // The window started at the first failure: 60 s from kStart.
  EXPECT_EQ(g.retry_after_s("10.0.0.1", kStart + 5), AdminGuard::kWindowSeconds - 5);
  EXPECT_EQ(g.retry_after_s("10.0.0.1", kStart + 59), 1);
  // Another address is not affected.
  EXPECT_EQ(g.retry_after_s("10.0.0.2", kStart + 5), 0);
  // The window ends: a fresh budget.
  EXPECT_EQ(g.retry_after_s("10.0.0.1", kStart + 60), 0);
  fail(g, "10.0.0.1", AdminGuard::kMaxFailures - 1, kStart + 60);
  EXPECT_EQ(g.retry_after_s("10.0.0.1", kStart + 61), 0);
}

TEST(AdminGuard, MemoryIsBoundedAndAddressesBeyondItShareOneWindow) {
  AdminGuard g(100);
  for (int i = 0; i < 1000; ++i) fail(g, "10.1." + std::to_string(i), 1, kStart);
  EXPECT_EQ(g.addresses(), 100u);
  // Addresses the table could not hold share one window: together they get kMaxFailures.
  EXPECT_GT(g.retry_after_s("192.0.2.1", kStart), 0);
  // The ones it holds keep their own.
  EXPECT_EQ(g.retry_after_s("10.1.0", kStart), 0);
  // Once their windows end, the table makes room again.
  fail(g, "192.0.2.1", 1, kStart + 61);
  EXPECT_EQ(g.addresses(), 1u);
  EXPECT_EQ(g.retry_after_s("192.0.2.1", kStart + 61), 0);
}
