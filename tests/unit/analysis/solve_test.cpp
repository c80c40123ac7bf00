// Solving for an input: roots of closed forms, their order, tangents, integer inputs,
// unreachable targets, refused points, and round trips (the tool at each solution gives
// the target).
#include "analysis/solve.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "analysis_test_support.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
using namespace toolcalc::analysis;
using analysis_test::linear_tool;
using analysis_test::validated;

namespace {

constexpr size_t kX = 0, kY = 1, kN = 2;
constexpr size_t kF = 0, kG = 1;

std::vector<double> values(const SolveResult& r) {
  std::vector<double> v;
  for (const auto& s : r.solutions) v.push_back(s.value);
  return v;
}

}  // namespace

TEST(Solve, ALinearOutputHasOneExactRoot) {
  const catalog::Tool tool = linear_tool();
  // f = 2x − 28 with y = 100, n = 5: f = 0 at x = 14.
  const SolveResult r =
      run_solve(tool, validated(tool, R"({"x":10,"y":100,"n":5})"), {kX, kF, 0, 10});
  ASSERT_EQ(r.solutions.size(), 1u);
  EXPECT_NEAR(r.solutions[0].value, 14, 1e-13);
  EXPECT_NEAR(r.solutions[0].outputs.number("f"), 0, 1e-12);  // the round trip
  EXPECT_EQ(*r.reach_min, 2 * -100 - 28);
  EXPECT_EQ(*r.reach_max, 2 * 100 - 28);
  EXPECT_TRUE(r.complete);
  EXPECT_LE(r.evaluations, kSolveEvaluationBudget);
}

TEST(Solve, EveryRootNearestTheNominalFirst) {
  const catalog::Tool tool = linear_tool();
  // g = (x − 1)² = 4 at x = 3 and x = −1; from x = 10, 3 is nearer.
  const SolveResult r = run_solve(tool, validated(tool, R"({"x":10})"), {kX, kG, 4, 10});
  ASSERT_EQ(r.solutions.size(), 2u);
  EXPECT_NEAR(r.solutions[0].value, 3, 1e-14);
  EXPECT_NEAR(r.solutions[1].value, -1, 1e-14);
  for (const auto& s : r.solutions) EXPECT_NEAR(s.outputs.number("g"), 4, 1e-12);
  // From x = −50, −1 is nearer.
  const SolveResult s = run_solve(tool, validated(tool, R"({"x":-50})"), {kX, kG, 4, -50});
  EXPECT_EQ(values(s).size(), 2u);
  EXPECT_NEAR(s.solutions.at(0).value, -1, 1e-14);
}

TEST(Solve, AMinimumThatTouchesTheTargetIsASolution) {
  const catalog::Tool tool = linear_tool();
  // g = (x − 1)² = 0 only at x = 1, where g does not change sign.
  const SolveResult r = run_solve(tool, validated(tool, R"({"x":10})"), {kX, kG, 0, 10});
  ASSERT_EQ(r.solutions.size(), 1u);
  EXPECT_NEAR(r.solutions[0].value, 1, 1e-6);
  EXPECT_LE(r.solutions[0].outputs.number("g"), 1e-12);
}

TEST(Solve, AnUnreachableTargetHasNoSolutionAndTheRangeReached) {
  const catalog::Tool tool = linear_tool();
  const SolveResult r = run_solve(tool, validated(tool, R"({"x":10})"), {kX, kG, -1, 10});
  EXPECT_TRUE(r.solutions.empty());
  ASSERT_TRUE(r.reach_min && r.reach_max);
  EXPECT_GE(*r.reach_min, 0);
  EXPECT_LT(*r.reach_min, 0.05);  // the scan point nearest x = 1
  EXPECT_EQ(*r.reach_max, 101 * 101);
}

TEST(Solve, IntegerInputsTakeTheIntegerNearestTheTarget) {
  const catalog::Tool tool = linear_tool();
  const catalog::Inputs in = validated(tool, R"({"x":10,"y":100,"n":5})");
  // f = −23 + 3n: 1 at n = 8 exactly.
  SolveResult r = run_solve(tool, in, {kN, kF, 1, 5});
  ASSERT_EQ(values(r), std::vector<double>{8});
  // 2 lies between n = 8 (f = 1) and n = 9 (f = 4): 8 is nearer the target.
  r = run_solve(tool, in, {kN, kF, 2, 5});
  EXPECT_EQ(values(r), std::vector<double>{8});
}

TEST(Solve, PointsTheToolRefusesAreSkippedAndTheFirstKept) {
  const catalog::Tool tool = linear_tool();
  // f = 42 − 0.5y, refused for y > 900: −420 would need y = 924.
  const SolveResult r =
      run_solve(tool, validated(tool, R"({"x":10,"y":100,"n":5})"), {kY, kF, -420, 100});
  EXPECT_TRUE(r.solutions.empty());
  ASSERT_TRUE(r.first_failure);
  EXPECT_EQ(r.first_failure->field, "y");
  // The least f computed: at the last scan point below y = 900.
  EXPECT_GT(*r.reach_min, 42 - 0.5 * 900);
  EXPECT_LT(*r.reach_min, 42 - 0.5 * 890);
}

TEST(Solve, ScanPointsCoverTheBoundsAndTheirDecades) {
  std::vector<double> xs = scan_points(-40, 125, 25, false);
  EXPECT_EQ(xs.front(), -40);
  EXPECT_EQ(xs.back(), 125);
  EXPECT_TRUE(std::is_sorted(xs.begin(), xs.end()));
  EXPECT_EQ(xs.size(), static_cast<size_t>(kScanIntervals) + 2);  // + the nominal, 25
  // 100 Ω … 10 MΩ: the geometric half puts points in every decade.
  xs = scan_points(100, 1e7, 27000, false);
  EXPECT_GT(std::count_if(xs.begin(), xs.end(), [](double x) { return x < 1000; }), 40);
  EXPECT_TRUE(std::adjacent_find(xs.begin(), xs.end()) == xs.end());
  // From 0: geometric from 10^-9 of the top.
  xs = scan_points(0, 1, 0.5, false);
  EXPECT_EQ(xs.front(), 0);
  EXPECT_NEAR(xs[1], 1e-9, 1e-24);
  // Integers: every one when few.
  xs = scan_points(0, 100, 5, true);
  EXPECT_EQ(xs.size(), 101u);
}

// The catalog's divider: R2 for 3.3 V out of 12 V with R1 = 27 kΩ is 3.3·27000/8.7.
TEST(Solve, TheDividerRoundTrips) {
  const std::filesystem::path source = TOOLCALC_SOURCE_DIR;
  const auto tools = tools::all_tools({source / "catalog"});
  const catalog::Tool* divider = nullptr;
  for (const auto& t : tools)
    if (t.descriptor.slug == "voltage-divider") divider = &t;
  ASSERT_NE(divider, nullptr);
  const catalog::Inputs in = validated(*divider, R"({"vin_v":12,"r1_ohm":27000,"r2_ohm":10000})");
  const SolveResult r = run_solve(*divider, in, {2, 0, 3.3, 10000});  // r2_ohm → vout_v
  ASSERT_EQ(r.solutions.size(), 1u);
  EXPECT_NEAR(r.solutions[0].value, 3.3 * 27000 / 8.7, 1e-9);
  EXPECT_NEAR(r.solutions[0].outputs.number("vout_v"), 3.3, 1e-14);
}
