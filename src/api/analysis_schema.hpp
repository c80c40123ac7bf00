#pragma once
// JSON Schema (2020-12) of the analysis endpoints' bodies and results (docs/api.md,
// "Analyses"). One generator for both fronts: the OpenAPI document (per tool, exact: the
// tool's inputs, numeric inputs and outputs enumerated; shared pieces as components) and
// MCP's tolerance_analysis and solve_for_input (one schema over every tool, with a `tool`
// argument, self-contained), so they cannot disagree with each other or with the parsers.
#include <string>
#include <string_view>
#include <vector>

#include "catalog/descriptor.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::analysis_schema {

// The pieces every tool shares. With `refs` (OpenAPI) a piece is written as a $ref to the
// component of its name (write_components defines them); without, inline.
enum class Piece { ToleranceRange, NumericOutcome, TextOutcome, FailedPoint, InputValues };
std::string_view component_name(Piece piece);
struct Style {
  bool refs = false;
};
void write_piece(JsonWriter& w, Piece piece, const Style& style);
// The components of the shared pieces: "<name>": {…} for each.
void write_components(JsonWriter& w);

// Which tools have the endpoints: a numeric input for both, a numeric output for solve.
bool has_tolerance(const catalog::ToolDescriptor& tool);
bool has_solve(const catalog::ToolDescriptor& tool);

// Per tool (OpenAPI; `tool_result_schema`: the component of the tool's execute result).
void write_tolerance_request(JsonWriter& w, const catalog::ToolDescriptor& tool);
void write_tolerance_result(JsonWriter& w, const catalog::ToolDescriptor& tool);
void write_solve_request(JsonWriter& w, const catalog::ToolDescriptor& tool);
void write_solve_result(JsonWriter& w, const catalog::ToolDescriptor& tool,
                        std::string_view tool_result_schema);

// The analyses' limits as the documents state them, written from the constants
// (analysis/tolerance.hpp, analysis/solve.hpp, api/limits.hpp) so that no text can drift
// from what the endpoints enforce: "1 to 12" toleranced inputs, "1,000" evaluations per
// quota unit (times the tool's cost class), the solve's "2,000"-evaluation budget.
std::string toleranced_inputs_range();
std::string evaluations_per_quota_unit();
std::string solve_evaluation_budget();

// MCP: the arguments (the REST body plus `tool`, one of `tool_names`) and the result.
void write_mcp_tolerance_input(JsonWriter& w, const std::vector<std::string>& tool_names);
void write_mcp_tolerance_output(JsonWriter& w);
void write_mcp_solve_input(JsonWriter& w, const std::vector<std::string>& tool_names);
void write_mcp_solve_output(JsonWriter& w);

}  // namespace toolcalc::api::analysis_schema
