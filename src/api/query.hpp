#pragma once
// Query parameters of GET /v1/tools.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/api_error.hpp"

namespace toolcalc::api {

struct ToolsQuery {
  std::string domain;  // "" = all
  int64_t page = 1;    // 1..kMaxPage (api/limits.hpp)
  int64_t limit = 20;  // 1..kMaxPageSize
};

// Unknown parameters, repeated parameters and bad values are 400 VALIDATION_ERROR naming
// the parameter.
bool parse_tools_query(std::string_view query, ToolsQuery& out, ApiError& error);

}  // namespace toolcalc::api
