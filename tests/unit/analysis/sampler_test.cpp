// The generator and its transforms: the reference algorithms' outputs, golden samples for a
// seed (a change of any bit is noticed), and the truncated normal's moments.
#include "analysis/sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace toolcalc::analysis;

// SplitMix64 from seed 0: the first outputs of the reference splitmix64.c (Vigna), also
// the values Java's SplittableRandom(0) starts with.
TEST(Sampler, SplitMix64MatchesTheReference) {
  SplitMix64 g(0);
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(g.next(), 0x6e789e6aa1b965f4ULL);
}

// Golden values, computed by an independent transcription of xoshiro256starstar.c and of
// the transforms (Python floats are IEEE doubles); docs/analysis.md lists the same numbers.
TEST(Sampler, Xoshiro256SeededByOneGivesTheGoldenOutputs) {
  Xoshiro256 r(1);
  EXPECT_EQ(r.next(), 0xb3f2af6d0fc710c5ULL);
  EXPECT_EQ(r.next(), 0x853b559647364ceaULL);
  EXPECT_EQ(r.next(), 0x92f89756082a4514ULL);
  EXPECT_EQ(r.next(), 0x642e1c7bc266a3a7ULL);
}

TEST(Sampler, UniformIsTheTop53BitsScaled) {
  Xoshiro256 r(1);
  EXPECT_EQ(uniform01(r), 0x1.67e55eda1f8e2p-1);
  EXPECT_EQ(uniform01(r), 0x1.0a76ab2c8e6c9p-1);
  EXPECT_EQ(uniform01(r), 0x1.25f12eac10548p-1);
}

TEST(Sampler, TruncatedNormalGoldenSamples) {
  Xoshiro256 r(1);
  EXPECT_EQ(truncated_normal(r), 0x1.c74e3010c3f60p-2);   // 0.444634200118335
  EXPECT_EQ(truncated_normal(r), 0x1.2eddb54f9cd30p+0);   // 1.1830704993597685
  EXPECT_EQ(truncated_normal(r), -0x1.c3d3ce4246d30p-3);  // -0.220618831060031
  EXPECT_EQ(truncated_normal(r), 0x1.545a7d9808e3cp-1);   // 0.6647528884972824
  EXPECT_EQ(truncated_normal(r), -0x1.258ebb757d72cp-1);  // -0.5733545857353639
}

TEST(Sampler, ExpNegIsAccurateOverItsRange) {
  for (int i = 0; i <= 4500; ++i) {
    const double y = i / 1000.0;
    EXPECT_NEAR(exp_neg(y) / std::exp(-y), 1, 4e-15) << y;
  }
  EXPECT_EQ(exp_neg(0), 1);
}

// Over 10^6 samples: within [−3, 3]; mean 0 and variance kTruncatedNormalStd² within five
// standard errors (variance of the sample variance ≈ (μ4 − σ⁴)/n, μ4 ≤ 3σ⁴ here).
TEST(Sampler, TruncatedNormalHasTheTruncatedMoments) {
  Xoshiro256 r(42);
  const int n = 1'000'000;
  double sum = 0, squares = 0;
  for (int i = 0; i < n; ++i) {
    const double z = truncated_normal(r);
    ASSERT_GE(z, -3);
    ASSERT_LE(z, 3);
    sum += z;
    squares += z * z;
  }
  const double mean = sum / n;
  const double variance = squares / n - mean * mean;
  const double v = kTruncatedNormalStd * kTruncatedNormalStd;
  EXPECT_NEAR(mean, 0, 5 * std::sqrt(v / n));
  EXPECT_NEAR(variance, v, 5 * std::sqrt(2.0 * v * v / n));
}

TEST(Sampler, UniformCoversTheUnitInterval) {
  Xoshiro256 r(7);
  const int n = 1'000'000;
  double sum = 0, lo = 1, hi = 0;
  for (int i = 0; i < n; ++i) {
    const double u = uniform01(r);
    ASSERT_GE(u, 0);
    ASSERT_LT(u, 1);
    sum += u;
    lo = std::min(lo, u);
    hi = std::max(hi, u);
  }
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_LT(lo, 1e-4);
  EXPECT_GT(hi, 1 - 1e-4);
}
