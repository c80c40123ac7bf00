#pragma once
// The one execution path shared by REST, `toolcalc run` and (later) MCP and sweeps:
// body → parse → validate → compute → render. Accounts are handled by the caller,
// between prepare_inputs and compute_result (quota is reserved only for valid input).
#include <string>
#include <string_view>

#include "catalog/registry.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api {

// 400 INVALID_JSON / VALIDATION_ERROR on failure.
bool prepare_inputs(const catalog::ToolDescriptor& tool, std::string_view body,
                    catalog::Inputs& inputs, ApiError& error);

// Appends the rendered `result` object to `out`; 422 UNPROCESSABLE on a ToolError.
bool compute_result(const catalog::Tool& tool, const catalog::Inputs& inputs, std::string& out,
                    ApiError& error);

}  // namespace toolcalc::api
