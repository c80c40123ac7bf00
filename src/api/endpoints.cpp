#include "api/endpoints.hpp"

#include "api/service.hpp"

namespace toolcalc::api {

// A friend of Service, whose handlers are private.
struct EndpointRows {
  static constexpr std::string_view kHeaders = "Authorization, Content-Type";
  static constexpr std::string_view kMcpHeaders =
      "Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id";
  static constexpr std::string_view kGet = "GET, OPTIONS";
  static constexpr std::string_view kPost = "POST, OPTIONS";

  // kind, name, path, methods, method, callers, counting, tool route, OpenAPI, timing,
  // preflight headers, handler (the columns of Endpoint).
  static constexpr std::array<Endpoint, kRouteKindCount> rows = {{
      {RouteKind::NotFound, "not_found", "", "", Method::Any, Callers::KeyOptional,
       Counting::Request, false, OpenApi::None, Timing::Other, kHeaders, &Service::no_such_path},
      {RouteKind::Execute, "execute", "/v1/{domain}/{slug}", kPost, Method::Post, Callers::Key,
       Counting::Execution, true, OpenApi::PerTool, Timing::Execute, kHeaders, &Service::execute},
      {RouteKind::Schema, "schema", "/v1/{domain}/{slug}/schema", kGet, Method::Get,
       Callers::KeyOptional, Counting::Request, true, OpenApi::PerTool, Timing::Discovery, kHeaders,
       &Service::schema},
      {RouteKind::Sweep, "sweep", "/v1/{domain}/{slug}/sweep", kPost, Method::Post, Callers::Key,
       Counting::Units, true, OpenApi::PerTool, Timing::Sweep, kHeaders, &Service::sweep},
      {RouteKind::Tolerance, "tolerance", "/v1/{domain}/{slug}/tolerance", kPost, Method::Post,
       Callers::Key, Counting::Units, true, OpenApi::PerTool, Timing::Analysis, kHeaders,
       &Service::tolerance},
      {RouteKind::Solve, "solve", "/v1/{domain}/{slug}/solve", kPost, Method::Post, Callers::Key,
       Counting::Units, true, OpenApi::PerTool, Timing::Analysis, kHeaders, &Service::solve},
      {RouteKind::Tools, "tools", "/v1/tools", kGet, Method::Get, Callers::KeyOptional,
       Counting::Request, false, OpenApi::Public, Timing::Discovery, kHeaders, &Service::tools},
      {RouteKind::ToolBySlug, "tool", "/v1/tools/{slug}", kGet, Method::Get, Callers::KeyOptional,
       Counting::Request, false, OpenApi::Public, Timing::Discovery, kHeaders,
       &Service::tool_by_slug},
      {RouteKind::Domains, "domains", "/v1/domains", kGet, Method::Get, Callers::KeyOptional,
       Counting::Request, false, OpenApi::Public, Timing::Discovery, kHeaders, &Service::domains},
      {RouteKind::Me, "me", "/v1/me", kGet, Method::Get, Callers::Key, Counting::Request, false,
       OpenApi::Public, Timing::Other, kHeaders, &Service::me},
      {RouteKind::Usage, "usage", "/v1/usage", kGet, Method::Get, Callers::Key, Counting::Request,
       false, OpenApi::Public, Timing::Other, kHeaders, &Service::usage},
      {RouteKind::Health, "health", "/v1/health", kGet, Method::Get, Callers::Anonymous,
       Counting::NotCounted, false, OpenApi::Public, Timing::Other, kHeaders, &Service::health},
      {RouteKind::Ready, "ready", "/v1/ready", kGet, Method::Get, Callers::Anonymous,
       Counting::NotCounted, false, OpenApi::Public, Timing::Other, kHeaders, &Service::ready},
      {RouteKind::OpenApi, "openapi", "/v1/openapi.json", kGet, Method::Get, Callers::KeyOptional,
       Counting::Request, false, OpenApi::Public, Timing::Discovery, kHeaders, &Service::openapi},
      {RouteKind::Mcp, "mcp", "/mcp", kPost, Method::Post, Callers::KeyOptional, Counting::Units,
       false, OpenApi::Public, Timing::Mcp, kMcpHeaders, &Service::mcp_endpoint},
      {RouteKind::Asset, "playground", "/", "GET, HEAD, OPTIONS", Method::GetOrHead,
       Callers::Anonymous, Counting::NotCounted, false, OpenApi::None, Timing::Other, kHeaders,
       &Service::asset},
      {RouteKind::LlmsTxt, "llms_txt", "/llms.txt", kGet, Method::Get, Callers::Anonymous,
       Counting::NotCounted, false, OpenApi::Public, Timing::Other, kHeaders, &Service::llms_txt},
      {RouteKind::Admin, "admin", "/admin/v1/{operation}", "GET, POST, PATCH, DELETE, OPTIONS",
       Method::Any, Callers::Admin, Counting::NotCounted, false, OpenApi::Admin, Timing::Other,
       kHeaders, &Service::admin},
      {RouteKind::Metrics, "metrics", "/metrics", kGet, Method::Get, Callers::Anonymous,
       Counting::NotCounted, false, OpenApi::Public, Timing::Other, kHeaders,
       &Service::prometheus_metrics},
  }};
};

namespace {

// (Whether each row has a handler is tested at run time, endpoints_test.cpp: g++ does not
// fold a member pointer's comparison with nullptr under -fsanitize=undefined.)
constexpr bool in_kind_order(const std::array<Endpoint, kRouteKindCount>& rows) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (static_cast<size_t>(rows[i].kind) != i) return false;
  return true;
}
static_assert(in_kind_order(EndpointRows::rows), "one row per RouteKind, in the enum's order");

}  // namespace

const std::array<Endpoint, kRouteKindCount> kEndpoints = EndpointRows::rows;

}  // namespace toolcalc::api
