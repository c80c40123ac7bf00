#include "api/solve_request.hpp"

#include "api/request_fields.hpp"
#include "api/sweep_request.hpp"

namespace toolcalc::api {
namespace {

using catalog::BodyMember;
using fields::find;

bool parse_target(const catalog::ToolDescriptor& tool, const BodyMember* target, size_t& output,
                  double& value, ApiError& error) {
  const std::string shape =
      R"({"output": one of )" + fields::numeric_output_keys(tool) + R"(, "value": a number})";
  if (target == nullptr) {
    error = fields::missing("target", shape);
    return false;
  }
  if (target->kind != BodyMember::Kind::Object) {
    error = fields::not_an_object("target", *target, " " + shape);
    return false;
  }
  if (!fields::only_members(*target, "target", {"output", "value"}, "output and value", error))
    return false;
  const BodyMember* out = find(target->fields, "output");
  if (!fields::number_output_named(tool, out, "target.output", "reach", output, error))
    return false;
  const BodyMember* v = find(target->fields, "value");
  if (v == nullptr) {
    error = fields::missing("target.value", "the value of " + out->text + " to reach");
    return false;
  }
  return fields::finite_number(*v, "target.value", value, error);
}

}  // namespace

bool parse_solve_request(const catalog::ToolDescriptor& tool, std::string_view body,
                         SolveRequest& out, ApiError& error) {
  const catalog::ParsedBody* parsed = fields::parse_body_of(
      body, {"inputs", "vary", "target"}, "a solve body has inputs, vary and target", error);
  if (parsed == nullptr) return false;
  size_t input = 0, output = 0;
  double value = 0;
  if (!fields::numeric_input_named(tool, find(parsed->members, "vary"), "vary", "solve for", input,
                                   error))
    return false;
  if (!parse_target(tool, find(parsed->members, "target"), output, value, error)) return false;

  catalog::ParsedBody nominal_body;
  if (!fields::read_inputs(parsed->members, nominal_body, error)) return false;
  const catalog::InputDescriptor& varied = tool.inputs[input];
  // Left out, the varied input starts from its default: only the order of the solutions
  // (nearest first) depends on it.
  if (find(nominal_body.members, varied.key) == nullptr)
    set_number_member(nominal_body, varied.key, std::get<double>(varied.default_value));
  out.nominal = {};
  if (!fields::validate_body_inputs(nominal_body, tool, out.nominal, error)) return false;
  out.options = {input, output, value, out.nominal.number(varied.key)};
  return true;
}

}  // namespace toolcalc::api
