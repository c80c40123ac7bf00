#pragma once
// The tool model of spec §2.1: what a tool takes, what it returns, and its maths.
// Descriptors are built once at start-up and are immutable afterwards, so request
// threads share them without locks.
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "catalog/inputs.hpp"
#include "catalog/outputs.hpp"

namespace toolcalc::catalog {

enum class InputType { Number, Integer, Enum, Boolean };
enum class OutputType { Number, String };

// Default value of an input: a number (number/integer), a string (enum) or a bool.
using DefaultValue = std::variant<double, std::string, bool>;

struct InputDescriptor {
  std::string key;
  std::string label;
  InputType type = InputType::Number;
  // Required inputs are rendered with "required": true; optional ones omit the field
  // (spec §2.1) and take their default when missing from the request.
  bool required = true;
  std::optional<std::string> unit;  // absent → field omitted; may be ""
  std::optional<std::string> help;
  std::optional<double> min, max, step;  // numeric types only; bounds inclusive
  DefaultValue default_value = 0.0;
  std::vector<std::string> options;  // enum only

  // A number or an integer: what a sweep, a tolerance or a solve may vary.
  bool is_numeric() const { return type == InputType::Number || type == InputType::Integer; }
};

struct OutputDescriptor {
  std::string key;
  std::string label;
  OutputType type = OutputType::Number;
  std::optional<std::string> unit;
  int precision = 0;                 // decimal places of a number output
  std::vector<std::string> options;  // string outputs with a fixed set of values
  // The key of another output that reports the same quantity where this one would round to
  // fewer than 3 significant digits (a smaller unit, or "1 in N" for a probability); "" when
  // this output keeps 3 significant digits over all of its inputs' bounds.
  std::string small_values_in;
  // `,"key":`, rendered by the Registry (render_result writes it as is; "" outside one).
  std::string json_member;
};

// A worked example, published by GET /v1/tools/{slug} as a verification vector: a request
// body, the outputs an independent published source gives for it, and that source, so a
// user can check every number (docs/api.md, "Verification vectors").
struct ToolExample {
  std::string title;
  std::string request_json;  // a JSON object: the execute body
  // A JSON object of output key → value as the source gives it (a number or a string);
  // only the outputs the source states. Empty ("") for an example that is not a vector.
  std::string expected_json = {};
  // How far a number may differ, in % of the expected value, beyond half a unit in the
  // last place of the output's precision: the source's own rounding (it prints 3 or 4
  // significant digits) or a documented difference of method. Strings match exactly.
  double tolerance_pct = 0;
  std::string source = {};  // the publication, with the page, table or figure of the example
};

struct ToolDescriptor {
  std::string slug;
  std::string domain;
  std::string version;  // SemVer
  std::string name;
  std::string description;
  std::optional<std::string> standard;  // null when no standard governs the tool
  std::vector<InputDescriptor> inputs;
  std::vector<OutputDescriptor> outputs;
  std::vector<std::string> references;  // citations for the formula and constants
  std::vector<ToolExample> examples;

  std::string endpoint() const { return "/v1/" + domain + "/" + slug; }
};

// A tool's maths: validated inputs in, unrounded outputs (or a 422 ToolError) out.
// Pure: no I/O, no JSON, no HTTP.
using ComputeResult = std::variant<Outputs, ToolError>;
using ComputeFn = std::function<ComputeResult(const Inputs&)>;

struct Tool {
  ToolDescriptor descriptor;
  ComputeFn compute;
};

}  // namespace toolcalc::catalog
