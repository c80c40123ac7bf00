#include "analysis/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace toolcalc::analysis {

int histogram_bins(int64_t n) {
  // The smallest b with b³ ≥ 8n is ⌈2·n^(1/3)⌉.
  int b = 1;
  while (b < kMaxHistogramBins && static_cast<int64_t>(b) * b * b < 8 * n) ++b;
  return b;
}

namespace {

// Hyndman & Fan 7 from x₍j₎ and x₍j+1₎, with h = j + num/100 exactly.
double interpolate(double at_j, double after_j, int64_t num) {
  if (num == 0) return at_j;
  return at_j + static_cast<double>(num) / 100 * (after_j - at_j);
}

// The values grouped by histogram bin, bins in ascending order. A bin's index is a
// non-decreasing function of the value (a subtraction and a division by a positive width,
// both monotone in IEEE arithmetic), so bin b holds exactly the order statistics
// first[b] … first[b+1] − 1: an order statistic is found by selection within one bin of a
// few hundred values instead of among all of them.
static_assert(kMaxHistogramBins <= 255, "a bin index is one byte");
class ByBin {
 public:
  ByBin(const std::vector<double>& values, const std::vector<uint8_t>& bin_of,
        const std::vector<int64_t>& counts) {
    first_.assign(counts.size() + 1, 0);
    for (size_t b = 0; b < counts.size(); ++b)
      first_[b + 1] = first_[b] + static_cast<size_t>(counts[b]);
    std::vector<size_t> next(first_.begin(), first_.end() - 1);
    sorted_.resize(values.size());
    for (size_t i = 0; i < values.size(); ++i) sorted_[next[bin_of[i]]++] = values[i];
  }
  // x₍r₎, 0-based.
  double order_statistic(size_t r) {
    const auto b =
        static_cast<size_t>(std::upper_bound(first_.begin(), first_.end(), r) - first_.begin()) - 1;
    const auto begin = sorted_.begin() + static_cast<std::ptrdiff_t>(first_[b]);
    const auto end = sorted_.begin() + static_cast<std::ptrdiff_t>(first_[b + 1]);
    std::nth_element(begin, sorted_.begin() + static_cast<std::ptrdiff_t>(r), end);
    return sorted_[r];
  }

 private:
  std::vector<size_t> first_;
  std::vector<double> sorted_;
};

}  // namespace

double percentile_sorted(const std::vector<double>& sorted, int p) {
  if (sorted.empty()) throw std::logic_error("percentile of no values");
  const auto scaled = static_cast<int64_t>(sorted.size() - 1) * p;  // 100·h
  const auto j = static_cast<size_t>(scaled / 100);
  const double after = j + 1 < sorted.size() ? sorted[j + 1] : sorted[j];
  return interpolate(sorted[j], after, scaled % 100);
}

Summary summarise(std::vector<double>& values) {
  if (values.empty()) throw std::logic_error("summary of no values");
  Summary s;
  const auto n = static_cast<int64_t>(values.size());
  s.count = n;

  CompensatedSum sum;
  double lo = values.front(), hi = values.front();
  for (const double x : values) {
    sum.add(x);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  s.min = lo;
  s.max = hi;
  s.mean = sum.value() / static_cast<double>(n);
  if (n > 1) {
    CompensatedSum squares;
    for (const double x : values) {
      const double d = x - s.mean;
      squares.add(d * d);
    }
    s.std = std::sqrt(squares.value() / static_cast<double>(n - 1));  // sqrt is exact-rounded
  }
  // The mean of equal values can differ from them by rounding; keep it inside [min, max].
  s.mean = std::clamp(s.mean, lo, hi);

  // Histogram before the values are reordered (the counts do not depend on the order).
  const int bins = lo == hi ? 1 : histogram_bins(n);
  s.histogram.edges.resize(static_cast<size_t>(bins) + 1);
  s.histogram.counts.assign(static_cast<size_t>(bins), 0);
  const double width = (hi - lo) / bins;
  for (int i = 0; i < bins; ++i) s.histogram.edges[static_cast<size_t>(i)] = lo + width * i;
  s.histogram.edges.back() = hi;
  std::vector<uint8_t> bin_of(values.size());
  for (size_t k = 0; k < values.size(); ++k) {
    int bin = bins - 1;
    if (width > 0) bin = std::min(bins - 1, static_cast<int>((values[k] - lo) / width));
    bin_of[k] = static_cast<uint8_t>(bin);
    ++s.histogram.counts[static_cast<size_t>(bin)];
  }

  ByBin by_bin(values, bin_of, s.histogram.counts);
  for (size_t i = 0; i < kPercentiles.size(); ++i) {
    const int64_t scaled = (n - 1) * kPercentiles[i];
    const auto j = static_cast<size_t>(scaled / 100);
    const double at_j = by_bin.order_statistic(j);
    const double after_j =
        scaled % 100 == 0 || j + 1 >= values.size() ? at_j : by_bin.order_statistic(j + 1);
    s.percentiles[i] = interpolate(at_j, after_j, scaled % 100);
  }
  return s;
}

}  // namespace toolcalc::analysis
