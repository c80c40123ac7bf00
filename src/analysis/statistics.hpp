#pragma once
// Summary statistics of Monte Carlo samples (JCGM 101:2008 §7: the estimate, its standard
// uncertainty and coverage intervals read off the samples), with IEEE basic operations
// only so that every machine gets the same bits. docs/analysis.md, "Monte Carlo".
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/wrapping.hpp"

namespace toolcalc::analysis {

struct Histogram {
  std::vector<double> edges;    // bins + 1 ascending edges, first = min, last = max
  std::vector<int64_t> counts;  // one per bin; bin i is [edges[i], edges[i+1]), the last closed
};

// The percentiles reported, in per cent.
inline constexpr std::array<int, 5> kPercentiles = {1, 5, 50, 95, 99};

struct Summary {
  int64_t count = 0;
  double mean = 0;
  double std = 0;  // sample standard deviation (n − 1 in the denominator); 0 when n = 1
  double min = 0, max = 0;
  std::array<double, kPercentiles.size()> percentiles{};  // in kPercentiles' order
  Histogram histogram;
};

// Rice's rule, ⌈2·n^(1/3)⌉ bins (Terrell & Scott, "Oversmoothed nonparametric density
// estimates", JASA 80, 1985), at most kMaxHistogramBins; computed on integers.
inline constexpr int kMaxHistogramBins = 50;
int histogram_bins(int64_t n);

// The percentile `p` (0..100) of the n values by linear interpolation between order
// statistics, Hyndman & Fan's definition 7 ("Sample quantiles in statistical packages",
// The American Statistician 50(4), 1996; R's default and numpy's "linear"): with
// h = (n − 1)·p/100, x₍⌊h⌋₎ + (h − ⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎), order statistics from 0.
// `sorted` must be ascending. h is formed exactly on integers.
double percentile_sorted(const std::vector<double>& sorted, int p);

// Every statistic of `values` (not empty); may reorder them. The mean is a compensated sum
// (Neumaier, ZAMM 54, 1974) over the values in order, divided by n; the standard
// deviation is from the sum of squared deviations from that mean (two passes). The
// percentiles are those of percentile_sorted, found by selection within the histogram bin
// that holds each order statistic (bins partition the sorted order) rather than a sort.
Summary summarise(std::vector<double>& values);

// A compensated running sum (Neumaier's variant of Kahan summation).
class CompensatedSum {
 public:
  TOOLCALC_WRAPPING void add(double x) {
    const double t = sum_ + x;
    // The lost low part, by the larger operand first. Both are computed and one selected by
    // a mask, not a branch: for values around zero the comparison cannot be predicted, and
    // a mispredicted branch costs more than the other computation.
    const double sum_larger = (sum_ - t) + x;
    const double x_larger = (x - t) + sum_;
    const uint64_t pick_sum = uint64_t{0} - static_cast<uint64_t>(std::fabs(sum_) >= std::fabs(x));
    compensation_ += std::bit_cast<double>((std::bit_cast<uint64_t>(sum_larger) & pick_sum) |
                                           (std::bit_cast<uint64_t>(x_larger) & ~pick_sum));
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0;
  double compensation_ = 0;
};

}  // namespace toolcalc::analysis
