// The shared IEC 60063 helpers: each search agrees with a brute-force scan of every preferred
// value from 1 mΩ (or pF) to 100 MΩ, and the documented tie and tolerance rules hold.
#include "tools/common/e_series.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace toolcalc::tools {
namespace {

std::vector<double> all_values(std::span<const int> mantissas) {
  std::vector<double> v;
  for (int e = -5; e <= 6; ++e)
    for (int m : mantissas) v.push_back(e_series::preferred_value(m, e));
  return v;
}

TEST(ESeries, SearchesAgreeWithABruteForceScan) {
  std::mt19937 rng(60063);
  for (const char* name : {"E12", "E24", "E96"}) {
    const auto mantissas = e_series::series(name);
    const auto values = all_values(mantissas);
    for (int i = 0; i < 2000; ++i) {
      const double x = std::pow(10.0, std::uniform_real_distribution<double>(-2, 7)(rng));
      double log_best = 0, diff_best = 0, above = INFINITY;
      for (double v : values) {  // ascending, so a strict < keeps the lower value on a tie
        if (log_best == 0 || std::fmax(v / x, x / v) < std::fmax(log_best / x, x / log_best))
          log_best = v;
        if (diff_best == 0 || std::fabs(v - x) < std::fabs(diff_best - x)) diff_best = v;
        if (v >= x && v < above) above = v;
      }
      EXPECT_EQ(e_series::nearest(x, mantissas), log_best) << name << " " << x;
      EXPECT_EQ(e_series::nearest_by_difference(x, mantissas), diff_best) << name << " " << x;
      EXPECT_EQ(e_series::at_or_above(x, mantissas, 0), above) << name << " " << x;
    }
  }
}

TEST(ESeries, LogAndLinearNearestDifferWhereTheScaleMatters) {
  const auto e12 = e_series::series("E12");
  EXPECT_EQ(e_series::nearest(12.2, e12), 12);
  EXPECT_EQ(e_series::nearest_by_difference(12.2, e12), 12);
  // Between 12 and 15 the log scale crosses over at their geometric mean (13.416), the linear
  // one at their arithmetic mean (13.5): 13.45 is 15 by ratio (1.1152 < 1.1208), 12 by
  // difference (1.45 < 1.55).
  EXPECT_EQ(e_series::nearest(13.45, e12), 15);
  EXPECT_EQ(e_series::nearest_by_difference(13.45, e12), 12);
  // On an exact tie both go to the lower value.
  EXPECT_EQ(e_series::nearest_by_difference(13.5, e12), 12);
}

TEST(ESeries, AtOrAboveTreatsRoundingNoiseAsEqual) {
  const auto e24 = e_series::series("E24");
  EXPECT_EQ(e_series::at_or_above(470, e24, 1e-9), 470);
  // A resistance a hair above 470 (a division's rounding) is still served by 470 …
  EXPECT_EQ(e_series::at_or_above(470 * (1 + 1e-12), e24, 1e-9), 470);
  // … but without the tolerance, or beyond it, the next value up.
  EXPECT_EQ(e_series::at_or_above(470 * (1 + 1e-12), e24, 0), 510);
  EXPECT_EQ(e_series::at_or_above(470 * (1 + 1e-6), e24, 1e-9), 510);
  EXPECT_EQ(e_series::at_or_above(911, e24, 0), 1000);  // into the next decade
}

}  // namespace
}  // namespace toolcalc::tools
