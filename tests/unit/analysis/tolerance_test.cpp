// Tolerance analysis against closed forms: a linear function's RSS σ and sensitivities
// exactly, its Monte Carlo mean and σ within statistical bounds, the corners of a monotone
// tool equal to the analytic extremes, and what happens with failures, text outputs,
// integer inputs, one-sided differences and a fixed seed.
#include "analysis/tolerance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numeric>

#include "analysis_test_support.hpp"
#include "catalog/registry.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
using namespace toolcalc::analysis;
using analysis_test::linear_tool;
using analysis_test::validated;

namespace {

constexpr size_t kX = 0, kY = 1, kN = 2;
constexpr size_t kF = 0, kG = 1;

ToleranceSpec spec(size_t input, double nominal, double low, double high,
                   Distribution d = Distribution::Normal, bool integer = false) {
  return {input, nominal, low, high, d, integer};
}

const ToleranceResult& result_of(const ToleranceOutcome& o) {
  if (const auto* f = std::get_if<ToleranceFailure>(&o))
    throw std::runtime_error("analysis failed: " + f->error.message);
  return std::get<ToleranceResult>(o);
}

const NumericOutcome& numeric(const ToleranceResult& r, size_t output) {
  for (const auto& n : r.numeric)
    if (n.output == output) return n;
  throw std::runtime_error("no such output");
}

}  // namespace

// f = 2x − 0.5y + 3n + 7 at x = 10 ± 10 %, y = 100 ± 20: f = −8.
TEST(Tolerance, LinearFunctionRssIsTheClosedForm) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":10,"y":100,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 10, 9, 11), spec(kY, 100, 80, 120)};
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const ToleranceResult& r = result_of(outcome);
  const NumericOutcome& f = numeric(r, kF);
  EXPECT_EQ(f.nominal, -8);

  const double ux = 2.0 / 6 * kTruncatedNormalStd, uy = 40.0 / 6 * kTruncatedNormalStd;
  const double sigma = std::hypot(2 * ux, 0.5 * uy);
  ASSERT_TRUE(f.rss_known);
  EXPECT_NEAR(f.rss_sigma, sigma, 1e-8 * sigma);
  EXPECT_NEAR(f.rss_min, -8 - 3 * sigma, 1e-8);
  EXPECT_NEAR(f.rss_max, -8 + 3 * sigma, 1e-8);
  ASSERT_EQ(f.sensitivity.size(), 2u);
  EXPECT_EQ(f.sensitivity[0].toleranced, 1u);  // y: (0.5·40)² ≫ (2·2)²
  EXPECT_NEAR(f.sensitivity[0].derivative, -0.5, 1e-9);
  EXPECT_NEAR(f.sensitivity[1].derivative, 2, 1e-9);
  EXPECT_NEAR(f.sensitivity[0].share_pct, 100 * std::pow(0.5 * uy / sigma, 2), 1e-6);
  EXPECT_NEAR(f.sensitivity[0].share_pct + f.sensitivity[1].share_pct, 100, 1e-9);

  // Monte Carlo: the mean within 5 standard errors, σ within 5 standard errors of the
  // sample σ (≈ σ/√(2n) for a distribution with kurtosis ≤ 3, as these sums have).
  const Summary& mc = f.monte_carlo;
  const double n = static_cast<double>(o.samples);
  EXPECT_EQ(mc.count, o.samples);
  EXPECT_NEAR(mc.mean, -8, 5 * sigma / std::sqrt(n));
  EXPECT_NEAR(mc.std, sigma, 5 * sigma / std::sqrt(2 * n));
  EXPECT_NEAR(mc.percentiles[2], -8, 0.1);  // the median of a symmetric distribution

  // Worst case: a linear function's extremes are corners, exactly.
  EXPECT_EQ(f.min.value, 2 * 9 - 0.5 * 120 + 22);  // −20
  EXPECT_EQ(f.min.at, (Point{9, 120}));
  EXPECT_EQ(f.max.value, 2 * 11 - 0.5 * 80 + 22);  // 4
  EXPECT_EQ(f.max.at, (Point{11, 80}));
  EXPECT_LE(f.min.value, mc.min);
  EXPECT_GE(f.max.value, mc.max);
  EXPECT_EQ(r.evaluations, tolerance_evaluations(2, o.samples));
  EXPECT_EQ(r.failed_samples, 0);
  EXPECT_EQ(r.failed_corners, 0);
}

TEST(Tolerance, UniformInputsHaveTheUniformSigma) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":10,"y":100,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 10, 9, 11, Distribution::Uniform)};
  o.samples = 100000;
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const NumericOutcome& f = numeric(result_of(outcome), kF);
  const double sigma = 2 * 2 / std::sqrt(12.0);
  EXPECT_NEAR(f.rss_sigma, sigma, 1e-8);
  EXPECT_NEAR(f.monte_carlo.std, sigma, 5 * sigma / std::sqrt(2 * 100000.0 * 5 / 9));
  EXPECT_NEAR(f.monte_carlo.mean, -8, 5 * sigma / std::sqrt(100000.0));
  // Flat: each of the histogram's bins holds about the same count.
  const auto& counts = f.monte_carlo.histogram.counts;
  ASSERT_EQ(counts.size(), 50u);
  for (const int64_t c : counts) EXPECT_NEAR(c, 2000, 5 * std::sqrt(2000.0));
}

// A min/max range not centred on the nominal moves the first-order centre.
TEST(Tolerance, AnOffCentreRangeShiftsTheRssCentre) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":10,"y":100,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 10, 9, 13)};  // centre 11
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const NumericOutcome& f = numeric(result_of(outcome), kF);
  const double sigma = 2 * 4.0 / 6 * kTruncatedNormalStd;
  EXPECT_NEAR(f.rss_min, -6 - 3 * sigma, 1e-8);
  EXPECT_NEAR(f.rss_max, -6 + 3 * sigma, 1e-8);
  EXPECT_NEAR(f.monte_carlo.mean, -6, 5 * sigma / 100);
}

// A nominal at the input's upper bound: a backward difference, exact for a line but for
// rounding: ε·|f|/h ≈ 2e-16·222/3e-6 here, where y's step is 10^-5.2 of its half range.
TEST(Tolerance, AtABoundTheDifferenceIsOneSided) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":100,"y":0,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 100, 99, 100), spec(kY, 0, 0, 1)};
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const ToleranceResult& r = result_of(outcome);
  const NumericOutcome& f = numeric(r, kF);
  ASSERT_TRUE(f.rss_known);
  for (const auto& s : f.sensitivity) EXPECT_NEAR(s.derivative, s.toleranced == 0 ? 2 : -0.5, 1e-7);
  // g = (x − 1)²: derivative 2(x − 1) = 198 at the bound.
  for (const auto& s : numeric(r, kG).sensitivity) {
    if (s.toleranced == 0) {
      EXPECT_NEAR(s.derivative, 198, 1e-6);
    }
  }
}

// g = (x − 1)² around x = 1: the derivative is 0, so RSS says nothing varies; the corners
// and samples show the real spread, and the worst case holds it.
TEST(Tolerance, ANonMonotoneOutputIsNeverNarrowerThanItsSamples) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":1,"y":100,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 1, 0.5, 1.5)};
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const NumericOutcome& g = numeric(result_of(outcome), kG);
  EXPECT_NEAR(g.rss_sigma, 0, 1e-9);
  EXPECT_EQ(g.min.value, 0);  // the nominal
  EXPECT_EQ(g.max.value, 0.25);
  EXPECT_LE(g.min.value, g.monte_carlo.min);
  EXPECT_GE(g.max.value, g.monte_carlo.max);
  EXPECT_GT(g.monte_carlo.max, 0.1);
}

TEST(Tolerance, TheSameOptionsGiveTheSameBits) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":10,"y":100,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 10, 9, 11), spec(kY, 100, 80, 120, Distribution::Uniform)};
  o.samples = 1000;
  o.seed = 12345;
  const NumericOutcome a = numeric(result_of(run_tolerance(tool, nominal, o)), kF);
  const NumericOutcome b = numeric(result_of(run_tolerance(tool, nominal, o)), kF);
  EXPECT_EQ(a.monte_carlo.mean, b.monte_carlo.mean);
  EXPECT_EQ(a.monte_carlo.std, b.monte_carlo.std);
  EXPECT_EQ(a.monte_carlo.percentiles, b.monte_carlo.percentiles);
  EXPECT_EQ(a.monte_carlo.histogram.counts, b.monte_carlo.histogram.counts);
  o.seed = 12346;
  const NumericOutcome c = numeric(result_of(run_tolerance(tool, nominal, o)), kF);
  EXPECT_NE(a.monte_carlo.mean, c.monte_carlo.mean);
}

TEST(Tolerance, IntegerInputsTakeIntegerValues) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":10,"y":100,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kN, 5, 2.5, 7.5, Distribution::Uniform, true)};
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const ToleranceResult& r = result_of(outcome);
  const NumericOutcome& f = numeric(r, kF);
  // Corners at ⌈2.5⌉ = 3 and ⌊7.5⌋ = 7: f = −8 + 3·(n − 5).
  EXPECT_EQ(f.min.value, -14);
  EXPECT_EQ(f.max.value, -2);
  // Every sample is an integer n, so f + 8 = 3·(n − 5) is a multiple of 3.
  for (const double v : {f.monte_carlo.min, f.monte_carlo.max, f.monte_carlo.percentiles[2]})
    EXPECT_EQ(std::fmod(v + 8, 3), 0) << v;
  EXPECT_NEAR(f.sensitivity.at(0).derivative, 3, 1e-12);  // a step of 1
}

TEST(Tolerance, RefusedSamplesAreCountedWithTheFirst) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs nominal = validated(tool, R"({"x":10,"y":850,"n":5})");
  ToleranceOptions o;
  o.inputs = {spec(kX, 10, 9, 11), spec(kY, 850, 750, 950, Distribution::Uniform)};
  const ToleranceOutcome outcome = run_tolerance(tool, nominal, o);
  const ToleranceResult& r = result_of(outcome);
  // y > 900 on a quarter of the uniform range.
  EXPECT_NEAR(static_cast<double>(r.failed_samples), 2500, 5 * std::sqrt(10000 * 0.25 * 0.75));
  ASSERT_TRUE(r.first_failed_sample);
  EXPECT_GT(r.first_failed_sample->at[1], 900);
  EXPECT_EQ(r.first_failed_sample->error.field, "y");
  EXPECT_EQ(r.failed_corners, 2);  // the two with y = 950
  ASSERT_TRUE(r.first_failed_corner);
  EXPECT_EQ(r.first_failed_corner->at, (Point{9, 950}));
  const NumericOutcome& f = numeric(r, kF);
  EXPECT_EQ(f.monte_carlo.count, 10000 - r.failed_samples);
  EXPECT_GE(f.min.value, 2 * 9 - 0.5 * 900 + 22 - 1e-9);  // nothing past y = 900 counted
}

TEST(Tolerance, EverySampleRefusedOrTheNominalRefusedIsAFailure) {
  const catalog::Tool tool = linear_tool();
  ToleranceOptions o;
  o.inputs = {spec(kY, 900, 900, 1000, Distribution::Uniform)};
  o.samples = 100;
  const ToleranceOutcome all = run_tolerance(tool, validated(tool, R"({"y":900})"), o);
  const auto* f = std::get_if<ToleranceFailure>(&all);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, ToleranceFailure::Kind::EverySample);
  EXPECT_EQ(f->error.field, "y");
  ASSERT_EQ(f->at.size(), 1u);
  EXPECT_GT(f->at[0], 900);

  o.inputs = {spec(kY, 950, 940, 960)};
  const ToleranceOutcome nominal = run_tolerance(tool, validated(tool, R"({"y":950})"), o);
  f = std::get_if<ToleranceFailure>(&nominal);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, ToleranceFailure::Kind::Nominal);
}

TEST(Tolerance, TextOutputsAreCountedOverSamplesAndSeenAtCorners) {
  const catalog::Tool tool = linear_tool();
  ToleranceOptions o;
  o.inputs = {spec(kX, 50, 40, 60, Distribution::Uniform)};
  const ToleranceOutcome outcome = run_tolerance(tool, validated(tool, R"({"x":50})"), o);
  const ToleranceResult& r = result_of(outcome);
  ASSERT_EQ(r.text.size(), 1u);
  const TextOutcome& t = r.text[0];
  EXPECT_EQ(t.nominal, "ok");
  EXPECT_EQ(t.corners, (std::vector<std::string>{"ok", "high"}));
  ASSERT_EQ(t.samples.size(), 2u);
  EXPECT_EQ(t.samples[0].count + t.samples[1].count, 10000);
  EXPECT_GE(t.samples[0].count, t.samples[1].count);
  EXPECT_NEAR(static_cast<double>(t.samples[0].count), 5000, 5 * 50);
}

// The catalog's voltage divider with 1 % resistors (docs/analysis.md's worked example):
// its corners are the analytic extremes Vin·R2/(R1 + R2) at (R1 high, R2 low) and
// (R1 low, R2 high).
TEST(Tolerance, TheDividersCornersAreTheAnalyticExtremes) {
  const std::filesystem::path source = TOOLCALC_SOURCE_DIR;
  const auto tools = tools::all_tools({source / "catalog"});
  const catalog::Tool* divider = nullptr;
  for (const auto& t : tools)
    if (t.descriptor.slug == "voltage-divider") divider = &t;
  ASSERT_NE(divider, nullptr);
  size_t r1 = 0, r2 = 0, vout = 0;
  for (size_t i = 0; i < divider->descriptor.inputs.size(); ++i) {
    if (divider->descriptor.inputs[i].key == "r1_ohm") r1 = i;
    if (divider->descriptor.inputs[i].key == "r2_ohm") r2 = i;
  }
  for (size_t i = 0; i < divider->descriptor.outputs.size(); ++i)
    if (divider->descriptor.outputs[i].key == "vout_v") vout = i;
  const catalog::Inputs nominal =
      validated(*divider, R"({"vin_v":12,"r1_ohm":27000,"r2_ohm":10000})");
  ToleranceOptions o;
  o.inputs = {spec(r1, 27000, 26730, 27270), spec(r2, 10000, 9900, 10100)};
  const ToleranceOutcome outcome = run_tolerance(*divider, nominal, o);
  const NumericOutcome& v = numeric(result_of(outcome), vout);
  EXPECT_NEAR(v.min.value, 12 * 9900 / (27270 + 9900.0), 1e-14);
  EXPECT_EQ(v.min.at, (Point{27270, 9900}));
  EXPECT_NEAR(v.max.value, 12 * 10100 / (26730 + 10100.0), 1e-14);
  EXPECT_EQ(v.max.at, (Point{26730, 10100}));
  // RSS by hand: ∂V/∂R1 = −Vin·R2/(R1+R2)², ∂V/∂R2 = Vin·R1/(R1+R2)².
  const double s = 37000.0 * 37000.0;
  const double c1 = -12 * 10000 / s, c2 = 12 * 27000 / s;
  const double u1 = 540.0 / 6 * kTruncatedNormalStd, u2 = 200.0 / 6 * kTruncatedNormalStd;
  EXPECT_NEAR(v.rss_sigma, std::hypot(c1 * u1, c2 * u2), 1e-10);
  // Equal relative tolerances on R1 and R2: equal shares (|c1|·R1 = |c2|·R2).
  EXPECT_NEAR(v.sensitivity[0].share_pct, 50, 1e-4);
}
