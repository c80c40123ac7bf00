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

void TruncatedNormalStream::refill() {
  double z[kProposals], y[kProposals], u[kProposals];
  // 0: rejected, 1: kept, 2: left to exp_neg.
  unsigned char verdict[kProposals];
  for (int i = 0; i < kProposals; ++i) {
    z[i] = 6 * uniform01(rng_) - 3;
    u[i] = uniform01(rng_);
  }
  for (int i = 0; i < kProposals; ++i) {
    // truncated_normal's tests in its order: the first that decides, decides.
    y[i] = z[i] * z[i] / 2;
    const double a = y[i] / 16;
    double lower = 1 - a, upper = 1 + a;
    for (int k = 0; k < 4; ++k) lower *= lower, upper *= upper;
    const bool keep1 = u[i] <= 1 - y[i];
    const bool drop1 = u[i] * (1 + y[i]) > 1;
    const bool keep2 = u[i] <= lower;
    const bool drop2 = u[i] * upper > 1;
    const int kept = keep1 | (!drop1 & keep2);
    const int undecided = !keep1 & !drop1 & !keep2 & !drop2;  // then kept is 0
    verdict[i] = static_cast<unsigned char>(kept + 2 * undecided);
  }
  for (int i = 0; i < kProposals; ++i)
    if (verdict[i] == 2) verdict[i] = u[i] < exp_neg(y[i]) ? 1 : 0;
  kept_ = 0;
  for (int i = 0; i < kProposals; ++i) {
    kept_values_[kept_] = z[i];
    kept_ += verdict[i];
  }
  at_ = 0;
  if (kept_ == 0) refill();  // 128 rejections in a row: probability 0.58^128 ≈ 10^-30
}

}  // namespace toolcalc::analysis
