#pragma once
// Small readers of parsed body members shared by the analysis request parsers
// (tolerance_request, solve_request): finding a member, reading a JSON number, and the
// texts their messages are written with.
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/descriptor.hpp"
#include "catalog/json_body.hpp"
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

inline std::string text(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

// "a, b, c": the tool's number and integer inputs.
inline std::string numeric_input_keys(const catalog::ToolDescriptor& tool) {
  std::string s;
  for (const auto& in : tool.inputs) {
    if (!in.is_numeric()) continue;
    if (!s.empty()) s += ", ";
    s += in.key;
  }
  return s;
}

// "a, b": the tool's number outputs.
inline std::string numeric_output_keys(const catalog::ToolDescriptor& tool) {
  std::string s;
  for (const auto& out : tool.outputs) {
    if (out.type != catalog::OutputType::Number) continue;
    if (!s.empty()) s += ", ";
    s += out.key;
  }
  return s;
}

// Checks that every member of `object` (named `prefix`.member) is one of `allowed`.
inline bool only_members(const catalog::BodyMember& object, const std::string& prefix,
                         std::initializer_list<std::string_view> allowed, std::string_view list,
                         ApiError& error) {
  for (const auto& f : object.fields) {
    bool known = false;
    for (const auto a : allowed) known = known || f.key == a;
    if (known) continue;
    error =
        validation_error(prefix + "." + f.key, "unknown member '" + prefix + "." + f.key + "'; " +
                                                   prefix + " has " + std::string(list));
    return false;
  }
  return true;
}

}  // namespace toolcalc::api::fields
