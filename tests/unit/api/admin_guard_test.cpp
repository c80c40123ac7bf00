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
  for (int i = 0; i < 1000; ++i)
    fail(g, "10.1." + std::to_string(i / 256) + "." + std::to_string(i % 256), 1, kStart);
  EXPECT_EQ(g.addresses(), 100u);
  // Addresses the table could not hold share one window: together they get kMaxFailures.
  EXPECT_GT(g.retry_after_s("192.0.2.1", kStart), 0);
  // The ones it holds keep their own.
  EXPECT_EQ(g.retry_after_s("10.1.0.0", kStart), 0);
  // Once their windows end, the table makes room again.
  fail(g, "192.0.2.1", 1, kStart + 61);
  EXPECT_EQ(g.addresses(), 1u);
  EXPECT_EQ(g.retry_after_s("192.0.2.1", kStart + 61), 0);
}

TEST(AdminGuard, AnIpv6ClientIsCountedByItsSlash64) {
  // A client chooses any source address in its /64: every one of them draws on one budget.
  AdminGuard g;
  for (int i = 0; i < AdminGuard::kMaxFailures; ++i)
    fail(g, "2001:db8:1:2::" + std::to_string(i + 1), 1, kStart);
  EXPECT_EQ(g.addresses(), 1u);
  EXPECT_EQ(g.retry_after_s("2001:db8:1:2:ffff:ffff:ffff:ffff", kStart + 1),
            AdminGuard::kWindowSeconds - 1);
  EXPECT_EQ(g.retry_after_s("2001:db8:1:2::1%eth0", kStart + 1), AdminGuard::kWindowSeconds - 1);
  // The next /64 is another client.
  EXPECT_EQ(g.retry_after_s("2001:db8:1:3::1", kStart + 1), 0);
}

TEST(AdminGuard, ManyAddressesOfOneSlash64CannotFillTheTable) {
  // Were addresses counted one by one, these would push every new address, the operator's
  // too, onto the shared window.
  AdminGuard g(100);
  for (int i = 0; i < 1000; ++i) fail(g, "2001:db8::" + std::to_string(i), 1, kStart);
  EXPECT_EQ(g.addresses(), 1u);
  EXPECT_EQ(g.retry_after_s("192.0.2.1", kStart), 0);
  fail(g, "192.0.2.1", AdminGuard::kMaxFailures - 1, kStart);
  EXPECT_EQ(g.retry_after_s("192.0.2.1", kStart), 0);
}

TEST(AdminGuard, AnIpv4MappedAddressCountsAsItsIpv4Address) {
  AdminGuard g;
  fail(g, "::ffff:192.0.2.7", AdminGuard::kMaxFailures - 1, kStart);
  fail(g, "192.0.2.7", 1, kStart);
  EXPECT_EQ(g.addresses(), 1u);
  EXPECT_GT(g.retry_after_s("192.0.2.7", kStart), 0);
  EXPECT_GT(g.retry_after_s("::ffff:192.0.2.7", kStart), 0);
  EXPECT_EQ(g.retry_after_s("192.0.2.8", kStart), 0);
  // Nor does an IPv6 prefix whose first 64 bits are zero (::1's) meet an IPv4 address.
  EXPECT_EQ(g.retry_after_s("::1", kStart), 0);
}
