#pragma once
// The envelopes of spec §2.7. Every error a client sees is written here.
#include <string>
#include <string_view>

#include "catalog/descriptor.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api {

// {"ok":false,"error":{"code","message","field"?},"meta":{"request_id"}}
std::string error_body(const ApiError& error, std::string_view request_id);

// {"ok":true,"result":<result_json>,"meta":{"request_id"}} for discovery and account
// endpoints (spec §4: the schema envelope's meta holds only request_id).
std::string result_body(std::string_view result_json, std::string_view request_id);

// {"ok":true,"tool":…,"domain":…,"version":…,"result": — the constant start of every
// successful execute or sweep response of the tool (spec §2.7), rendered once at start-up.
std::string execute_body_prefix(const catalog::ToolDescriptor& tool);

// result_body up to its request id, for an answer rendered once: result_body(json, id) is
// result_body_prefix(json) + id + result_body_suffix for a request id that needs no
// escaping (new_request_id's are base62).
std::string result_body_prefix(std::string_view result_json);
inline constexpr std::string_view result_body_suffix = "\"}}";

}  // namespace toolcalc::api
