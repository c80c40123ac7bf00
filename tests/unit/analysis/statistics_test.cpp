// Percentiles (Hyndman & Fan 7, as numpy's default), the histogram rule and the summary.
#include "analysis/statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace toolcalc::analysis;

// numpy.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 5, 50, 95, 99]) =
// [1.09, 1.45, 5.5, 9.55, 9.91].
TEST(Statistics, PercentilesAreHyndmanFanSeven) {
  std::vector<double> v(10);
  std::iota(v.begin(), v.end(), 1.0);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 1), 1.09);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 5), 1.45);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 50), 5.5);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 95), 9.55);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 99), 9.91);
  EXPECT_EQ(percentile_sorted(v, 0), 1);
  EXPECT_EQ(percentile_sorted(v, 100), 10);
  EXPECT_EQ(percentile_sorted({4.0}, 50), 4);
}

TEST(Statistics, SummaryFindsThePercentilesBySelection) {
  // 1..1000 shuffled: the same percentiles as from the sorted values.
  std::vector<double> sorted(1000);
  std::iota(sorted.begin(), sorted.end(), 1.0);
  std::vector<double> v = sorted;
  for (size_t i = 0; i < v.size(); ++i) std::swap(v[i], v[(i * 7919) % v.size()]);
  const Summary s = summarise(v);
  for (size_t i = 0; i < kPercentiles.size(); ++i)
    EXPECT_EQ(s.percentiles[i], percentile_sorted(sorted, kPercentiles[i])) << kPercentiles[i];
  EXPECT_EQ(s.count, 1000);
  EXPECT_EQ(s.mean, 500.5);
  EXPECT_NEAR(s.std, std::sqrt(1000.0 * 1001 / 12), 1e-9);  // (n² − 1)/12 · n/(n − 1)
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 1000);
}

TEST(Statistics, HistogramBinsFollowRicesRule) {
  EXPECT_EQ(histogram_bins(1), 2);
  EXPECT_EQ(histogram_bins(100), 10);     // 2·4.64 = 9.28
  EXPECT_EQ(histogram_bins(1000), 20);    // exactly 2·10
  EXPECT_EQ(histogram_bins(10000), 44);   // 2·21.54 = 43.09
  EXPECT_EQ(histogram_bins(100000), 50);  // 92.8, capped
}

TEST(Statistics, HistogramCountsEveryValueOnce) {
  std::vector<double> v;
  for (int i = 0; i < 100; ++i) v.push_back(i);  // 0..99, 10 bins of width 9.9
  const Summary s = summarise(v);
  ASSERT_EQ(s.histogram.counts.size(), 10u);
  ASSERT_EQ(s.histogram.edges.size(), 11u);
  EXPECT_EQ(s.histogram.edges.front(), 0);
  EXPECT_EQ(s.histogram.edges.back(), 99);
  EXPECT_TRUE(std::is_sorted(s.histogram.edges.begin(), s.histogram.edges.end()));
  EXPECT_EQ(std::accumulate(s.histogram.counts.begin(), s.histogram.counts.end(), int64_t{0}), 100);
  EXPECT_EQ(s.histogram.counts.front(), 10);  // 0..9
  EXPECT_EQ(s.histogram.counts.back(), 10);   // 90..99, the last bin closed
}

TEST(Statistics, EqualValuesHaveOneBinAndNoSpread) {
  std::vector<double> v(50, 0.1);
  const Summary s = summarise(v);
  EXPECT_EQ(s.mean, 0.1);
  EXPECT_EQ(s.std, 0);
  EXPECT_EQ(s.histogram.counts, std::vector<int64_t>{50});
  EXPECT_EQ(s.histogram.edges, (std::vector<double>{0.1, 0.1}));
  for (double p : s.percentiles) EXPECT_EQ(p, 0.1);
}

TEST(Statistics, CompensatedSumKeepsSmallTerms) {
  CompensatedSum s;
  s.add(1e16);
  for (int i = 0; i < 1000; ++i) s.add(1);
  s.add(-1e16);
  EXPECT_EQ(s.value(), 1000);
}
