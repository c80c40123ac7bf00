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
};

struct OutputDescriptor {
  std::string key;
  std::string label;
  OutputType type = OutputType::Number;
  std::optional<std::string> unit;
  int precision = 0;                 // decimal places of a number output
  std::vector<std::string> options;  // string outputs with a fixed set of values
};

// A worked example shown by GET /v1/tools/{slug}: a request body (JSON text).
struct ToolExample {
  std::string title;
  std::string request_json;
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
