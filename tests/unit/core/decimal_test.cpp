#include "core/decimal.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <string>

using toolcalc::format_fixed;
using toolcalc::has_exponent_number;

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

TEST(FormatShortest, IsAppendShortestAsAString) {
  for (double v : {0.001, 1000000000.0, 0.075, -40.0, 1.378, 3.3}) {
    std::string out;
    toolcalc::append_shortest(out, v);
    EXPECT_EQ(toolcalc::format_shortest(v), out);
  }
}

// append_fixed's fast path (integer rounding away from ties) must agree with the
// shortest-digits rule everywhere: random magnitudes over the whole double range and
// every precision, values built to sit exactly on or next to a tie, and integers.
TEST(FormatFixed, FastPathAgreesWithShortestDigitsRule) {
  std::mt19937_64 rng(20261122);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::uniform_int_distribution<int> places(0, 15);
  std::uniform_int_distribution<int64_t> integer(-1'000'000'000, 1'000'000'000);
  auto check = [](double v, int p) {
    std::string fast, exact;
    toolcalc::append_fixed(fast, v, p);
    toolcalc::append_fixed_from_shortest_digits(exact, v, p);
    ASSERT_EQ(fast, exact) << "value " << std::setprecision(17) << v << " places " << p;
  };
  for (int i = 0; i < 50'000; ++i) {
    const int p = places(rng);
    const double v = mantissa(rng) * std::pow(10.0, exponent(rng)) * (i % 2 ? -1 : 1);
    check(v, p);
    // a tie in decimal (k + 0.5)·10^-p, which the double can only approximate, and its
    // neighbours one ulp away
    const double tie = (static_cast<double>(integer(rng)) + 0.5) / std::pow(10.0, p);
    check(tie, p);
    check(std::nextafter(tie, 0.0), p);
    check(std::nextafter(tie, tie * 2), p);
    check(static_cast<double>(integer(rng)), p);
  }
}

// write_decimal against std::to_chars: every length, both ends of both types, and the
// powers of ten and their neighbours where the length changes.
TEST(WriteDecimal, MatchesToCharsAtEveryLength) {
  auto check = [](auto v) {
    char fast[toolcalc::kMaxDecimalChars], reference[24];
    const std::string got(fast, toolcalc::write_decimal(fast, v));
    const std::string want(reference, std::to_chars(reference, reference + 24, v).ptr);
    ASSERT_EQ(got, want);
  };
  check(std::numeric_limits<uint64_t>::max());
  check(std::numeric_limits<int64_t>::max());
  check(std::numeric_limits<int64_t>::min());
  uint64_t power = 1;
  for (int digits = 1; digits <= 20; ++digits, power *= 10) {
    for (uint64_t v : {power - 1, power, power + 1, power * 5 + 7}) {
      check(v);
      check(static_cast<int64_t>(v));
      check(-static_cast<int64_t>(v));
    }
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t v = rng() >> (rng() % 64);
    check(v);
    check(static_cast<int64_t>(v));
  }
  // Every value below a million (each pair and digit of the short lengths), and values
  // whose blocks of eight digits below the leading one start or end in zeros.
  for (uint64_t v = 0; v < 1'000'000; ++v) check(v);
  for (uint64_t high : {1ull, 9ull, 10ull, 99'999'999ull, 184'467'440'736ull})
    for (uint64_t low : {0ull, 1ull, 10'000'000ull, 99'999'999ull}) check(high * 100'000'000 + low);
}

TEST(Decimal, ExponentFormIsFoundOnlyInNumbers) {
  EXPECT_TRUE(has_exponent_number(R"({"a":3.7e7})"));
  EXPECT_TRUE(has_exponent_number(R"([1E3])"));
  EXPECT_TRUE(has_exponent_number(R"({"a":2.e1})"));
  EXPECT_FALSE(has_exponent_number(R"({"a":37000000,"b":true,"c":false,"d":null})"));
  // letters in strings, escaped quotes included, are not numbers
  EXPECT_FALSE(has_exponent_number(R"({"note":"3e7 \"1e3\" x","e1":0.5})"));
}
