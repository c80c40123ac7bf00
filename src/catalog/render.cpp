#include "catalog/render.hpp"

#include <cmath>
#include <stdexcept>

namespace toolcalc::catalog {

const char* input_type_name(InputType t) {
  switch (t) {
    case InputType::Number:
      return "number";
    case InputType::Integer:
      return "integer";
    case InputType::Enum:
      return "enum";
    case InputType::Boolean:
      return "boolean";
  }
  return "number";
}

void write_default_value(JsonWriter& w, const DefaultValue& value) {
  if (const double* d = std::get_if<double>(&value))
    w.shortest(*d);
  else if (const auto* s = std::get_if<std::string>(&value))
    w.string(*s);
  else
    w.boolean(std::get<bool>(value));
}

std::string default_body(const ToolDescriptor& tool) {
  std::string s;
  JsonWriter w(s);
  w.begin_object();
  for (const auto& in : tool.inputs) {
    w.key(in.key);
    write_default_value(w, in.default_value);
  }
  w.end_object();
  return s;
}

namespace {

void write_default(JsonWriter& w, const InputDescriptor& in) {
  w.key("default");
  write_default_value(w, in.default_value);
}

void write_input(JsonWriter& w, const InputDescriptor& in) {
  w.begin_object();
  w.field("key", in.key).field("label", in.label);
  if (in.required) w.field("required", true);
  if (in.unit) w.field("unit", *in.unit);
  if (in.help) w.field("help", *in.help);
  w.field("type", input_type_name(in.type));
  if (in.min) w.key("min").shortest(*in.min);
  if (in.max) w.key("max").shortest(*in.max);
  if (in.step) w.key("step").shortest(*in.step);
  write_default(w, in);
  if (in.type == InputType::Enum) {
    w.key("options").begin_array();
    for (const auto& o : in.options) w.string(o);
    w.end_array();
  }
  w.end_object();
}

void write_output(JsonWriter& w, const OutputDescriptor& out) {
  w.begin_object();
  w.field("key", out.key).field("label", out.label);
  w.field("type", out.type == OutputType::Number ? "number" : "string");
  if (out.unit) w.field("unit", *out.unit);
  if (out.type == OutputType::Number) w.field("precision", out.precision);
  if (!out.options.empty()) {
    w.key("options").begin_array();
    for (const auto& o : out.options) w.string(o);
    w.end_array();
  }
  w.end_object();
}

void write_identity(JsonWriter& w, const ToolDescriptor& t) {
  w.field("tool", t.slug).field("domain", t.domain).field("version", t.version);
  w.field("name", t.name).field("description", t.description);
  w.key("standard");
  if (t.standard)
    w.string(*t.standard);
  else
    w.null();
}

void write_record_fields(JsonWriter& w, const ToolDescriptor& t) {
  write_identity(w, t);
  w.key("inputs").begin_array();
  for (const auto& in : t.inputs) write_input(w, in);
  w.end_array();
  w.key("outputs").begin_array();
  for (const auto& out : t.outputs) write_output(w, out);
  w.end_array();
  w.field("endpoint", t.endpoint());
}

}  // namespace

std::string render_record(const ToolDescriptor& tool) {
  std::string s;
  JsonWriter w(s);
  w.begin_object();
  write_record_fields(w, tool);
  w.end_object();
  return s;
}

std::string render_summary(const ToolDescriptor& tool) {
  std::string s;
  JsonWriter w(s);
  w.begin_object();
  write_identity(w, tool);
  w.field("endpoint", tool.endpoint());
  w.end_object();
  return s;
}

std::string render_details(const ToolDescriptor& tool, int analysis_cost_class) {
  std::string s;
  JsonWriter w(s);
  w.begin_object();
  write_record_fields(w, tool);
  w.field("schema", tool.endpoint() + "/schema");
  w.field("docs", "docs/tools/" + tool.slug + ".md");
  w.field("analysis_cost_class", analysis_cost_class);
  w.key("references").begin_array();
  for (const auto& r : tool.references) w.string(r);
  w.end_array();
  w.key("examples").begin_array();
  for (const auto& ex : tool.examples) {
    w.begin_object().field("title", ex.title).field("method", "POST");
    w.field("path", tool.endpoint()).key("body").raw(ex.request_json);
    if (!ex.expected_json.empty()) {
      w.key("expected").raw(ex.expected_json);
      w.key("tolerance_pct").shortest(ex.tolerance_pct);
      w.field("source", ex.source);
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return s;
}

void render_result(JsonWriter& w, const ToolDescriptor& tool, const Outputs& outputs) {
  w.begin_object();
  for (size_t i = 0; i < tool.outputs.size(); ++i) {
    const OutputDescriptor& out = tool.outputs[i];
    // Tools set their outputs in descriptor order, so the i-th entry is tried first.
    const OutputValue* v = outputs.find(out.key, i);
    if (v == nullptr) throw std::logic_error(tool.slug + " did not set output " + out.key);
    // Output keys are identifiers (check_catalog): the registry renders `,"key":` once.
    if (out.json_member.empty())
      w.plain_key(out.key);
    else
      w.member(out.json_member);
    if (out.type == OutputType::Number) {
      const double* d = std::get_if<double>(v);
      if (d == nullptr) throw std::logic_error(tool.slug + " set " + out.key + " as text");
      if (!std::isfinite(*d)) throw std::logic_error(tool.slug + " produced non-finite " + out.key);
      w.fixed(*d, out.precision);
    } else {
      const auto* s = std::get_if<std::string>(v);
      if (s == nullptr) throw std::logic_error(tool.slug + " set " + out.key + " as a number");
      w.string(*s);
    }
  }
  w.end_object();
}

}  // namespace toolcalc::catalog
