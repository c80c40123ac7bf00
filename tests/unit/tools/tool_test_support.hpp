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
catalog::ComputeResult compute_body(const catalog::Tool& tool, std::string_view body);

// The whole path including rendering. Returns the rendered `result` object, e.g.
// {"avg_current_ua":343.3,...}, or "<status>:<field>:<message>" for a 400 or a 422,
// e.g. "422:wake_duration_ms:wake_duration_ms is longer than ...".
std::string run_tool(const catalog::Tool& tool, std::string_view body);

// The text of member `key` of a flat rendered JSON object: a number exactly as rendered
// ("343.3"), a string without its quotes ("ok"). Throws std::out_of_range when absent.
std::string result_field(std::string_view json, std::string_view key);

// A JSON number for a request body: the shortest plain decimal that reads back as `v`.
std::string json_number(double v);

// The `result` object a tool should render: its outputs in descriptor order with the given
// texts (numbers exactly as rendered, e.g. "343.3"; string outputs unquoted, e.g. "ok").
std::string expected_result(const catalog::Tool& tool, const std::vector<std::string>& texts);

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
double draw_number(const catalog::InputDescriptor& in, std::mt19937& rng);

// A request body with a random valid value for every input of `tool` (enums: a random
// option; booleans: a coin flip).
std::string random_body(const catalog::Tool& tool, std::mt19937& rng);

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

void expect_inputs(const catalog::ToolDescriptor& d, const std::vector<InputRow>& rows);

void expect_outputs(const catalog::ToolDescriptor& d, const std::vector<OutputRow>& rows);

}  // namespace toolcalc::tool_test
