#include "core/decimal.hpp"

#include <gtest/gtest.h>

#include <limits>

using toolcalc::format_fixed;

TEST(FormatFixed, RoundsToPlacesFromTheUnroundedValue) {
  EXPECT_EQ(format_fixed(343.33333333, 1), "343.3");
  EXPECT_EQ(format_fixed(0.34333333, 3), "0.343");
  EXPECT_EQ(format_fixed(1440.0, 0), "1440");
  EXPECT_EQ(format_fixed(4660.7766990, 1), "4660.8");
  EXPECT_EQ(format_fixed(0.5313, 2), "0.53");
}

TEST(FormatFixed, RoundsHalfAwayFromZero) {
  EXPECT_EQ(format_fixed(0.125, 2), "0.13");
  EXPECT_EQ(format_fixed(-0.125, 2), "-0.13");
  EXPECT_EQ(format_fixed(2.5, 0), "3");
  EXPECT_EQ(format_fixed(-2.5, 0), "-3");
  EXPECT_EQ(format_fixed(1.005, 2), "1.01");  // the decimal a person reads, not 1.00499..
  EXPECT_EQ(format_fixed(9.995, 2), "10.00");
  EXPECT_EQ(format_fixed(999.96, 1), "1000.0");
}

TEST(FormatFixed, NeverUsesExponentNotation) {
  EXPECT_EQ(format_fixed(1e20, 0), "100000000000000000000");
  EXPECT_EQ(format_fixed(1.5e-7, 3), "0.000");
  EXPECT_EQ(format_fixed(0.0004, 3), "0.000");
  EXPECT_EQ(format_fixed(0.0005, 3), "0.001");
  EXPECT_EQ(format_fixed(0.00000123, 5), "0.00000");
  EXPECT_EQ(format_fixed(123456789.123, 2), "123456789.12");
}

TEST(FormatFixed, ZeroHasNoSign) {
  EXPECT_EQ(format_fixed(-0.0, 1), "0.0");
  EXPECT_EQ(format_fixed(-0.0004, 2), "0.00");
  EXPECT_EQ(format_fixed(0.0, 0), "0");
}

TEST(FormatFixed, PadsTrailingZeros) {
  EXPECT_EQ(format_fixed(0.5, 3), "0.500");
  EXPECT_EQ(format_fixed(31.0, 1), "31.0");
  EXPECT_EQ(format_fixed(1350.0, 2), "1350.00");
  EXPECT_EQ(format_fixed(0.0135, 5), "0.01350");
}

TEST(FormatFixed, NonFiniteIsNull) {
  EXPECT_EQ(format_fixed(std::numeric_limits<double>::infinity(), 1), "null");
  EXPECT_EQ(format_fixed(std::numeric_limits<double>::quiet_NaN(), 1), "null");
}

TEST(AppendShortest, WritesPlainDecimals) {
  auto s = [](double v) {
    std::string out;
    toolcalc::append_shortest(out, v);
    return out;
  };
  EXPECT_EQ(s(0.001), "0.001");
  EXPECT_EQ(s(1000000000), "1000000000");
  EXPECT_EQ(s(0.075), "0.075");
  EXPECT_EQ(s(-40), "-40");
  EXPECT_EQ(s(2000), "2000");
  EXPECT_EQ(s(0.05), "0.05");
  EXPECT_EQ(s(1.378), "1.378");
}
