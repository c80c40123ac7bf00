#pragma once
// The pseudo-random numbers of the tolerance analysis, the same bits on every machine:
// xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators", ACM
// TOMS 47(4), 2021; preprint 2018), seeded by SplitMix64 (Steele, Lea & Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014), the reference algorithms of
// https://prng.di.unimi.it/. The transforms to doubles use only IEEE 754 basic operations
// (+ − × ÷ and comparisons), so a given seed gives bit-identical samples on every IEEE
// machine; no std:: distribution is used (their algorithms are implementation-defined).
// docs/analysis.md, "The generator".
#include <cstdint>

#include "core/wrapping.hpp"

namespace toolcalc::analysis {

// SplitMix64: a 64-bit counter stepped by the golden-ratio constant, then mixed. Used only
// to expand a seed into xoshiro's 256-bit state (what its authors recommend).
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  TOOLCALC_WRAPPING uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// xoshiro256**: period 2^256 − 1, passes BigCrush and PractRand; 64-bit outputs.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    SplitMix64 expand(seed);
    for (uint64_t& word : s_) word = expand.next();
  }
  TOOLCALC_WRAPPING uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  TOOLCALC_WRAPPING static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// A double uniform on [0, 1): the top 53 bits of one output times 2^-53 (exact).
inline double uniform01(Xoshiro256& rng) {
  return static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

// e^-y for 0 ≤ y ≤ 4.5 with basic operations only: e^-y = (e^-(y/16))^16, the inner
// factor by its Taylor series to degree 13 (|y/16| ≤ 0.282: truncation below 1e-18), then
// four squarings. Relative error a few units in the last place; the point is not the last
// bit but that every machine computes the same one.
double exp_neg(double y);

// A standard normal truncated to [−3, 3], by rejection from the uniform on [−3, 3): a
// proposal z is kept with probability e^(−z²/2), decided first by the bounds
// 1 − y ≤ e^−y ≤ 1/(1 + y) (y = z²/2) and only between them by exp_neg. About 2.4
// proposals (two uniforms each) per sample: the acceptance rate is √(2π)·0.9973/6 = 0.417.
double truncated_normal(Xoshiro256& rng);

// truncated_normal(rng)'s values, the same ones in the same order, computed in batches:
// a batch of proposals is drawn (two uniforms each, in the order truncated_normal draws
// them), every proposal's acceptance decided by the same tests on the same numbers but
// without a branch per test (a proposal is kept with probability 0.42, which a branch
// predictor cannot guess), and the kept ones queued. Only for a generator nothing else
// draws from meanwhile: the stream draws ahead of what it hands out.
class TruncatedNormalStream {
 public:
  explicit TruncatedNormalStream(Xoshiro256& rng) : rng_(rng) {}
  double next() {
    if (at_ == kept_) refill();
    return kept_values_[at_++];
  }

 private:
  static constexpr int kProposals = 128;
  void refill();
  Xoshiro256& rng_;
  double kept_values_[kProposals];
  int at_ = 0, kept_ = 0;
};

// The standard deviation of that truncated normal, in units of the untruncated σ:
// √(1 − 6·φ(3)/(2Φ(3) − 1)) (the variance of a normal truncated at ±3σ).
inline constexpr double kTruncatedNormalStd = 0.98657839255810862;

}  // namespace toolcalc::analysis
