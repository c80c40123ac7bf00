#include "analysis/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace toolcalc::analysis {

int histogram_bins(int64_t n) {
  // The smallest b with b³ ≥ 8n is ⌈2·n^(1/3)⌉.
  int b = 1;
  while (b < kMaxHistogramBins && static_cast<int64_t>(b) * b * b < 8 * n) ++b;
  return b;
}

namespace {

// The order statistics x₍j₎ and x₍j+1₎ of `v` (0-based), by selection within [from, end):
// every element before `from` is already known to be ≤ x₍from₎. Leaves v[j] = x₍j₎ and
// every element after j ≥ it, so a later call with a larger j may start at j + 1.
void select_pair(std::vector<double>& v, size_t from, size_t j, double& at_j, double& after_j) {
  std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(from),
                   v.begin() + static_cast<std::ptrdiff_t>(j), v.end());
  at_j = v[j];
  after_j = j + 1 < v.size()
                ? *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(j + 1), v.end())
                : at_j;
}

// Hyndman & Fan 7 from x₍j₎ and x₍j+1₎, with h = j + num/100 exactly.
double interpolate(double at_j, double after_j, int64_t num) {
  if (num == 0) return at_j;
  return at_j + static_cast<double>(num) / 100 * (after_j - at_j);
}

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
  for (const double x : values) {
    int bin = bins - 1;
    if (width > 0) bin = std::min(bins - 1, static_cast<int>((x - lo) / width));
    ++s.histogram.counts[static_cast<size_t>(bin)];
  }

  size_t from = 0;
  for (size_t i = 0; i < kPercentiles.size(); ++i) {
    const int64_t scaled = (n - 1) * kPercentiles[i];
    const auto j = static_cast<size_t>(scaled / 100);
    double at_j = 0, after_j = 0;
    select_pair(values, from, j, at_j, after_j);
    s.percentiles[i] = interpolate(at_j, after_j, scaled % 100);
    from = j;  // everything before j is ≤ x₍j₎; the next j is at least this one
  }
  return s;
}

}  // namespace toolcalc::analysis
