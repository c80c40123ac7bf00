#pragma once
// The body of POST /v1/{domain}/{slug}/sweep (docs/api.md "Sweeps"):
// {"inputs":{…}, "vary":{"key","from","to","points"}}, checked against one tool.
// Pure: no accounts, no HTTP.
#include <string_view>
#include <vector>

#include "catalog/descriptor.hpp"
#include "catalog/json_body.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api {

inline constexpr int kSweepMinPoints = 2;
inline constexpr int kSweepMaxPoints = 200;
// Significant digits of the x values: enough for any engineering input, few enough that
// 0.1 + 2·0.1 reads 0.3 (the value used is the value shown).
inline constexpr int kSweepSignificantDigits = 12;

struct SweepRequest {
  const catalog::InputDescriptor* input = nullptr;  // the varied input
  std::vector<double> xs;                           // the values it takes, in order
  // The body's `inputs` with the varied key set to xs[0]; the caller sets it per point.
  catalog::ParsedBody inputs;
};

// 400 INVALID_JSON / VALIDATION_ERROR (field "inputs", "inputs.<key>", "vary",
// "vary.key", "vary.from", "vary.to", "vary.points", or an unknown top-level key) on
// failure. The other inputs are validated here, once, with validate_inputs.
bool parse_sweep_request(const catalog::ToolDescriptor& tool, std::string_view body,
                         SweepRequest& out, ApiError& error);

// The x values: from + i·(to−from)/(points−1), the last exactly `to`, each rounded to
// kSweepSignificantDigits significant digits (integer inputs: to an integer, half away from zero).
std::vector<double> sweep_values(double from, double to, int points, bool integer);

// Sets the member `key` of `body` to the number `x`, adding it when absent.
void set_number_member(catalog::ParsedBody& body, std::string_view key, double x);

}  // namespace toolcalc::api
