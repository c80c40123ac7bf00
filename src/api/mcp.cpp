#include "api/mcp.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "api/analysis_schema.hpp"
#include "catalog/json_schema.hpp"
#include "core/json_writer.hpp"
#include "core/secret_redaction.hpp"
#include "core/text.hpp"

namespace toolcalc::api {
namespace mcp {
namespace {}  // namespace

std::string tool_name(const catalog::ToolDescriptor& tool) {
  return tool.domain + "_" + tool.slug;
}

ToolIndex::ToolIndex(const catalog::Registry& registry) {
  JsonWriter w(list_result_);
  w.begin_object().key("tools").begin_array();
  for (const auto& r : registry.tools()) {
    const auto& t = r.tool.descriptor;
    const std::string name = tool_name(t);
    by_name_[name] = &r;
    w.begin_object().field("name", name).field("title", t.name);
    std::string description = t.description;
    if (t.standard) description += " Standard: " + *t.standard + ".";
    description +=
        " Number outputs are rounded to the stated decimal places; each successful "
        "call uses one unit of the caller's monthly quota.";
    w.field("description", description);
    w.key("inputSchema");
    catalog::write_input_schema(w, t);
    w.key("outputSchema");
    catalog::write_output_schema(w, t);
    // Pure calculations: nothing changes, the same inputs give the same result, and no
    // outside system is reached.
    w.key("annotations").begin_object().field("title", t.name).field("readOnlyHint", true);
    w.field("destructiveHint", false).field("idempotentHint", true);
    w.field("openWorldHint", false).end_object();
    w.end_object();
  }
  write_analysis_tools(w, registry);
  w.end_array().end_object();
}

void ToolIndex::write_analysis_tools(JsonWriter& w, const catalog::Registry& registry) {
  std::vector<std::string> tolerance_tools, solve_tools;
  for (const auto& r : registry.tools()) {
    if (analysis_schema::has_tolerance(r.tool.descriptor))
      tolerance_tools.push_back(tool_name(r.tool.descriptor));
    if (analysis_schema::has_solve(r.tool.descriptor))
      solve_tools.push_back(tool_name(r.tool.descriptor));
  }
  const auto annotations = [&](std::string_view title) {
    w.key("annotations").begin_object().field("title", title).field("readOnlyHint", true);
    w.field("destructiveHint", false).field("idempotentHint", true);
    w.field("openWorldHint", false).end_object();
  };
  w.begin_object().field("name", kToleranceTool).field("title", "Tolerance analysis");
  w.field("description",
          "Runs one of the tools above with tolerances on " +
              analysis_schema::toleranced_inputs_range() +
              " of its numeric inputs: for "
              "every number output the worst case over every corner and Monte Carlo sample, the "
              "first-order RSS spread (GUM) with each input's share of the variance, and Monte "
              "Carlo statistics with a histogram; for text outputs the count of each value. "
              "`tool` names the tool; the other arguments are the body of POST "
              "/v1/{domain}/{slug}/tolerance. Deterministic for a given seed. Uses units of the "
              "monthly quota: per " +
              analysis_schema::evaluations_per_quota_unit() +
              " evaluations, the tool's analysis cost class (1 for most "
              "tools; `analysis_cost_class` in GET /v1/tools/{slug}), at least one.");
  w.key("inputSchema");
  analysis_schema::write_mcp_tolerance_input(w, tolerance_tools);
  w.key("outputSchema");
  analysis_schema::write_mcp_tolerance_output(w);
  annotations("Tolerance analysis");
  w.end_object();
  w.begin_object().field("name", kSolveTool).field("title", "Solve for an input");
  w.field("description",
          "Finds every value of one numeric input of a tool, within its bounds, where one of "
          "its number outputs equals a target (a scan for sign changes refined by Brent's "
          "method), nearest the given value first, with the tool's outputs at each; when none "
          "does, the error states the range the output reaches. `tool` names the tool; the "
          "other arguments are the body of POST /v1/{domain}/{slug}/solve. Uses units of the "
          "monthly quota: per " +
              analysis_schema::evaluations_per_quota_unit() +
              " evaluations, the tool's analysis cost class (1 for most "
              "tools), at least one.");
  w.key("inputSchema");
  analysis_schema::write_mcp_solve_input(w, solve_tools);
  w.key("outputSchema");
  analysis_schema::write_mcp_solve_output(w);
  annotations("Solve for an input");
  w.end_object();
}

const catalog::RegisteredTool* ToolIndex::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

std::string ToolIndex::suggest(std::string_view name) const {
  for (const auto& [canonical, r] : by_name_) {
    const auto& t = r->tool.descriptor;
    if (name == t.slug || name == t.domain + "." + t.slug || name == t.domain + "/" + t.slug ||
        name == t.endpoint())
      return canonical;
  }
  return {};
}

bool origin_allowed(std::string_view origin, const std::vector<std::string>& allowed) {
  if (origin.empty()) return true;
  for (const auto& a : allowed)
    if (iequals(a, origin)) return true;
  const std::string o = ascii_lowercase(origin);
  std::string_view rest = o;
  if (rest.substr(0, 7) == "http://")
    rest.remove_prefix(7);
  else if (rest.substr(0, 8) == "https://")
    rest.remove_prefix(8);
  else
    return false;
  std::string_view host = rest;
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return false;
    rest = host.substr(close + 1);
    host = host.substr(0, close + 1);
  } else {
    const size_t colon = host.find(':');
    rest = colon == std::string_view::npos ? std::string_view{} : host.substr(colon);
    host = host.substr(0, colon);
  }
  if (!rest.empty()) {  // ":port" and nothing else
    if (rest.front() != ':' || rest.size() < 2 || rest.size() > 6) return false;
    for (char c : rest.substr(1))
      if (c < '0' || c > '9') return false;
  }
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

std::string call_result(std::string_view id_json, std::string_view result_json,
                        std::string_view request_id, std::optional<int64_t> quota_remaining) {
  std::string s;
  s.reserve(160 + 2 * result_json.size());
  JsonWriter w(s);
  w.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json);
  w.key("result").begin_object();
  w.key("content").begin_array().begin_object().field("type", "text");
  w.field("text", result_json).end_object().end_array();
  w.key("structuredContent").raw(result_json).field("isError", false);
  w.key("_meta").begin_object().field("toolcalc/request_id", request_id);
  w.key("toolcalc/quota_remaining");
  if (quota_remaining)
    w.integer(*quota_remaining);
  else
    w.null();
  w.end_object();
  w.end_object().end_object();
  return s;
}

std::string call_error(std::string_view id_json, const ApiError& error,
                       std::string_view request_id) {
  std::string s;
  JsonWriter w(s);
  w.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json);
  w.key("result").begin_object();
  w.key("content").begin_array().begin_object().field("type", "text");
  std::string message, field;  // without a key a client quoted (api/envelope.cpp)
  w.field("text", without_keys(error.message, message)).end_object().end_array();
  w.field("isError", true);
  w.key("_meta").begin_object().field("toolcalc/request_id", request_id);
  w.key("toolcalc/error").begin_object().field("code", error.code_name());
  if (!error.field.empty()) w.field("field", without_keys(error.field, field));
  w.end_object().end_object();
  w.end_object().end_object();
  return s;
}

std::string error_body(const ApiError& error, std::string_view id_json,
                       std::string_view request_id) {
  std::string s;
  s.reserve(160 + error.message.size());
  JsonWriter w(s);
  w.begin_object().field("jsonrpc", "2.0").key("id").raw(id_json);
  w.key("error").begin_object().field("code", error.code == ErrorCode::Internal ? -32603 : -32000);
  std::string message, field;  // without a key a client quoted (api/envelope.cpp)
  w.field("message", without_keys(error.message, message));
  w.key("data").begin_object().field("code", error.code_name()).field("request_id", request_id);
  if (!error.field.empty()) w.field("field", without_keys(error.field, field));
  w.end_object().end_object().end_object();
  return s;
}

}  // namespace mcp
}  // namespace toolcalc::api
