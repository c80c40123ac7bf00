#include "api/solve_request.hpp"

#include "api/request_fields.hpp"
#include "api/sweep_request.hpp"
#include "catalog/json_body.hpp"
#include "catalog/validate.hpp"

namespace toolcalc::api {
namespace {

using catalog::BodyMember;
using fields::find;

bool parse_vary(const catalog::ToolDescriptor& tool, const BodyMember* vary, size_t& index,
                ApiError& error) {
  const std::string keys = fields::numeric_input_keys(tool);
  if (vary == nullptr) {
    error =
        validation_error("vary", "vary is required: the numeric input to solve for (" + keys + ")");
    return false;
  }
  if (vary->kind == BodyMember::Kind::String)
    for (size_t i = 0; i < tool.inputs.size(); ++i)
      if (tool.inputs[i].key == vary->text && tool.inputs[i].is_numeric()) {
        index = i;
        return true;
      }
  std::string msg =
      vary->kind == BodyMember::Kind::String
          ? "vary '" + vary->text + "' is not a numeric input of " + tool.slug
          : std::string("vary must be a string, got ") + catalog::kind_name(vary->kind);
  error = validation_error("vary", msg + "; solve for one of: " + keys);
  return false;
}

bool parse_target(const catalog::ToolDescriptor& tool, const BodyMember* target, size_t& output,
                  double& value, ApiError& error) {
  const std::string outputs = fields::numeric_output_keys(tool);
  const std::string shape = R"({"output": one of )" + outputs + R"(, "value": a number})";
  if (target == nullptr) {
    error = validation_error("target", "target is required: " + shape);
    return false;
  }
  if (target->kind != BodyMember::Kind::Object) {
    error = validation_error("target", "target must be an object " + shape + ", got " +
                                           catalog::kind_name(target->kind));
    return false;
  }
  if (!fields::only_members(*target, "target", {"output", "value"}, "output and value", error))
    return false;
  const BodyMember* out = find(target->fields, "output");
  if (out == nullptr) {
    error = validation_error(
        "target.output", "target.output is required: the number output to reach (" + outputs + ")");
    return false;
  }
  bool found = false;
  if (out->kind == BodyMember::Kind::String)
    for (size_t i = 0; i < tool.outputs.size() && !found; ++i)
      if (tool.outputs[i].key == out->text && tool.outputs[i].type == catalog::OutputType::Number) {
        output = i;
        found = true;
      }
  if (!found) {
    std::string msg =
        out->kind == BodyMember::Kind::String
            ? "target.output '" + out->text + "' is not a number output of " + tool.slug
            : std::string("target.output must be a string, got ") + catalog::kind_name(out->kind);
    error = validation_error("target.output", msg + "; reach one of: " + outputs);
    return false;
  }
  const BodyMember* v = find(target->fields, "value");
  if (v == nullptr) {
    error = validation_error("target.value",
                             "target.value is required: the value of " + out->text + " to reach");
    return false;
  }
  return fields::finite_number(*v, "target.value", value, error);
}

}  // namespace

bool parse_solve_request(const catalog::ToolDescriptor& tool, std::string_view body,
                         SolveRequest& out, ApiError& error) {
  thread_local catalog::ParsedBody parsed;  // reused: keeps its capacity across requests
  if (!catalog::parse_body(body, parsed, error)) return false;
  for (const auto& m : parsed.members) {
    if (m.key == "inputs" || m.key == "vary" || m.key == "target") continue;
    error = validation_error(
        m.key, "unknown member '" + m.key + "'; a solve body has inputs, vary and target");
    return false;
  }
  size_t input = 0, output = 0;
  double value = 0;
  if (!parse_vary(tool, find(parsed.members, "vary"), input, error)) return false;
  if (!parse_target(tool, find(parsed.members, "target"), output, value, error)) return false;

  const BodyMember* inputs = find(parsed.members, "inputs");
  if (inputs != nullptr && inputs->kind != BodyMember::Kind::Object) {
    error = validation_error("inputs", std::string("inputs must be an object of the tool's "
                                                   "inputs, got ") +
                                           catalog::kind_name(inputs->kind));
    return false;
  }
  catalog::ParsedBody nominal_body;
  if (inputs != nullptr) nominal_body.members = inputs->fields;
  const catalog::InputDescriptor& varied = tool.inputs[input];
  // Left out, the varied input starts from its default: only the order of the solutions
  // (nearest first) depends on it.
  if (find(nominal_body.members, varied.key) == nullptr)
    set_number_member(nominal_body, varied.key, std::get<double>(varied.default_value));
  out.nominal = {};
  if (!catalog::validate_inputs(nominal_body, tool, out.nominal, error)) {
    error.field = "inputs." + error.field;
    return false;
  }
  out.options = {input, output, value, out.nominal.number(varied.key)};
  return true;
}

}  // namespace toolcalc::api
