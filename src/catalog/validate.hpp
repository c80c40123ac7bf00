#pragma once
// Turns a parsed request body into Inputs for one tool, or the first failure in
// descriptor order. `step` is a UI hint and is not enforced.
#include "catalog/descriptor.hpp"
#include "catalog/json_body.hpp"
#include "core/api_error.hpp"

namespace toolcalc::catalog {

bool validate_inputs(const ParsedBody& body, const ToolDescriptor& tool, Inputs& inputs,
                     ApiError& error);

// The known key closest to `unknown` (Damerau–Levenshtein distance ≤ 2, or one is a
// prefix of the other), or "" when none is close enough to suggest.
std::string closest_key(std::string_view unknown, const ToolDescriptor& tool);

}  // namespace toolcalc::catalog
