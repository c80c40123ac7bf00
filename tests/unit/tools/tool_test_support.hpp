#pragma once
// Runs a tool the way the execute endpoint does (parse → validate → compute → render),
// so tool tests check the numbers a client would read, rounded by the real renderer.
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "catalog/descriptor.hpp"
#include "catalog/json_body.hpp"
#include "catalog/render.hpp"
#include "catalog/validate.hpp"
#include "core/api_error.hpp"
#include "core/decimal.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::tool_test {

// Parses and validates `body`, then computes: the unrounded Outputs, or the tool's
// ToolError (422). A body that fails parsing or validation (400) throws
// std::invalid_argument with "<status>:<field>:<message>", since a test meant it valid.
inline catalog::ComputeResult compute_body(const catalog::Tool& tool, std::string_view body) {
  catalog::ParsedBody parsed;
  ApiError error;
  catalog::Inputs inputs;
  if (!catalog::parse_body(body, parsed, error) ||
      !catalog::validate_inputs(parsed, tool.descriptor, inputs, error))
    throw std::invalid_argument(std::to_string(error.status()) + ":" + error.field + ":" +
                                error.message);
  return tool.compute(inputs);
}

// The whole path including rendering. Returns the rendered `result` object, e.g.
// {"avg_current_ua":343.3,...}, or "<status>:<field>:<message>" for a 400 or a 422,
// e.g. "422:wake_duration_ms:wake_duration_ms is longer than ...".
inline std::string run_tool(const catalog::Tool& tool, std::string_view body) {
  catalog::ParsedBody parsed;
  ApiError error;
  catalog::Inputs inputs;
  if (!catalog::parse_body(body, parsed, error) ||
      !catalog::validate_inputs(parsed, tool.descriptor, inputs, error))
    return std::to_string(error.status()) + ":" + error.field + ":" + error.message;
  catalog::ComputeResult result = tool.compute(inputs);
  if (const auto* failure = std::get_if<catalog::ToolError>(&result))
    return "422:" + failure->field + ":" + failure->message;
  std::string json;
  JsonWriter w(json);
  catalog::render_result(w, tool.descriptor, std::get<catalog::Outputs>(result));
  return json;
}

// The text of member `key` of a flat rendered JSON object: a number exactly as rendered
// ("343.3"), a string without its quotes ("ok"). Throws std::out_of_range when absent.
inline std::string result_field(std::string_view json, std::string_view key) {
  const std::string needle = "\"" + std::string(key) + "\":";
  const size_t at = json.find(needle);
  if (at == std::string_view::npos)
    throw std::out_of_range("no member \"" + std::string(key) + "\" in " + std::string(json));
  size_t i = at + needle.size();
  if (i < json.size() && json[i] == '"') {
    std::string text;
    for (++i; i < json.size() && json[i] != '"'; ++i) {
      if (json[i] == '\\' && i + 1 < json.size()) ++i;
      text += json[i];
    }
    return text;
  }
  const size_t end = json.find_first_of(",}", i);
  return std::string(json.substr(i, end - i));
}

// A JSON number for a request body: the shortest plain decimal that reads back as `v`.
inline std::string json_number(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

// The `result` object a tool should render: its outputs in descriptor order with the given
// texts (numbers exactly as rendered, e.g. "343.3"; string outputs unquoted, e.g. "ok").
inline std::string expected_result(const catalog::Tool& tool,
                                   const std::vector<std::string>& texts) {
  const auto& outputs = tool.descriptor.outputs;
  if (texts.size() != outputs.size())
    throw std::invalid_argument(tool.descriptor.slug + " has " + std::to_string(outputs.size()) +
                                " outputs, the expectation " + std::to_string(texts.size()));
  std::string json = "{";
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i) json += ',';
    append_json_string(json, outputs[i].key);
    json += ':';
    if (outputs[i].type == catalog::OutputType::String)
      append_json_string(json, texts[i]);
    else
      json += texts[i];
  }
  return json + "}";
}

// Builds a request body member by member: RequestBody().number("a", 1).text("b", "x").json().
class RequestBody {
 public:
  RequestBody& number(std::string_view key, double v) {
    member(key);
    json_ += json_number(v);
    return *this;
  }
  RequestBody& text(std::string_view key, std::string_view v) {
    member(key);
    append_json_string(json_, v);
    return *this;
  }
  RequestBody& boolean(std::string_view key, bool v) {
    member(key);
    json_ += v ? "true" : "false";
    return *this;
  }
  std::string json() const { return json_ + "}"; }

 private:
  void member(std::string_view key) {
    if (json_.size() > 1) json_ += ',';
    append_json_string(json_, key);
    json_ += ':';
  }
  std::string json_ = "{";
};

// A random valid value for a numeric input: log-uniform over [min, max] when the range
// spans more than two decades of positive values (so small values are drawn too),
// uniform otherwise.
inline double draw_number(const catalog::InputDescriptor& in, std::mt19937& rng) {
  const double lo = in.min.value(), hi = in.max.value();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double v =
      (lo > 0 && hi / lo > 100) ? lo * std::pow(hi / lo, unit(rng)) : lo + (hi - lo) * unit(rng);
  return std::fmin(std::fmax(v, lo), hi);  // pow may overshoot by an ulp
}

// A request body with a random valid value for every input of `tool` (enums: a random
// option; booleans: a coin flip).
inline std::string random_body(const catalog::Tool& tool, std::mt19937& rng) {
  RequestBody body;
  for (const auto& in : tool.descriptor.inputs) {
    switch (in.type) {
      case catalog::InputType::Number:
        body.number(in.key, draw_number(in, rng));
        break;
      case catalog::InputType::Integer:
        body.number(in.key, std::round(draw_number(in, rng)));
        break;
      case catalog::InputType::Enum:
        body.text(in.key,
                  in.options[std::uniform_int_distribution<size_t>(0, in.options.size() - 1)(rng)]);
        break;
      case catalog::InputType::Boolean:
        body.boolean(in.key, std::bernoulli_distribution(0.5)(rng));
        break;
    }
  }
  return body.json();
}

// The particular shape of one tool's descriptor, as a table: every input (key, type, unit,
// bounds, default, required) and every output (key, type, unit, precision), in order.
// What every tool must satisfy besides (labels, help, references, vectors) is checked for
// the whole registry by all_tools_test.cpp.
struct InputRow {
  const char* key;
  catalog::InputType type;
  std::optional<std::string> unit;  // std::nullopt: no unit field
  double min = 0, max = 0, step = 0;
  catalog::DefaultValue default_value = 0.0;
  bool required = true;
  std::vector<std::string> options = {};  // enum inputs
};

struct OutputRow {
  const char* key;
  catalog::OutputType type;
  std::optional<std::string> unit;
  int precision = 0;
  std::vector<std::string> options = {};  // string outputs with a fixed set of values
};

inline void expect_inputs(const catalog::ToolDescriptor& d, const std::vector<InputRow>& rows) {
  ASSERT_EQ(d.inputs.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& in = d.inputs[i];
    const auto& row = rows[i];
    SCOPED_TRACE(row.key);
    EXPECT_EQ(in.key, row.key);
    EXPECT_EQ(in.type, row.type);
    EXPECT_EQ(in.unit, row.unit);
    EXPECT_EQ(in.required, row.required);
    EXPECT_EQ(in.default_value, row.default_value);
    if (row.type == catalog::InputType::Number || row.type == catalog::InputType::Integer) {
      EXPECT_EQ(in.min, row.min);
      EXPECT_EQ(in.max, row.max);
      EXPECT_EQ(in.step, row.step);
    }
    EXPECT_EQ(in.options, row.options);
  }
}

inline void expect_outputs(const catalog::ToolDescriptor& d, const std::vector<OutputRow>& rows) {
  ASSERT_EQ(d.outputs.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& out = d.outputs[i];
    const auto& row = rows[i];
    SCOPED_TRACE(row.key);
    EXPECT_EQ(out.key, row.key);
    EXPECT_EQ(out.type, row.type);
    EXPECT_EQ(out.unit, row.unit);
    if (row.type == catalog::OutputType::Number) {
      EXPECT_EQ(out.precision, row.precision);
    }
    EXPECT_EQ(out.options, row.options);
  }
}

}  // namespace toolcalc::tool_test
