#include "tools/common/e_series.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

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

// Every preferred value of the three series from 10^kLowestDecade to just below
// 10^(kHighestDecade + 1), ascending, built with preferred_value (so the same doubles the
// visit produces). The searches below find x's two neighbours in it by bisection instead of
// computing and comparing all the values of three decades: the same result, because
//  - the three decades visit_around visits always hold both neighbours of x (x lies in the
//    middle one, or at its edge when log10 rounds across a power of ten), and the table holds
//    those decades unchanged;
//  - both distances only fall towards x and only rise away from it (a rounded quotient or
//    difference is monotone in each operand), so the visit's minimum is at a neighbour, and
//    two values 1.9 % or more apart never tie: a tie is between the two neighbours, where
//    the visit keeps the lower one;
//  - at_or_above's test v ≥ r·(1 − tolerance) is monotone in v, so its first value in
//    ascending order is the table's first value past that bound, which for a tolerance in
//    [0, 0.5] lies within the visited decades.
// Outside the table (or for another list of mantissas) the visit runs as before.
constexpr int kLowestDecade = -16;
constexpr int kHighestDecade = 16;

struct Table {
  std::span<const int> mantissas;
  std::vector<double> values;
  double low = 0, high = 0;  // x in (low, high): its visited decades are in the table
};

Table build(std::span<const int> mantissas) {
  Table t{mantissas, {}, 0, 0};
  for (int d = kLowestDecade; d <= kHighestDecade; ++d)
    for (int m : mantissas) t.values.push_back(preferred_value(m, d - 2));
  t.low = preferred_value(100, kLowestDecade + 2 - 2);    // 10^(lowest + 2)
  t.high = preferred_value(100, kHighestDecade - 1 - 2);  // 10^(highest − 1)
  return t;
}

const Table* table_for(std::span<const int> mantissas, double x) {
  static const Table tables[] = {build(kE12), build(kE24), build(kE96)};
  for (const Table& t : tables)
    if (t.mantissas.data() == mantissas.data() && t.mantissas.size() == mantissas.size())
      return x > t.low && x < t.high ? &t : nullptr;
  return nullptr;
}

// The nearest of x's two neighbours in the table by distance(v); the lower one on a tie.
template <class Distance>
double nearest_in(const Table& t, double x, Distance distance) {
  const auto above = std::lower_bound(t.values.begin(), t.values.end(), x);
  const double high = *above, low = *(above - 1);
  return distance(high) < distance(low) ? high : low;
}

}  // namespace

double nearest(double r, std::span<const int> values) {
  const auto distance = [r](double v) { return std::max(v / r, r / v); };
  if (const Table* t = table_for(values, r)) return nearest_in(*t, r, distance);
  return nearest_by(r, values, distance);
}

double nearest_by_difference(double x, std::span<const int> values) {
  const auto distance = [x](double v) { return std::fabs(v - x); };
  if (const Table* t = table_for(values, x)) return nearest_in(*t, x, distance);
  return nearest_by(x, values, distance);
}

double at_or_above(double r, std::span<const int> values, double relative_tolerance) {
  const double bound = r * (1 - relative_tolerance);
  if (const Table* t = table_for(values, r);
      t && relative_tolerance >= 0 && relative_tolerance <= 0.5)
    return *std::lower_bound(t->values.begin(), t->values.end(), bound);
  double found = 0;
  // The decade above always holds one (10^(decade + 1) > r), so the visit always stops.
  if (visit_around(r, values, [&](double v) {
        if (v < bound) return false;
        found = v;
        return true;
      }))
    return found;
  return preferred_value(values[0], decade_of(r) - 1);
}

}  // namespace toolcalc::tools::e_series
