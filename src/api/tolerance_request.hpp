#pragma once
// The body of POST /v1/{domain}/{slug}/tolerance (docs/api.md, "Tolerance analysis"):
// {"inputs":{…}, "tolerances":{KEY: TOL, …}, "distribution", "samples", "seed"}, checked
// against one tool. Pure: no accounts, no HTTP.
#include <cstdint>
#include <string_view>

#include "analysis/tolerance.hpp"
#include "catalog/descriptor.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api {

struct ToleranceRequest {
  catalog::Inputs nominal;             // validated as execute validates a body
  analysis::ToleranceOptions options;  // the toleranced inputs in descriptor order
  analysis::Distribution distribution = analysis::Distribution::Normal;  // the body's default
  int64_t evaluations = 0;  // what the analysis will make (analysis::tolerance_evaluations)
};

// 400 INVALID_JSON / VALIDATION_ERROR on failure, naming the field: an unknown top-level
// member, "inputs" or "inputs.<key>" (execute's checks and messages), "distribution",
// "samples", "seed", "tolerances", "tolerances.<key>" (unknown or not numeric input, not an
// object, no or several kinds of range, an empty range, a range past the input's bounds)
// or "tolerances.<key>.<member>" (pct, abs, min, max, distribution, an unknown member).
bool parse_tolerance_request(const catalog::ToolDescriptor& tool, std::string_view body,
                             ToleranceRequest& out, ApiError& error);

const char* distribution_name(analysis::Distribution d);

}  // namespace toolcalc::api
