#include "analysis/statistics.hpp"

#include <algorithm>
#include <bit>
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
    // Whether each bin holds one value only, bit for bit (an output that takes a few values,
    // such as a resistance rounded to a series, fills a few bins with thousands of equal
    // values): then every order statistic in it is that value, without a selection.
    differs_.assign(counts.size(), 0);
    zeros_.assign(counts.size(), 0);
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t b = bin_of[i];
      const size_t at = next[b]++;
      sorted_[at] = values[i];
      const uint64_t bits = std::bit_cast<uint64_t>(values[i]);
      differs_[b] |= bits != std::bit_cast<uint64_t>(sorted_[first_[b]]);
      zeros_[b] |= static_cast<uint8_t>((bits == 0 ? 1 : 0) | (bits == kMinusZero ? 2 : 0));
    }
    selected_.assign(counts.size(), kNone);
  }
  // x₍r₎, 0-based. Requests come in ascending order (the percentiles'), often twice in one
  // bin (x₍j₎ and x₍j+1₎), and a skewed output can put most of its values in one bin that
  // every percentile selects from: so a bin remembers its last selected position s (all
  // before it ≤ x₍s₎, all after it ≥), and a later x₍r₎ is selected among the values after s
  // only (x₍s+1₎ is their minimum). That gives the same value, except where a bin holds both
  // +0 and −0, which compare equal and which the arrangement picks between: such a bin is
  // selected from whole every time, as it always was.
  double order_statistic(size_t r) {
    const auto b =
        static_cast<size_t>(std::upper_bound(first_.begin(), first_.end(), r) - first_.begin()) - 1;
    if (!differs_[b]) return sorted_[first_[b]];
    auto at = [this](size_t i) { return sorted_.begin() + static_cast<std::ptrdiff_t>(i); };
    const size_t s = selected_[b];
    if (zeros_[b] == 3 || s == kNone) {
      std::nth_element(at(first_[b]), at(r), at(first_[b + 1]));
    } else if (r == s + 1) {
      std::iter_swap(at(r), std::min_element(at(r), at(first_[b + 1])));
    } else if (r > s) {
      std::nth_element(at(s + 1), at(r), at(first_[b + 1]));
    } else if (r < s) {
      std::nth_element(at(first_[b]), at(r), at(s));
    }
    selected_[b] = r;
    return sorted_[r];
  }

 private:
  static constexpr uint64_t kMinusZero = uint64_t{1} << 63;
  static constexpr size_t kNone = SIZE_MAX;
  std::vector<size_t> first_;
  std::vector<double> sorted_;
  std::vector<uint8_t> differs_;
  std::vector<uint8_t> zeros_;    // per bin: 1 holds +0, 2 holds −0
  std::vector<size_t> selected_;  // per bin: the last position selected, or kNone
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
  const double mean = sum.value() / static_cast<double>(n);

  // One pass for the squared deviations (from the unclamped mean) and the histogram, which
  // is taken before the values are reordered (its counts do not depend on the order): the
  // two are independent, so their arithmetic overlaps.
  const int bins = lo == hi ? 1 : histogram_bins(n);
  s.histogram.edges.resize(static_cast<size_t>(bins) + 1);
  s.histogram.counts.assign(static_cast<size_t>(bins), 0);
  const double width = (hi - lo) / bins;
  for (int i = 0; i < bins; ++i) s.histogram.edges[static_cast<size_t>(i)] = lo + width * i;
  s.histogram.edges.back() = hi;
  std::vector<uint8_t> bin_of(values.size());
  CompensatedSum squares;
  for (size_t k = 0; k < values.size(); ++k) {
    const double x = values[k];
    const double d = x - mean;
    squares.add(d * d);
    int bin = bins - 1;
    if (width > 0) bin = std::min(bins - 1, static_cast<int>((x - lo) / width));
    bin_of[k] = static_cast<uint8_t>(bin);
    ++s.histogram.counts[static_cast<size_t>(bin)];
  }
  if (n > 1)
    s.std = std::sqrt(squares.value() / static_cast<double>(n - 1));  // sqrt is exact-rounded
  // The mean of equal values can differ from them by rounding; keep it inside [min, max].
  s.mean = std::clamp(mean, lo, hi);

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
