#include "analysis/sampler.hpp"

namespace toolcalc::analysis {

double exp_neg(double y) {
  const double x = -y / 16;  // exact: a power-of-two scaling
  // e^x = 1 + x(1 + x/2(1 + x/3(… (1 + x/13)))), evaluated from the inside out.
  double t = 1;
  for (int k = 13; k >= 1; --k) t = 1 + x * t / k;
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
    if (u < exp_neg(y)) return z;
  }
}

}  // namespace toolcalc::analysis
