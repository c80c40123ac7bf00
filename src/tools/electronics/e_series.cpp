#include "tools/electronics/e_series.hpp"

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

double nearest(double r, std::span<const int> values) {
  const int decade = static_cast<int>(std::floor(std::log10(r)));
  double best = 0, best_ratio = INFINITY;
  for (int d = decade - 1; d <= decade + 1; ++d)  // ascending; covers both neighbours
    for (int m : values) {
      const double v = preferred_value(m, d - 2);
      const double ratio = std::max(v / r, r / v);
      if (ratio < best_ratio) {
        best = v;
        best_ratio = ratio;
      }
    }
  return best;
}

}  // namespace toolcalc::tools::e_series
