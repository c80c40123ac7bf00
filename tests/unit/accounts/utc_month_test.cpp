#include "accounts/utc_month.hpp"

#include <gtest/gtest.h>

#include "accounts/monthly_quota.hpp"
#include "support/test_support.hpp"

using namespace toolcalc::accounts;
using toolcalc::accounts::testing::utc_ms;

TEST(UtcMonth, BoundsOfAMonth) {
  const UtcMonth m = utc_month_of(utc_ms(2026, 11, 15, 12, 30) / 1000);
  EXPECT_EQ(m.period(), "2026-11");
  EXPECT_EQ(m.start_s * 1000, utc_ms(2026, 11, 1));
  EXPECT_EQ(m.end_s * 1000, utc_ms(2026, 12, 1));
  EXPECT_EQ(iso8601_utc(m.end_s), "2026-12-01T00:00:00Z");
}

TEST(UtcMonth, DecemberEndsOnTheFirstOfJanuary) {
  const UtcMonth m = utc_month_of(utc_ms(2026, 12, 31, 23, 59, 59) / 1000);
  EXPECT_EQ(m.period(), "2026-12");
  EXPECT_EQ(iso8601_utc(m.end_s), "2027-01-01T00:00:00Z");
}

TEST(UtcMonth, EdgesBelongToTheMonthThatStarts) {
  EXPECT_EQ(utc_month_of(utc_ms(2028, 3, 1) / 1000).period(), "2028-03");
  EXPECT_EQ(utc_month_of(utc_ms(2028, 3, 1) / 1000 - 1).period(), "2028-02");
  EXPECT_EQ(utc_month_of(utc_ms(2028, 2, 29, 10) / 1000).end_s * 1000, utc_ms(2028, 3, 1));
}

TEST(UtcMonth, Iso8601) {
  EXPECT_EQ(iso8601_utc(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(iso8601_utc(utc_ms(2026, 5, 7, 8, 9, 10) / 1000), "2026-05-07T08:09:10Z");
}

TEST(UtcMonth, PeriodIndexRoundTrips) {
  const UtcMonth m = utc_month_of(utc_ms(2026, 1, 20) / 1000);
  EXPECT_EQ(period_of_index(m.index()), "2026-01");
  EXPECT_EQ(month_index_of_period("2026-01"), m.index());
  EXPECT_EQ(month_index_of_period("2026-13"), -1);
  EXPECT_EQ(month_index_of_period("2026/01"), -1);
  EXPECT_EQ(month_index_of_period("26-01"), -1);
}
