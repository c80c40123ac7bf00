// POST /v1/{domain}/{slug}/sweep (docs/api.md "Sweeps"): the path and the schemas of its
// body and result, for every tool with a numeric input.
#include <algorithm>
#include <cmath>

#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"
#include "api/sweep_request.hpp"
#include "catalog/json_schema.hpp"
#include "catalog/render.hpp"

namespace toolcalc::api::openapi {

using catalog::InputDescriptor;
using catalog::InputType;
using catalog::ToolDescriptor;

namespace {

void write_numeric_keys(JsonWriter& w, const ToolDescriptor& t) {
  w.begin_array();
  for (const auto& in : t.inputs)
    if (in.is_numeric()) w.string(in.key);
  w.end_array();
}

// vary.from / vary.to when `in` is the varied input: its type and bounds.

void write_sweep_end(JsonWriter& w, std::string_view name, const InputDescriptor& in) {
  w.key(name).begin_object().field("type", in.type == InputType::Integer ? "integer" : "number");
  if (in.min) w.key("minimum").shortest(*in.min);
  if (in.max) w.key("maximum").shortest(*in.max);
  w.end_object();
}

// The body {inputs, vary}. What depends on the varied input (the bounds of from/to, the

// inputs still required, the types of the others) is one if/then per numeric input; the

// varied input's own value in `inputs`, if sent, is replaced by each x and not checked.

void write_sweep_request_schema(JsonWriter& w, const ToolDescriptor& t) {
  w.begin_object().field("type", "object");
  w.field("description", "Vary one numeric input of " + t.slug +
                             " over a range; the other inputs as for " + t.endpoint() + ".");
  w.key("required").begin_array().string("vary").end_array();
  w.field("additionalProperties", false);
  w.key("properties").begin_object();
  w.key("inputs").begin_object().field("type", "object");
  w.field("description",
          "The tool's inputs (default `{}`); optional ones take their defaults. The varied "
          "input may be left out: each point sets it to `x`.");
  // Every input named, so that generators type `inputs` as an object with these optional
  // members (a bare object type becomes "no members at all" in some, e.g. openapi-typescript's
  // Record<string, never>). A numeric input may be the varied one, whose value is not
  // checked, so here it is described but unconstrained; the if/then below constrains it when
  // another input is varied. Enum and boolean inputs are never varied: their full schema.
  w.key("properties").begin_object();
  for (const auto& in : t.inputs) {
    if (in.is_numeric()) {
      w.key(in.key).begin_object().field("title", in.label);
      w.field("description",
              "As in the execute body; when this is the varied input, its value here is "
              "replaced by each x and not checked.");
      w.end_object();
    } else {
      catalog::write_input_property(w, in);
    }
  }
  w.end_object();
  w.field("additionalProperties", false);
  w.end_object();
  w.key("vary").begin_object().field("type", "object");
  w.key("required").begin_array().string("key").string("from").string("to").string("points");
  w.end_array().field("additionalProperties", false);
  w.key("properties").begin_object();
  w.key("key").begin_object().field("type", "string");
  w.field("description", "The numeric input to vary.").key("enum");
  write_numeric_keys(w, t);
  w.end_object();
  w.key("from").begin_object().field("type", "number");
  w.field("description", "First x, within the input's bounds (an integer for an integer input).");
  w.end_object();
  w.key("to").begin_object().field("type", "number");
  w.field("description",
          "Last x, within the input's bounds; differs from `from` (a descending range is "
          "allowed).");
  w.end_object();
  w.key("points").begin_object().field("type", "integer").field("minimum", kSweepMinPoints);
  w.field("maximum", kSweepMaxPoints);
  w.field("description", "How many x values, evenly spaced from `from` to `to` and rounded to " +
                             std::to_string(kSweepSignificantDigits) +
                             " significant digits (integer inputs: to integers, and at most |to - "
                             "from| + 1 points). Each point "
                             "uses one unit of the monthly quota.");
  w.end_object();
  w.end_object().end_object();  // vary.properties, vary
  w.end_object();               // properties

  // Each sub-schema names every member it may meet ({} where anything goes), so that a
  // validator treating unlisted members as errors (Redocly's example check) reads it as
  // meant.
  const auto any = [&](std::string_view key) { w.key(key).begin_object().end_object(); };
  w.key("allOf").begin_array();
  for (const auto& varied : t.inputs) {
    if (!varied.is_numeric()) continue;
    w.begin_object().key("if").begin_object();
    w.key("required").begin_array().string("vary").end_array();
    w.key("properties").begin_object();
    any("inputs");
    w.key("vary").begin_object();
    w.key("required").begin_array().string("key").end_array();
    w.key("properties").begin_object();
    w.key("key").begin_object().field("const", varied.key).end_object();
    any("from");
    any("to");
    any("points");
    w.end_object().end_object();  // vary.properties, vary
    w.end_object().end_object();  // properties, if
    w.key("then").begin_object().key("properties").begin_object();
    w.key("vary").begin_object().key("properties").begin_object();
    any("key");
    write_sweep_end(w, "from", varied);
    write_sweep_end(w, "to", varied);
    any("points");
    w.end_object().end_object();
    w.key("inputs").begin_object().key("properties").begin_object();
    for (const auto& in : t.inputs) {
      if (&in == &varied)
        any(in.key);  // replaced by each x; its value is not checked
      else
        catalog::write_input_property(w, in);
    }
    w.end_object().key("required").begin_array();
    for (const auto& in : t.inputs)
      if (&in != &varied && in.required) w.string(in.key);
    w.end_array().end_object();
    w.end_object().end_object();  // then.properties, then
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

// A request that sweeps the first numeric input upwards from its default, the others at

// their defaults.

void write_sweep_example(JsonWriter& w, const ToolDescriptor& t) {
  const InputDescriptor* varied = nullptr;
  for (const auto& in : t.inputs)
    if (!varied && in.is_numeric()) varied = &in;
  double from = std::get<double>(varied->default_value);
  double to = from == 0 ? 1 : from * 2;
  if (varied->max && to > *varied->max) to = *varied->max;
  if (varied->min && to < *varied->min) to = *varied->min;
  if (to == from && varied->min) to = *varied->min;
  int points = 5;
  if (varied->type == InputType::Integer)
    points = static_cast<int>(std::min(5.0, std::fabs(to - from) + 1));
  w.key("examples").begin_object().key("sweep").begin_object();
  w.field("summary",
          "Vary " + varied->key + " from its default, " + std::to_string(points) + " points");
  w.key("value").begin_object().key("inputs").begin_object();
  for (const auto& in : t.inputs) {
    if (&in == varied) continue;
    w.key(in.key);
    catalog::write_default_value(w, in.default_value);
  }
  w.end_object();
  w.key("vary").begin_object().field("key", varied->key).key("from").shortest(from);
  w.key("to").shortest(to).field("points", points).end_object();
  w.end_object().end_object().end_object();
}

}  // namespace

bool has_numeric_input(const ToolDescriptor& t) {
  for (const auto& in : t.inputs)
    if (in.is_numeric()) return true;
  return false;
}

void write_sweep_schemas(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(prefix + "SweepRequest");
  write_sweep_request_schema(w, t);

  w.key(prefix + "SweepResult").begin_object().field("type", "object");
  w.key("required").begin_array().string("key").string("points").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("key").begin_object().field("type", "string").field("description", "The varied input.");
  w.key("enum");
  write_numeric_keys(w, t);
  w.end_object();
  w.key("points").begin_object().field("type", "array").field("minItems", kSweepMinPoints);
  w.field("maxItems", kSweepMaxPoints)
      .field("description", "One per x, in order from `from` to `to`.");
  w.key("items").begin_object().key("oneOf").begin_array();
  w.begin_object().field("type", "object");
  w.key("required").begin_array().string("x").string("result").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("x").begin_object().field("type", "number").end_object();
  w.key("result");
  schema_ref(w, prefix + "Result");
  w.end_object().end_object();
  w.begin_object().field("type", "object");
  w.key("required").begin_array().string("x").string("error").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("x").begin_object().field("type", "number").end_object();
  w.key("error");
  schema_ref(w, "SweepPointError");
  w.end_object().end_object();
  w.end_array().end_object();   // oneOf, items
  w.end_object();               // points
  w.end_object().end_object();  // properties, SweepResult

  w.key(prefix + "SweepResponse");
  write_success_response_schema(w, t, t.endpoint() + "/sweep", prefix + "SweepResult");
}

void write_sweep_path(JsonWriter& w, ErrorRefs& refs, const ToolDescriptor& t,
                      const std::string& prefix) {
  w.key(t.endpoint() + "/sweep").begin_object().key("post").begin_object();
  w.field("operationId", "sweep" + prefix);
  w.field("summary", t.name + ": sweep one input");
  w.field("description",
          "Runs " + t.endpoint() +
              " once per x value of one numeric input, with the same validation and maths. "
              "Costs one rate-limit unit, and one unit of the monthly quota per point that "
              "produced a result (all `points` units must be available, else 429 "
              "`QUOTA_EXCEEDED`). A point the tool cannot compute carries `error` instead of "
              "`result`. Errors name the field: `inputs.<key>`, `vary.key`, `vary.from`, "
              "`vary.to`, `vary.points`.");
  w.key("tags").begin_array().string(t.domain).end_array();
  security_required(w);
  w.key("requestBody").begin_object().field("required", true);
  w.key("content").begin_object().key("application/json").begin_object().key("schema");
  schema_ref(w, prefix + "SweepRequest");
  write_sweep_example(w, t);
  w.end_object().end_object().end_object();
  w.key("responses").begin_object();
  ok_response(w, "The x values with the tool's outputs (or the point's error).",
              prefix + "SweepResponse");
  error_ref(w, refs, 400);
  error_ref(w, refs, 401);
  error_ref(w, refs, 415);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, true);
  w.end_object();
  w.end_object().end_object();
}

void sweep_paths(Paths& p) {
  for (const auto& r : p.registry.tools())
    if (has_numeric_input(r.tool.descriptor))
      write_sweep_path(p.w, p.refs, r.tool.descriptor, p.prefix(r));
}

}  // namespace toolcalc::api::openapi
