#include "api/execute.hpp"

#include "catalog/json_body.hpp"
#include "catalog/render.hpp"
#include "catalog/validate.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api {

bool prepare_inputs(const catalog::ToolDescriptor& tool, std::string_view body,
                    catalog::Inputs& inputs, ApiError& error) {
  thread_local catalog::ParsedBody parsed;  // reused: keeps its capacity across requests
  if (!catalog::parse_body(body, parsed, error)) return false;
  return catalog::validate_inputs(parsed, tool, inputs, error);
}

bool compute_result(const catalog::Tool& tool, const catalog::Inputs& inputs, std::string& out,
                    ApiError& error) {
  catalog::ComputeResult result = tool.compute(inputs);
  if (auto* failure = std::get_if<catalog::ToolError>(&result)) {
    error = unprocessable(failure->field, failure->message);
    return false;
  }
  JsonWriter w(out);
  catalog::render_result(w, tool.descriptor, std::get<catalog::Outputs>(result));
  return true;
}

}  // namespace toolcalc::api
