#pragma once
// Internal to api/openapi: the names of the error response components, one per status.
#include <string>

namespace toolcalc::api::openapi {

// "BadRequest", "TooManyRequests", …: the REST error response for `status`.
std::string rest_response_name(int status);
// "McpBadRequest", …: the MCP endpoint's, whose body is a JSON-RPC error response.
std::string mcp_response_name(int status);

}  // namespace toolcalc::api::openapi
