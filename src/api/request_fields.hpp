#pragma once
// The pieces the request parsers of the sweep, tolerance and solve endpoints share
// (sweep_request, tolerance_request, solve_request): reading the body and its members, the
// `inputs` object, the input or output a member names, and the words of their refusals, so
// that the three answer alike.
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/descriptor.hpp"
#include "catalog/json_body.hpp"
#include "catalog/validate.hpp"
#include "core/api_error.hpp"
#include "core/decimal.hpp"

namespace toolcalc::api::fields {

inline const catalog::BodyMember* find(const std::vector<catalog::BodyMember>& members,
                                       std::string_view key) {
  for (const auto& m : members)
    if (m.key == key) return &m;
  return nullptr;
}

// A JSON number member as a double; false for any other kind.
inline bool number_of(const catalog::BodyMember& m, double& out) {
  switch (m.kind) {
    case catalog::BodyMember::Kind::Int:
      out = static_cast<double>(m.int_value);
      return true;
    case catalog::BodyMember::Kind::Uint:
      out = static_cast<double>(m.uint_value);
      return true;
    case catalog::BodyMember::Kind::Double:
      out = m.double_value;
      return true;
    default:
      return false;
  }
}

inline std::string text(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

// "<field> is required: <what>".
inline ApiError missing(const std::string& field, std::string_view what) {
  return validation_error(field, field + " is required: " + std::string(what));
}

// "<field> must be an object<detail>, got <kind>".
inline ApiError not_an_object(const std::string& field, const catalog::BodyMember& m,
                              std::string_view detail = "") {
  return validation_error(field, field + " must be an object" + std::string(detail) + ", got " +
                                     catalog::kind_name(m.kind));
}

// "must be a number, got a string (send numbers without quotes)"-style refusals.
inline ApiError not_a_number(const std::string& field, const catalog::BodyMember& m,
                             std::string_view expected = "a number") {
  std::string msg =
      field + " must be " + std::string(expected) + ", got " + catalog::kind_name(m.kind);
  if (m.kind == catalog::BodyMember::Kind::String) msg += " (send numbers without quotes)";
  return validation_error(field, msg);
}

// A finite number, -0 folded into 0; else the refusal naming `field`.
inline bool finite_number(const catalog::BodyMember& m, const std::string& field, double& out,
                          ApiError& error) {
  if (!number_of(m, out)) {
    error = not_a_number(field, m);
    return false;
  }
  if (!std::isfinite(out)) {
    error = validation_error(field, field + " must be a finite number");
    return false;
  }
  if (out == 0) out = 0;
  return true;
}

// "a, b, c": the tool's number and integer inputs.
std::string numeric_input_keys(const catalog::ToolDescriptor& tool);

// "a, b": the tool's number outputs.
std::string numeric_output_keys(const catalog::ToolDescriptor& tool);

// The first member whose key is not one of `allowed`; nullptr when there is none.
const catalog::BodyMember* first_unknown(const std::vector<catalog::BodyMember>& members,
                                         std::initializer_list<std::string_view> allowed);

// Checks that every member of `object` (named `prefix`.member) is one of `allowed`; else
// "unknown member '<prefix>.<key>'; <prefix> has <list>".
bool only_members(const catalog::BodyMember& object, const std::string& prefix,
                  std::initializer_list<std::string_view> allowed, std::string_view list,
                  ApiError& error);

// A request body parsed (into this thread's buffer, reused across requests: valid until the
// thread's next call) whose every top-level member is one of `allowed`; else nullptr and the
// refusal: the parser's, or "unknown member '<key>'; <has>".
const catalog::ParsedBody* parse_body_of(std::string_view body,
                                         std::initializer_list<std::string_view> allowed,
                                         std::string_view has, ApiError& error);

// The body's `inputs` object (none: {}) copied into `out`; else the refusal naming "inputs".
bool read_inputs(const std::vector<catalog::BodyMember>& members, catalog::ParsedBody& out,
                 ApiError& error);

// catalog::validate_inputs over the body's inputs, the refusal's field under "inputs.".
bool validate_body_inputs(const catalog::ParsedBody& inputs, const catalog::ToolDescriptor& tool,
                          catalog::Inputs& out, ApiError& error);

// The index of the tool's numeric input that `m` names ("vary": "r2_ohm"); else the refusal
// naming `field`: "<field> is required: the numeric input to <verb> (<keys>)", or "<field>
// '<text>' is not a numeric input of <slug>" / "<field> must be a string, got <kind>",
// followed by "; <verb> one of: <keys>".
bool numeric_input_named(const catalog::ToolDescriptor& tool, const catalog::BodyMember* m,
                         const std::string& field, std::string_view verb, size_t& index,
                         ApiError& error);

// The same for the tool's number outputs ("the number output to <verb>", "is not a number
// output of <slug>").
bool number_output_named(const catalog::ToolDescriptor& tool, const catalog::BodyMember* m,
                         const std::string& field, std::string_view verb, size_t& index,
                         ApiError& error);

}  // namespace toolcalc::api::fields
