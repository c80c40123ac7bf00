#pragma once
// The Model Context Protocol front: the registry's tools for agents over Streamable HTTP
// at {base}/mcp, JSON responses only. handlers::mcp_endpoint (api/handlers/mcp_endpoint.cpp)
// parses one JSON-RPC message per POST and runs tools/call through handlers::run_tool, the
// execute path of the REST API. What is here is the part without a request: tool names,
// the tools/list result rendered once, the Origin rule and the JSON-RPC error body.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/registry.hpp"
#include "core/api_error.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::mcp {

// Protocol revisions this server speaks, newest first. initialize answers with the
// client's version when it is one of these, else with the newest.
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18"};

// The analysis tools (docs/api.md, "Analyses"), listed after the catalog's: a tolerance
// analysis and a solve of any catalog tool named by their `tool` argument.
inline constexpr std::string_view kToleranceTool = "tolerance_analysis";
inline constexpr std::string_view kSolveTool = "solve_for_input";

// "{domain}_{slug}", e.g. "iot-mcu_mcu-deep-sleep-battery". MCP (2025-11-25) allows
// [A-Za-z0-9_.-]{1,128}; we keep to [A-Za-z0-9_-]{1,64} — no dot — because several
// clients and the function-calling APIs of language models accept only that.
std::string tool_name(const catalog::ToolDescriptor& tool);

class ToolIndex {
 public:
  explicit ToolIndex(const catalog::Registry& registry);
  const catalog::RegisteredTool* find(std::string_view name) const;
  // A hint for a name that is not a tool but names one another way ("domain.slug",
  // "domain/slug" or the bare slug): the right name, or "".
  std::string suggest(std::string_view name) const;
  // {"tools":[{name,title,description,inputSchema,outputSchema,annotations}…]}
  const std::string& list_result() const { return list_result_; }

 private:
  // tolerance_analysis and solve_for_input, over the tools they apply to.
  static void write_analysis_tools(JsonWriter& w, const catalog::Registry& registry);
  std::unordered_map<std::string, const catalog::RegisteredTool*> by_name_;
  std::string list_result_;
};

// No Origin header (non-browser clients) → allowed. Otherwise the origin must be a
// loopback one (http or https; localhost, 127.0.0.1 or [::1], any port) or equal, ignoring
// case, one of `allowed` (e.g. "https://app.example.com"). "null" is never allowed.
bool origin_allowed(std::string_view origin, const std::vector<std::string>& allowed);

// The JSON-RPC response to a tools/call that produced `result_json`: structuredContent, the
// same JSON as a text block, and _meta with the request id and the quota left (null: no
// quota).
std::string call_result(std::string_view id_json, std::string_view result_json,
                        std::string_view request_id, std::optional<int64_t> quota_remaining);
// The JSON-RPC response to a tools/call refused with a 400 or 422 ApiError: a tool result
// with isError and the message as text, _meta.toolcalc/error = {code, field}.
std::string call_error(std::string_view id_json, const ApiError& error,
                       std::string_view request_id);

// A refusal of the HTTP request (401, 403, 405, 415, 429, 500) as a JSON-RPC error
// response: code -32603 for INTERNAL, else -32000, with data {code, request_id, field?}.
// `id_json` is the request's id as JSON, or "null" before the body was read.
std::string error_body(const ApiError& error, std::string_view id_json,
                       std::string_view request_id);

}  // namespace toolcalc::api::mcp
