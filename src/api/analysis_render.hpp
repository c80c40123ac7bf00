#pragma once
// The `result` objects of the tolerance and solve endpoints (docs/api.md, "Analyses"),
// written from src/analysis's results. Numbers are plain decimals, never exponent
// notation (core/json_writer).
#include <string>

#include "analysis/solve.hpp"
#include "analysis/tolerance.hpp"
#include "api/solve_request.hpp"
#include "api/tolerance_request.hpp"
#include "catalog/descriptor.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api {

// How many decimals an output's tolerance statistics are written with: the output's
// precision, or more where σ needs them to show three significant digits (2 − e, with e
// the decimal exponent of σ's shortest form: σ = 0.0123 → 4 places), at most 15. σ is the
// Monte Carlo standard deviation, or the RSS σ when that is 0; when both are 0 the
// precision alone.
int statistic_places(int precision, double sigma);

// `x` with 6 significant digits as a plain decimal (derivatives): at most 15 places.
void write_significant(JsonWriter& w, double x);

void render_tolerance_result(std::string& out, const catalog::ToolDescriptor& tool,
                             const ToleranceRequest& request,
                             const analysis::ToleranceResult& result);

void render_solve_result(std::string& out, const catalog::ToolDescriptor& tool,
                         const SolveRequest& request, const analysis::SolveResult& result);

}  // namespace toolcalc::api
