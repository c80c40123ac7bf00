#include "catalog/json_schema.hpp"

namespace toolcalc::catalog {
namespace {

void write_strings(JsonWriter& w, const std::vector<std::string>& values) {
  w.begin_array();
  for (const auto& v : values) w.string(v);
  w.end_array();
}

}  // namespace

void write_input_property(JsonWriter& w, const InputDescriptor& in) {
  w.key(in.key).begin_object();
  w.field("title", in.label);
  const std::string description = input_description(in);
  if (!description.empty()) w.field("description", description);
  switch (in.type) {
    case InputType::Number:
    case InputType::Integer:
      w.field("type", in.type == InputType::Number ? "number" : "integer");
      if (in.min) w.key("minimum").shortest(*in.min);
      if (in.max) w.key("maximum").shortest(*in.max);
      if (const double* d = std::get_if<double>(&in.default_value)) w.key("default").shortest(*d);
      break;
    case InputType::Enum:
      w.field("type", "string");
      w.key("enum");
      write_strings(w, in.options);
      if (const auto* s = std::get_if<std::string>(&in.default_value)) w.field("default", *s);
      break;
    case InputType::Boolean:
      w.field("type", "boolean");
      if (const bool* b = std::get_if<bool>(&in.default_value)) w.field("default", *b);
      break;
  }
  w.end_object();
}

namespace {

std::string output_description(const OutputDescriptor& out) {
  std::string d;
  if (out.unit && !out.unit->empty()) d += "Unit: " + *out.unit + ".";
  if (out.type == OutputType::Number) {
    if (!d.empty()) d += ' ';
    d += "Rounded to " + std::to_string(out.precision) + " decimal place" +
         (out.precision == 1 ? "" : "s") + ".";
  }
  return d;
}

void write_output_property(JsonWriter& w, const OutputDescriptor& out) {
  w.key(out.key).begin_object();
  w.field("title", out.label);
  const std::string description = output_description(out);
  if (!description.empty()) w.field("description", description);
  if (out.type == OutputType::Number) {
    w.field("type", "number");
  } else {
    w.field("type", "string");
    if (!out.options.empty()) {
      w.key("enum");
      write_strings(w, out.options);
    }
  }
  w.end_object();
}

}  // namespace

std::string input_description(const InputDescriptor& in) {
  std::string d;
  if (in.unit && !in.unit->empty()) d += "Unit: " + *in.unit + ".";
  if (in.help && !in.help->empty()) {
    if (!d.empty()) d += ' ';
    d += *in.help;
  }
  return d;
}

void write_input_schema(JsonWriter& w, const ToolDescriptor& tool) {
  w.begin_object().field("type", "object");
  w.key("properties").begin_object();
  for (const auto& in : tool.inputs) write_input_property(w, in);
  w.end_object();
  w.key("required").begin_array();
  for (const auto& in : tool.inputs)
    if (in.required) w.string(in.key);
  w.end_array();
  w.field("additionalProperties", false);
  w.end_object();
}

void write_output_schema(JsonWriter& w, const ToolDescriptor& tool) {
  w.begin_object().field("type", "object");
  w.key("properties").begin_object();
  for (const auto& out : tool.outputs) write_output_property(w, out);
  w.end_object();
  w.key("required").begin_array();
  for (const auto& out : tool.outputs) w.string(out.key);
  w.end_array();
  w.field("additionalProperties", false);
  w.end_object();
}

std::string input_schema_json(const ToolDescriptor& tool) {
  std::string s;
  JsonWriter w(s);
  write_input_schema(w, tool);
  return s;
}

std::string output_schema_json(const ToolDescriptor& tool) {
  std::string s;
  JsonWriter w(s);
  write_output_schema(w, tool);
  return s;
}

}  // namespace toolcalc::catalog
