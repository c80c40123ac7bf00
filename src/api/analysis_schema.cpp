#include "api/analysis_schema.hpp"

#include "analysis/solve.hpp"
#include "analysis/tolerance.hpp"
#include "api/limits.hpp"
#include "catalog/json_schema.hpp"

namespace toolcalc::api::analysis_schema {

using catalog::InputDescriptor;
using catalog::OutputType;
using catalog::ToolDescriptor;

namespace {

// 1000 → "1,000": a count as prose writes it.
std::string grouped(int64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<size_t>(i), ",");
  return digits;
}

void numeric_input_enum(JsonWriter& w, const ToolDescriptor& t) {
  w.key("enum").begin_array();
  for (const auto& in : t.inputs)
    if (in.is_numeric()) w.string(in.key);
  w.end_array();
}

void numeric_output_enum(JsonWriter& w, const ToolDescriptor& t) {
  w.key("enum").begin_array();
  for (const auto& out : t.outputs)
    if (out.type == OutputType::Number) w.string(out.key);
  w.end_array();
}

void number(JsonWriter& w, std::string_view key, std::string_view description = {}) {
  w.key(key).begin_object().field("type", "number");
  if (!description.empty()) w.field("description", description);
  w.end_object();
}

void integer(JsonWriter& w, std::string_view key, int64_t minimum, std::string_view description) {
  w.key(key).begin_object().field("type", "integer").key("minimum").integer(minimum);
  w.field("description", description).end_object();
}

void strings(JsonWriter& w, std::initializer_list<std::string_view> values) {
  w.begin_array();
  for (const auto v : values) w.string(v);
  w.end_array();
}

void distribution(JsonWriter& w, std::string_view description, bool with_default) {
  w.key("distribution").begin_object().field("type", "string");
  w.key("enum");
  strings(w, {"normal", "uniform"});
  if (with_default) w.field("default", "normal");
  w.field("description", description).end_object();
}

// "oneOf": [null, piece]
void nullable(JsonWriter& w, std::string_view key, Piece piece, const Style& style) {
  w.key(key).begin_object().key("oneOf").begin_array();
  w.begin_object().field("type", "null").end_object();
  write_piece(w, piece, style);
  w.end_array().end_object();
}

void write_range(JsonWriter& w) {
  w.begin_object().field("type", "object");
  w.field("description",
          "The range of one numeric input around its nominal: exactly one of `pct` (± that "
          "% of the nominal), `abs` (± that much, in the input's unit) or `min` with `max` "
          "(min ≤ nominal ≤ max). It must stay within the input's bounds (else 400, never "
          "clipped). `distribution` overrides the body's for this input.");
  w.key("oneOf").begin_array();
  w.begin_object().key("required");
  strings(w, {"pct"});
  w.end_object();
  w.begin_object().key("required");
  strings(w, {"abs"});
  w.end_object();
  w.begin_object().key("required");
  strings(w, {"min", "max"});
  w.end_object();
  w.end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("pct").begin_object().field("type", "number").field("exclusiveMinimum", 0);
  w.field("description", "± this percentage of the nominal.").end_object();
  w.key("abs").begin_object().field("type", "number").field("exclusiveMinimum", 0);
  w.field("description", "± this amount, in the input's unit.").end_object();
  number(w, "min", "The low end of the range, at most the nominal.");
  number(w, "max", "The high end of the range, at least the nominal; above `min`.");
  distribution(w, "This input's distribution (default: the body's `distribution`).", false);
  w.end_object().end_object();
}

void write_input_values(JsonWriter& w) {
  w.begin_object().field("type", "object");
  w.field("description", "The toleranced inputs' values at that point, by key.");
  w.key("additionalProperties").begin_object().field("type", "number").end_object();
  w.end_object();
}

void write_failed_point(JsonWriter& w, const Style& style) {
  w.begin_object().field("type", "object");
  w.field("description", "An evaluation the tool refused (its 422 case).");
  w.key("required");
  strings(w, {"inputs", "message"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("inputs");
  write_piece(w, Piece::InputValues, style);
  w.key("message").begin_object().field("type", "string").end_object();
  w.key("field").begin_object().field("type", "string");
  w.field("description", "The input the tool named.").end_object();
  w.end_object().end_object();
}

void write_numeric_outcome(JsonWriter& w, const Style& style) {
  w.begin_object().field("type", "object");
  w.field("description",
          "One number output's statistics, each written with the output's precision or more "
          "decimals where σ needs them (docs/analysis.md).");
  w.key("required");
  strings(w, {"nominal", "worst_case", "rss", "monte_carlo", "sensitivity"});
  w.field("additionalProperties", false).key("properties").begin_object();
  number(w, "nominal", "The output at the nominal inputs.");

  w.key("worst_case").begin_object().field("type", "object");
  w.field("description",
          "Least and greatest value over the nominal, every corner of the toleranced inputs "
          "and every Monte Carlo sample, with the inputs that gave them.");
  w.key("required");
  strings(w, {"min", "max", "min_at", "max_at"});
  w.field("additionalProperties", false).key("properties").begin_object();
  number(w, "min");
  number(w, "max");
  w.key("min_at");
  write_piece(w, Piece::InputValues, style);
  w.key("max_at");
  write_piece(w, Piece::InputValues, style);
  w.end_object().end_object();

  w.key("rss").begin_object();
  w.field("description",
          "First-order propagation (GUM, JCGM 100:2008 §5.1.2): σ = √Σ(cᵢ·uᵢ)² with "
          "central-difference derivatives cᵢ at the nominal; min/max the centre ± 3σ. Null "
          "when a derivative could not be computed.");
  w.key("oneOf").begin_array();
  w.begin_object().field("type", "null").end_object();
  w.begin_object().field("type", "object").key("required");
  strings(w, {"sigma", "min", "max"});
  w.field("additionalProperties", false).key("properties").begin_object();
  number(w, "sigma");
  number(w, "min");
  number(w, "max");
  w.end_object().end_object();
  w.end_array().end_object();

  w.key("monte_carlo").begin_object().field("type", "object");
  w.field("description",
          "Over the samples the tool computed (JCGM 101:2008): mean, sample standard deviation, "
          "percentiles by Hyndman & Fan's definition 7, extremes and a histogram.");
  w.key("required");
  strings(w,
          {"samples", "mean", "std", "p1", "p5", "p50", "p95", "p99", "min", "max", "histogram"});
  w.field("additionalProperties", false).key("properties").begin_object();
  integer(w, "samples", 1, "The samples these statistics cover.");
  for (const char* k : {"mean", "std", "p1", "p5", "p50", "p95", "p99", "min", "max"}) number(w, k);
  w.key("histogram").begin_object().field("type", "object").key("required");
  strings(w, {"edges", "counts"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("edges").begin_object().field("type", "array").field("minItems", 2);
  w.field("description", "Bin edges, ascending: one more than the counts.");
  w.key("items").begin_object().field("type", "number").end_object().end_object();
  w.key("counts").begin_object().field("type", "array").field("minItems", 1);
  w.field("maxItems", analysis::kMaxHistogramBins);
  w.key("items").begin_object().field("type", "integer").field("minimum", 0).end_object();
  w.end_object();
  w.end_object().end_object();  // histogram.properties, histogram
  w.end_object().end_object();  // monte_carlo.properties, monte_carlo

  w.key("sensitivity").begin_object().field("type", "array");
  w.field("description",
          "Each toleranced input's share of the RSS variance, (cᵢ·uᵢ)²/σ² in %, with its "
          "derivative cᵢ (output unit per input unit), largest share first. Empty when rss "
          "is null.");
  w.key("items").begin_object().field("type", "object").key("required");
  strings(w, {"key", "share_pct", "derivative"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("key").begin_object().field("type", "string").end_object();
  w.key("share_pct").begin_object().field("type", "number").field("minimum", 0);
  w.field("maximum", 100).end_object();
  number(w, "derivative");
  w.end_object().end_object().end_object();

  w.end_object().end_object();
}

void write_text_outcome(JsonWriter& w) {
  w.begin_object().field("type", "object");
  w.field("description",
          "One text output: its value at the nominal, how often each value came out over the "
          "samples (most frequent first) and the values seen at the corners.");
  w.key("required");
  strings(w, {"nominal", "samples", "corners"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("nominal").begin_object().field("type", "string").end_object();
  w.key("samples").begin_object().field("type", "array");
  w.key("items").begin_object().field("type", "object").key("required");
  strings(w, {"value", "count"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("value").begin_object().field("type", "string").end_object();
  w.key("count").begin_object().field("type", "integer").field("minimum", 1).end_object();
  w.end_object().end_object().end_object();
  w.key("corners").begin_object().field("type", "array");
  w.key("items").begin_object().field("type", "string").end_object().end_object();
  w.end_object().end_object();
}

// The body's options besides inputs and tolerances.
void write_options(JsonWriter& w) {
  distribution(w,
               "Each input's distribution unless its tolerance says otherwise: `normal`, the "
               "range is ±3σ and samples are truncated to it; `uniform`, flat over the range.",
               true);
  w.key("samples").begin_object().field("type", "integer");
  w.key("minimum").integer(analysis::kMinSamples).key("maximum").integer(analysis::kMaxSamples);
  w.key("default").integer(analysis::kDefaultSamples);
  w.field("description", "Monte Carlo samples.").end_object();
  w.key("seed").begin_object().field("type", "integer").field("minimum", 0);
  w.key("maximum").integer(static_cast<int64_t>(analysis::kMaxSeed));
  w.key("default").integer(static_cast<int64_t>(analysis::kDefaultSeed));
  w.field("description",
          "Seed of the generator (xoshiro256** seeded by SplitMix64): the same body gives the "
          "same result, byte for byte.");
  w.end_object();
}

std::string tolerance_cost() {
  return "Costs one rate-limit unit and one unit of the monthly quota per " +
         evaluations_per_quota_unit() +
         " evaluations (1 + 2k + 2^k + samples for k toleranced inputs), at least one.";
}

// The tolerance result; `tool` null: over any tool (MCP).
void write_tolerance_result_schema(JsonWriter& w, const ToolDescriptor* tool, const Style& style) {
  w.begin_object().field("type", "object");
  w.key("required");
  strings(w, {"samples", "seed", "distribution", "evaluations", "toleranced", "failed_samples",
              "first_failed_sample", "failed_corners", "first_failed_corner", "outputs"});
  w.field("additionalProperties", false).key("properties").begin_object();
  integer(w, "samples", analysis::kMinSamples, "Monte Carlo samples drawn.");
  integer(w, "seed", 0, "The generator's seed.");
  w.key("distribution").begin_object().field("type", "string").key("enum");
  strings(w, {"normal", "uniform"});
  w.end_object();
  integer(w, "evaluations", 1, "Evaluations of the tool made (what the quota is charged for).");
  w.key("toleranced").begin_object().field("type", "array").field("minItems", 1);
  w.field("maxItems", analysis::kMaxToleranced);
  w.field("description", "The toleranced inputs in the tool's order, with their ranges.");
  w.key("items").begin_object().field("type", "object").key("required");
  strings(w, {"key", "nominal", "min", "max", "distribution"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("key").begin_object().field("type", "string");
  if (tool) numeric_input_enum(w, *tool);
  w.end_object();
  number(w, "nominal");
  number(w, "min");
  number(w, "max");
  w.key("distribution").begin_object().field("type", "string").key("enum");
  strings(w, {"normal", "uniform"});
  w.end_object();
  w.end_object().end_object().end_object();
  integer(w, "failed_samples", 0, "Samples the tool refused (its 422); not in the statistics.");
  nullable(w, "first_failed_sample", Piece::FailedPoint, style);
  integer(w, "failed_corners", 0, "Corners the tool refused.");
  nullable(w, "first_failed_corner", Piece::FailedPoint, style);
  w.key("outputs").begin_object().field("type", "object");
  w.field("description", "Every output of the tool, by key, in its order.");
  if (tool) {
    w.key("required").begin_array();
    for (const auto& out : tool->outputs) w.string(out.key);
    w.end_array();
    w.field("additionalProperties", false).key("properties").begin_object();
    for (const auto& out : tool->outputs) {
      w.key(out.key);
      write_piece(w, out.type == OutputType::Number ? Piece::NumericOutcome : Piece::TextOutcome,
                  style);
    }
    w.end_object();
  } else {
    w.key("additionalProperties").begin_object().key("anyOf").begin_array();
    write_piece(w, Piece::NumericOutcome, style);
    write_piece(w, Piece::TextOutcome, style);
    w.end_array().end_object();
  }
  w.end_object();
  w.end_object().end_object();
}

void write_target(JsonWriter& w, const ToolDescriptor* tool) {
  w.key("target").begin_object().field("type", "object");
  w.field("description", "The value an output must reach (compared unrounded).");
  w.key("required");
  strings(w, {"output", "value"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("output").begin_object().field("type", "string");
  w.field("description", "A number output of the tool.");
  if (tool) numeric_output_enum(w, *tool);
  w.end_object();
  number(w, "value");
  w.end_object().end_object();
}

void write_solve_result_schema(JsonWriter& w, const ToolDescriptor* tool,
                               std::string_view tool_result_schema) {
  w.begin_object().field("type", "object").key("required");
  strings(w, {"vary", "target", "solutions", "reachable", "evaluations", "complete"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("vary").begin_object().field("type", "string");
  if (tool) numeric_input_enum(w, *tool);
  w.end_object();
  write_target(w, tool);
  w.key("solutions").begin_object().field("type", "array").field("minItems", 1);
  w.field("maxItems", static_cast<int64_t>(analysis::kMaxSolutions));
  w.field("description",
          "Every value found, nearest the nominal first, with the tool's outputs there "
          "(rounded as execute rounds them).");
  w.key("items").begin_object().field("type", "object").key("required");
  strings(w, {"value", "result"});
  w.field("additionalProperties", false).key("properties").begin_object();
  number(w, "value", "The input's value, at full precision.");
  w.key("result");
  if (tool_result_schema.empty())
    w.begin_object().field("type", "object").end_object();
  else
    w.begin_object()
        .field("$ref", "#/components/schemas/" + std::string(tool_result_schema))
        .end_object();
  w.end_object().end_object().end_object();
  w.key("reachable").begin_object().field("type", "object");
  w.field("description", "The output's least and greatest values among the evaluations made.");
  w.key("required");
  strings(w, {"min", "max"});
  w.field("additionalProperties", false).key("properties").begin_object();
  number(w, "min");
  number(w, "max");
  w.end_object().end_object();
  integer(w, "evaluations", 1, "Evaluations of the tool made (what the quota is charged for).");
  w.key("complete").begin_object().field("type", "boolean");
  w.field("description",
          "False when the evaluation budget or the cap on solutions cut the search short.");
  w.end_object();
  w.end_object().end_object();
}

}  // namespace

std::string_view component_name(Piece piece) {
  switch (piece) {
    case Piece::ToleranceRange:
      return "ToleranceRange";
    case Piece::NumericOutcome:
      return "ToleranceNumberOutput";
    case Piece::TextOutcome:
      return "ToleranceTextOutput";
    case Piece::FailedPoint:
      return "ToleranceFailedPoint";
    case Piece::InputValues:
      return "ToleranceInputValues";
  }
  return "";
}

void write_piece(JsonWriter& w, Piece piece, const Style& style) {
  if (style.refs) {
    w.begin_object().field("$ref", "#/components/schemas/" + std::string(component_name(piece)));
    w.end_object();
    return;
  }
  switch (piece) {
    case Piece::ToleranceRange:
      return write_range(w);
    case Piece::NumericOutcome:
      return write_numeric_outcome(w, style);
    case Piece::TextOutcome:
      return write_text_outcome(w);
    case Piece::FailedPoint:
      return write_failed_point(w, style);
    case Piece::InputValues:
      return write_input_values(w);
  }
}

void write_components(JsonWriter& w) {
  const Style refs{true};
  w.key(component_name(Piece::ToleranceRange));
  write_range(w);
  w.key(component_name(Piece::NumericOutcome));
  write_numeric_outcome(w, refs);
  w.key(component_name(Piece::TextOutcome));
  write_text_outcome(w);
  w.key(component_name(Piece::FailedPoint));
  write_failed_point(w, refs);
  w.key(component_name(Piece::InputValues));
  write_input_values(w);
}

bool has_tolerance(const ToolDescriptor& tool) {
  for (const auto& in : tool.inputs)
    if (in.is_numeric()) return true;
  return false;
}

bool has_solve(const ToolDescriptor& tool) {
  if (!has_tolerance(tool)) return false;
  for (const auto& out : tool.outputs)
    if (out.type == OutputType::Number) return true;
  return false;
}

void write_tolerance_request(JsonWriter& w, const ToolDescriptor& t) {
  const Style refs{true};
  bool any_required = false;
  for (const auto& in : t.inputs) any_required = any_required || in.required;
  w.begin_object().field("type", "object");
  w.field("description", "Tolerances on " + t.slug + "'s numeric inputs around nominal inputs. " +
                             tolerance_cost());
  w.key("required").begin_array();
  if (any_required) w.string("inputs");
  w.string("tolerances").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("inputs");
  catalog::write_input_schema(w, t);
  w.key("tolerances").begin_object().field("type", "object").field("minProperties", 1);
  w.field("maxProperties", analysis::kMaxToleranced);
  w.field("description", "The toleranced inputs (" + toleranced_inputs_range() +
                             " of the numeric ones) and their ranges.");
  w.field("additionalProperties", false).key("properties").begin_object();
  for (const auto& in : t.inputs) {
    if (!in.is_numeric()) continue;
    w.key(in.key);
    write_piece(w, Piece::ToleranceRange, refs);
  }
  w.end_object().end_object();
  write_options(w);
  w.end_object().end_object();
}

void write_tolerance_result(JsonWriter& w, const ToolDescriptor& t) {
  write_tolerance_result_schema(w, &t, Style{true});
}

// {inputs, vary, target}: what depends on the varied input (the inputs still required) is
// one if/then per numeric input, as in the sweep body (api/openapi/sweep_paths.cpp).
void write_solve_request(JsonWriter& w, const ToolDescriptor& t) {
  w.begin_object().field("type", "object");
  w.field("description",
          "Every value of one numeric input of " + t.slug +
              ", within its bounds, where a number output equals a target; the other inputs as "
              "for " +
              t.endpoint() + ". Costs one rate-limit unit and one unit of the monthly quota per " +
              evaluations_per_quota_unit() + " evaluations (the " + solve_evaluation_budget() +
              "-evaluation budget reserved, the unused units given back).");
  w.key("required");
  strings(w, {"vary", "target"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("inputs").begin_object().field("type", "object");
  w.field("description",
          "The tool's inputs; optional ones take their defaults. The varied input's value (or "
          "its default) only orders the solutions, nearest first.");
  w.key("propertyNames").begin_object().key("enum").begin_array();
  for (const auto& in : t.inputs) w.string(in.key);
  w.end_array().end_object().end_object();
  w.key("vary").begin_object().field("type", "string");
  w.field("description", "The numeric input to solve for.");
  numeric_input_enum(w, t);
  w.end_object();
  write_target(w, &t);
  w.end_object();  // properties

  const auto any = [&](std::string_view key) { w.key(key).begin_object().end_object(); };
  w.key("allOf").begin_array();
  for (const auto& varied : t.inputs) {
    if (!varied.is_numeric()) continue;
    std::vector<const InputDescriptor*> required;
    for (const auto& in : t.inputs)
      if (&in != &varied && in.required) required.push_back(&in);
    w.begin_object().key("if").begin_object();
    w.key("required");
    strings(w, {"vary"});
    w.key("properties").begin_object();
    any("inputs");
    w.key("vary").begin_object().field("const", varied.key).end_object();
    any("target");
    w.end_object().end_object();  // properties, if
    w.key("then").begin_object();
    if (!required.empty()) {
      w.key("required");
      strings(w, {"inputs"});
    }
    w.key("properties").begin_object();
    any("vary");
    any("target");
    w.key("inputs").begin_object().key("properties").begin_object();
    for (const auto& in : t.inputs) catalog::write_input_property(w, in);
    w.end_object().key("required").begin_array();
    for (const auto* in : required) w.string(in->key);
    w.end_array().end_object();
    w.end_object().end_object();  // then.properties, then
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_solve_result(JsonWriter& w, const ToolDescriptor& t,
                        std::string_view tool_result_schema) {
  write_solve_result_schema(w, &t, tool_result_schema);
}

void write_mcp_tolerance_input(JsonWriter& w, const std::vector<std::string>& tool_names) {
  const Style inline_style{false};
  w.begin_object().field("type", "object");
  w.key("required");
  strings(w, {"tool", "tolerances"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("tool").begin_object().field("type", "string");
  w.field("description", "The tool to analyse, by its MCP name (tools/list).");
  w.key("enum").begin_array();
  for (const auto& n : tool_names) w.string(n);
  w.end_array().end_object();
  w.key("inputs").begin_object().field("type", "object");
  w.field("description",
          "The tool's nominal inputs, as its own inputSchema takes them (optional ones "
          "default).");
  w.end_object();
  w.key("tolerances").begin_object().field("type", "object").field("minProperties", 1);
  w.field("maxProperties", analysis::kMaxToleranced);
  w.field("description",
          toleranced_inputs_range() + " of the tool's numeric inputs, each with its range.");
  w.key("additionalProperties");
  write_piece(w, Piece::ToleranceRange, inline_style);
  w.end_object();
  write_options(w);
  w.end_object().end_object();
}

void write_mcp_tolerance_output(JsonWriter& w) {
  write_tolerance_result_schema(w, nullptr, Style{false});
}

void write_mcp_solve_input(JsonWriter& w, const std::vector<std::string>& tool_names) {
  w.begin_object().field("type", "object");
  w.key("required");
  strings(w, {"tool", "vary", "target"});
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("tool").begin_object().field("type", "string");
  w.field("description", "The tool to solve, by its MCP name (tools/list).");
  w.key("enum").begin_array();
  for (const auto& n : tool_names) w.string(n);
  w.end_array().end_object();
  w.key("inputs").begin_object().field("type", "object");
  w.field("description",
          "The tool's other inputs, as its own inputSchema takes them; the varied one may be "
          "left out (its value only orders the solutions).");
  w.end_object();
  w.key("vary").begin_object().field("type", "string");
  w.field("description", "The numeric input to solve for.").end_object();
  write_target(w, nullptr);
  w.end_object().end_object();
}

void write_mcp_solve_output(JsonWriter& w) {
  write_solve_result_schema(w, nullptr, {});
}

std::string toleranced_inputs_range() {
  return "1 to " + std::to_string(analysis::kMaxToleranced);
}
std::string evaluations_per_quota_unit() {
  return grouped(kEvaluationsPerQuotaUnit);
}
std::string solve_evaluation_budget() {
  return grouped(analysis::kSolveEvaluationBudget);
}

}  // namespace toolcalc::api::analysis_schema
