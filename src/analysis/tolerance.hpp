#pragma once
// Tolerance analysis of one tool around one set of nominal inputs (docs/analysis.md): the
// worst case over every corner of the toleranced inputs and every Monte Carlo sample,
// first-order propagation of the inputs' standard deviations (GUM, JCGM 100:2008 §5.1.2)
// with central differences at the nominal, Monte Carlo propagation of the distributions
// (JCGM 101:2008) and each input's share of the variance. Pure: no JSON, no HTTP; the
// request is checked by api/tolerance_request and the result rendered by api/.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analysis/sampler.hpp"
#include "analysis/statistics.hpp"
#include "catalog/descriptor.hpp"

namespace toolcalc::analysis {

enum class Distribution {
  Normal,   // the range is ±3σ around its centre; samples truncated to it
  Uniform,  // flat over the range
};

// Limits of a request (api/tolerance_request enforces them; the OpenAPI document states them).
inline constexpr int kMaxToleranced = 12;  // 2^12 = 4096 corners
inline constexpr int64_t kMinSamples = 100;
inline constexpr int64_t kMaxSamples = 100'000;
inline constexpr int64_t kDefaultSamples = 10'000;
inline constexpr uint64_t kDefaultSeed = 1;
inline constexpr uint64_t kMaxSeed = 9'007'199'254'740'991;  // 2^53 − 1: exact in JSON readers

// One toleranced input. The caller guarantees input bounds ≤ low ≤ nominal ≤ high ≤ input
// bounds and low < high (for an integer input: ⌈low⌉ < ⌊high⌋ or an integer other than the
// nominal in the range).
struct ToleranceSpec {
  size_t input = 0;  // descriptor index
  double nominal = 0;
  double low = 0, high = 0;
  Distribution distribution = Distribution::Normal;
  bool integer = false;  // an integer input: every value used is rounded to an integer
};

struct ToleranceOptions {
  std::vector<ToleranceSpec> inputs;  // 1..kMaxToleranced, in descriptor order
  int64_t samples = kDefaultSamples;
  uint64_t seed = kDefaultSeed;
};

// What each toleranced input's value is in the analysis: its mean and standard deviation
// (of the distribution before integer rounding), and the values its corners take.
double spec_mean(const ToleranceSpec& s);
double spec_std(const ToleranceSpec& s);
double corner_low(const ToleranceSpec& s);
double corner_high(const ToleranceSpec& s);
// One sample of the input's distribution: uniform, low + (high − low)·U; normal, the centre
// plus (high − low)/6 times a standard normal truncated to ±3 (sampler.hpp); then kept
// within [low, high] against rounding, and for an integer input rounded half away from
// zero and kept within [⌈low⌉, ⌊high⌋].
double draw(const ToleranceSpec& s, Xoshiro256& rng);

// The evaluations an analysis makes, known before it runs (the quota is charged for
// them): the nominal, two per toleranced input for its derivative, every corner, every
// sample.
int64_t tolerance_evaluations(size_t toleranced, int64_t samples);

// The toleranced inputs' values at one evaluation, in ToleranceOptions::inputs' order.
using Point = std::vector<double>;

struct Extreme {
  double value = 0;
  Point at;
};

struct Sensitivity {
  size_t toleranced = 0;  // index into ToleranceOptions::inputs
  double derivative = 0;  // ∂output/∂input at the nominal (output unit per input unit)
  double share_pct = 0;   // (c·u)² / Σ(c·u)² · 100
};

struct NumericOutcome {
  size_t output = 0;  // descriptor index
  double nominal = 0;
  Extreme min, max;  // the worst case: nominal, corners and samples
  // First-order propagation; absent when a derivative could not be computed (the tool
  // refused a point of the difference, or no difference fits the input's bounds).
  bool rss_known = false;
  double rss_sigma = 0, rss_min = 0, rss_max = 0;
  std::vector<Sensitivity> sensitivity;  // largest share first
  Summary monte_carlo;                   // over the samples that computed
};

struct TextCount {
  std::string value;
  int64_t count = 0;
};

struct TextOutcome {
  size_t output = 0;
  std::string nominal;
  std::vector<TextCount> samples;    // most frequent first, then by value
  std::vector<std::string> corners;  // distinct values, in corner order
};

struct FailedPoint {
  Point at;
  catalog::ToolError error;
};

struct ToleranceResult {
  int64_t evaluations = 0;
  int64_t failed_samples = 0, failed_corners = 0;
  std::optional<FailedPoint> first_failed_sample, first_failed_corner;
  std::vector<NumericOutcome> numeric;  // descriptor order
  std::vector<TextOutcome> text;        // descriptor order
};

// Why an analysis has no result: the tool refused the nominal inputs (execute's 422), or
// every Monte Carlo sample.
struct ToleranceFailure {
  enum class Kind { Nominal, EverySample } kind = Kind::Nominal;
  catalog::ToolError error;  // the tool's (for EverySample, the first sample's)
  Point at;                  // EverySample: the first sample's values
};

using ToleranceOutcome = std::variant<ToleranceResult, ToleranceFailure>;

// `nominal`: validate_inputs' result for `tool` (the toleranced inputs at their nominals).
// Throws std::logic_error on a defect of the tool (an output unset or non-finite).
ToleranceOutcome run_tolerance(const catalog::Tool& tool, const catalog::Inputs& nominal,
                               const ToleranceOptions& options);

// The three-sigma coverage factor of rss_min/rss_max: the ±3σ of a normal tolerance.
inline constexpr double kRssCoverage = 3;

// The relative step of the central differences: ε^(1/3), which balances truncation
// (O(h²)) and rounding (O(ε/h)) errors (Numerical Recipes 3rd ed. §5.7).
inline constexpr double kDifferenceStep = 6.055454452393339e-06;

}  // namespace toolcalc::analysis
