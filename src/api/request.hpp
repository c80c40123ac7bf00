#pragma once
// A transport-free HTTP request: what the API layer needs, as views into the transport's
// buffers (valid for the duration of one handle() call).
#include <optional>
#include <string_view>

namespace toolcalc::api {

struct Request {
  std::string_view method;        // "GET", "POST", "OPTIONS", ...
  std::string_view target;        // origin-form: /api/v1/tools?page=2
  std::string_view content_type;  // "" when absent
  std::optional<std::string_view> authorization;
  std::string_view origin;                // "" when absent
  std::string_view host;                  // Host header; "" when absent
  std::string_view mcp_protocol_version;  // MCP-Protocol-Version header; "" when absent
  std::string_view if_none_match;         // If-None-Match header; "" when absent
  std::string_view body;
  std::string_view peer_ip;
};

}  // namespace toolcalc::api
