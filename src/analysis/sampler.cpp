#include "analysis/sampler.hpp"

#include <array>
#include <cstddef>

namespace toolcalc::analysis {

namespace {

// 1/k for k = 1…13, each the correctly rounded quotient (computed by the compiler, the
// same bits everywhere): multiplying by it is several times faster than dividing by k.
constexpr std::array<double, 14> kReciprocals = [] {
  std::array<double, 14> r{};
  for (int k = 1; k < 14; ++k) r[static_cast<std::size_t>(k)] = 1.0 / k;
  return r;
}();

}  // namespace

double exp_neg(double y) {
  const double x = -y / 16;  // exact: a power-of-two scaling
  // e^x = 1 + x(1 + x/2(1 + x/3(… (1 + x/13)))), evaluated from the inside out.
  double t = 1;
  for (int k = 13; k >= 1; --k) t = 1 + x * t * kReciprocals[static_cast<std::size_t>(k)];
  t *= t;  // e^(2x)
  t *= t;  // e^(4x)
  t *= t;  // e^(8x)
  t *= t;  // e^(16x) = e^-y
  return t;
}

double truncated_normal(Xoshiro256& rng) {
  for (;;) {
    const double z = 6 * uniform01(rng) - 3;
    const double y = z * z / 2;
    const double u = uniform01(rng);
    if (u <= 1 - y) return z;       // below e^-y for certain
    if (u * (1 + y) > 1) continue;  // above e^-y for certain
    // Tighter, still cheap: (1 − y/16)^16 ≤ e^-y ≤ (1 + y/16)^-16, which leave exp_neg
    // a few per cent of the proposals instead of a quarter.
    const double a = y / 16;  // exact: a power-of-two scaling
    double lower = 1 - a, upper = 1 + a;
    for (int i = 0; i < 4; ++i) lower *= lower, upper *= upper;
    if (u <= lower) return z;
    if (u * upper > 1) continue;
    if (u < exp_neg(y)) return z;
  }
}

}  // namespace toolcalc::analysis
