#include "tools/common/e_series.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace toolcalc::tools::e_series {
namespace {

constexpr int kE12[] = {100, 120, 150, 180, 220, 270, 330, 390, 470, 560, 680, 820};
constexpr int kE24[] = {100, 110, 120, 130, 150, 160, 180, 200, 220, 240, 270, 300,
                        330, 360, 390, 430, 470, 510, 560, 620, 680, 750, 820, 910};
constexpr int kE96[] = {100, 102, 105, 107, 110, 113, 115, 118, 121, 124, 127, 130, 133, 137,
                        140, 143, 147, 150, 154, 158, 162, 165, 169, 174, 178, 182, 187, 191,
                        196, 200, 205, 210, 215, 221, 226, 232, 237, 243, 249, 255, 261, 267,
                        274, 280, 287, 294, 301, 309, 316, 324, 332, 340, 348, 357, 365, 374,
                        383, 392, 402, 412, 422, 432, 442, 453, 464, 475, 487, 499, 511, 523,
                        536, 549, 562, 576, 590, 604, 619, 634, 649, 665, 681, 698, 715, 732,
                        750, 768, 787, 806, 825, 845, 866, 887, 909, 931, 953, 976};

}  // namespace

std::span<const int> series(std::string_view name) {
  if (name == "E12") return kE12;
  if (name == "E96") return kE96;
  return kE24;
}

double preferred_value(int mantissa, int exponent) {
  double scale = 1;
  for (int i = 0; i < std::abs(exponent); ++i) scale *= 10;
  return exponent >= 0 ? mantissa * scale : mantissa / scale;
}

namespace {

int decade_of(double x) {
  return static_cast<int>(std::floor(std::log10(x)));
}

// Calls visit(v) for the preferred values of x's decade and of the decades on either side, in
// ascending order (so they include both neighbours of x), until it returns true; returns
// whether it did.
template <class Visit>
bool visit_around(double x, std::span<const int> values, Visit visit) {
  const int decade = decade_of(x);
  for (int d = decade - 1; d <= decade + 1; ++d)
    for (int m : values)
      if (visit(preferred_value(m, d - 2))) return true;
  return false;
}

// The visited value with the smallest distance(v); the first (lowest) one on a tie.
template <class Distance>
double nearest_by(double x, std::span<const int> values, Distance distance) {
  double best = 0, best_distance = INFINITY;
  visit_around(x, values, [&](double v) {
    const double d = distance(v);
    if (d < best_distance) {
      best = v;
      best_distance = d;
    }
    return false;
  });
  return best;
}

}  // namespace

double nearest(double r, std::span<const int> values) {
  return nearest_by(r, values, [r](double v) { return std::max(v / r, r / v); });
}

double nearest_by_difference(double x, std::span<const int> values) {
  return nearest_by(x, values, [x](double v) { return std::fabs(v - x); });
}

double at_or_above(double r, std::span<const int> values, double relative_tolerance) {
  double found = 0;
  // The decade above always holds one (10^(decade + 1) > r), so the visit always stops.
  if (visit_around(r, values, [&](double v) {
        if (v < r * (1 - relative_tolerance)) return false;
        found = v;
        return true;
      }))
    return found;
  return preferred_value(values[0], decade_of(r) - 1);
}

}  // namespace toolcalc::tools::e_series
