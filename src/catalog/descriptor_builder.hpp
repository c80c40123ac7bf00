#pragma once
// Builders for a tool's inputs and outputs with named fields, used with designated
// initializers so that no two numbers can trade places unnoticed:
//
//   number_input({.key = "resistance_ohm", .label = "Resistance R", .unit = "Ω",
//                 .help = "…", .min = 1, .max = 1e7, .step = 1, .default_value = 1000})
//
// A field without a default below must be given: leaving it out is a compile error
// (-Wmissing-field-initializers under -Werror). `unit` is std::nullopt for no "unit" field
// and "" for a dimensionless value.
#include <optional>
#include <string>
#include <vector>

#include "catalog/descriptor.hpp"

namespace toolcalc::catalog {

struct NumberInputSpec {
  std::string key;
  std::string label;
  std::optional<std::string> unit;
  std::string help;  // what to enter, shown beside the field
  double min;        // accepted bounds, inclusive
  double max;
  double step;  // a UI hint, not enforced
  double default_value;
  bool required = true;  // optional inputs take default_value when absent
};

struct ChoiceInputSpec {
  std::string key;
  std::string label;
  std::string help;
  std::vector<std::string> options;
  std::string default_value;
  std::optional<std::string> unit = {};
  bool required = true;
};

struct FlagInputSpec {
  std::string key;
  std::string label;
  std::string help;
  bool default_value;
  bool required = true;
};

struct NumberOutputSpec {
  std::string key;
  std::string label;
  std::optional<std::string> unit;
  int precision;  // decimal places of the reported value
  // OutputDescriptor::small_values_in: the output that carries this quantity's small values.
  std::string small_values_in = {};
};

struct TextOutputSpec {
  std::string key;
  std::string label;
  std::vector<std::string> options = {};  // the values it takes, when they are a fixed set
};

inline InputDescriptor numeric_input(NumberInputSpec s, InputType type) {
  InputDescriptor in;
  in.key = std::move(s.key);
  in.label = std::move(s.label);
  in.type = type;
  in.required = s.required;
  in.unit = std::move(s.unit);
  in.help = std::move(s.help);
  in.min = s.min;
  in.max = s.max;
  in.step = s.step;
  in.default_value = s.default_value;
  return in;
}

// type "number": any finite value in [min, max].
inline InputDescriptor number_input(NumberInputSpec s) {
  return numeric_input(std::move(s), InputType::Number);
}

// type "integer": a whole number in [min, max].
inline InputDescriptor integer_input(NumberInputSpec s) {
  return numeric_input(std::move(s), InputType::Integer);
}

// type "enum": one of `options`.
inline InputDescriptor choice_input(ChoiceInputSpec s) {
  InputDescriptor in;
  in.key = std::move(s.key);
  in.label = std::move(s.label);
  in.type = InputType::Enum;
  in.required = s.required;
  in.unit = std::move(s.unit);
  in.help = std::move(s.help);
  in.default_value = std::move(s.default_value);
  in.options = std::move(s.options);
  return in;
}

// type "boolean".
inline InputDescriptor flag_input(FlagInputSpec s) {
  InputDescriptor in;
  in.key = std::move(s.key);
  in.label = std::move(s.label);
  in.type = InputType::Boolean;
  in.required = s.required;
  in.help = std::move(s.help);
  in.default_value = s.default_value;
  return in;
}

inline OutputDescriptor number_output(NumberOutputSpec s) {
  OutputDescriptor out;
  out.key = std::move(s.key);
  out.label = std::move(s.label);
  out.type = OutputType::Number;
  out.unit = std::move(s.unit);
  out.precision = s.precision;
  out.small_values_in = std::move(s.small_values_in);
  return out;
}

inline OutputDescriptor text_output(TextOutputSpec s) {
  OutputDescriptor out;
  out.key = std::move(s.key);
  out.label = std::move(s.label);
  out.type = OutputType::String;
  out.options = std::move(s.options);
  return out;
}

}  // namespace toolcalc::catalog
