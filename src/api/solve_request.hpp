#pragma once
// The body of POST /v1/{domain}/{slug}/solve (docs/api.md, "Solve for an input"):
// {"inputs":{…}, "vary": KEY, "target":{"output": OUT, "value": V}}, checked against one
// tool. Pure: no accounts, no HTTP.
#include <string_view>

#include "analysis/solve.hpp"
#include "catalog/descriptor.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api {

struct SolveRequest {
  catalog::Inputs nominal;  // validated; the varied input at its given value or default
  analysis::SolveOptions options;
};

// 400 INVALID_JSON / VALIDATION_ERROR on failure, naming the field: an unknown top-level
// member, "vary" (missing, or not one of the tool's numeric inputs), "target",
// "target.output" (not one of its number outputs), "target.value", "target.<member>",
// "inputs" or "inputs.<key>" (execute's checks; the varied input may be left out and then
// starts at its default).
bool parse_solve_request(const catalog::ToolDescriptor& tool, std::string_view body,
                         SolveRequest& out, ApiError& error);

}  // namespace toolcalc::api
