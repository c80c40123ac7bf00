#pragma once
// Solving a tool for one input (docs/analysis.md, "Solve"): every value of a numeric input,
// within its bounds, where an unrounded numeric output equals a target. A scan of the
// bounds finds the sign changes of f(x) − V, and the near-touching minima of |f(x) − V|
// that a parabola through three scan points says may reach zero; Brent's methods refine
// each (roots.hpp). Pure: no JSON, no HTTP.
#include <cstdint>
#include <optional>
#include <vector>

#include "catalog/descriptor.hpp"

namespace toolcalc::analysis {

// The scan: kScanIntervals equal steps over the bounds, and as many more in equal ratios
// when the bounds span more than two decades of positive values (from 10^-9 of the upper
// bound when the lower one is 0), so that a root near the low end of a range such as
// 100 Ω … 10 MΩ is not stepped over; the nominal value is a scan point too. The ratios
// come from repeated geometric means (√a·√b), so the points are the same on every machine.
inline constexpr int kScanHalvings = 8;
inline constexpr int kScanIntervals = 1 << kScanHalvings;  // 256
inline constexpr double kGeometricFloor = 1e-9;
// Evaluations one solve may make in all (scan, refinement, the result at each solution):
// what the quota reserves; the budget also bounds the time of one call.
inline constexpr int64_t kSolveEvaluationBudget = 2000;
// Solutions reported at most (the nearest to the nominal); more make `complete` false.
inline constexpr size_t kMaxSolutions = 32;
// A minimum of |f − V|, or the end of a closed bracket, counts as reaching the target when
// it is within this fraction of max(|V|, the largest |f| seen): rounding in the tool's own
// arithmetic is far below it, and a jump of the output across V far above it.
inline constexpr double kTouchTolerance = 1e-10;

struct SolveOptions {
  size_t input = 0;   // descriptor index of the varied input (number or integer)
  size_t output = 0;  // descriptor index of the numeric output
  double target = 0;
  double reference = 0;  // the input's nominal: solutions are ordered by distance from it
};

struct Solution {
  double value = 0;          // the input's value
  catalog::Outputs outputs;  // the tool's outputs there
};

struct SolveResult {
  std::vector<Solution> solutions;  // nearest the reference first
  // The output's least and greatest values among every evaluation that computed; absent
  // when none did.
  std::optional<double> reach_min, reach_max;
  int64_t evaluations = 0;
  // False when the budget or kMaxSolutions cut the search short: there may be more.
  bool complete = true;
  std::optional<catalog::ToolError> first_failure;  // the first point the tool refused
};

// The points the scan evaluates, ascending, distinct, within [low, high]; integers for an
// integer input (every integer when there are few enough).
std::vector<double> scan_points(double low, double high, double reference, bool integer);

// `nominal`: validate_inputs' result for the tool, the varied input at `reference`.
// Throws std::logic_error on a defect of the tool (an output unset or non-finite).
SolveResult run_solve(const catalog::Tool& tool, const catalog::Inputs& nominal,
                      const SolveOptions& options);

}  // namespace toolcalc::analysis
