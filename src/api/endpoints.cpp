#include "api/endpoints.hpp"

#include "api/handlers/handlers.hpp"
#include "api/openapi/paths.hpp"

namespace toolcalc::api {
namespace {

namespace h = handlers;
namespace doc = openapi;

constexpr std::string_view kHeaders = "Authorization, Content-Type";
constexpr std::string_view kMcpHeaders =
    "Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id";
constexpr std::string_view kGet = "GET, OPTIONS";
constexpr std::string_view kPost = "POST, OPTIONS";
constexpr Mount kBase = Mount::BasePath;
constexpr Mount kRootToo = Mount::RootAndBasePath;
constexpr ErrorFormat kEnvelope = ErrorFormat::Envelope;

// kind, name, path, mount, methods, method, callers, counting, tool route, OpenAPI writer,
// timing, error format, preflight headers, handler (the columns of Endpoint).
constexpr std::array<Endpoint, kRouteKindCount> kRows = {{
    {RouteKind::NotFound, "not_found", "", kBase, "", Method::Any, Callers::KeyOptional,
     Counting::Request, false, doc::no_path, Timing::Other, kEnvelope, kHeaders, h::no_such_path},
    {RouteKind::Execute, "execute", "/v1/{domain}/{slug}", kBase, kPost, Method::Post, Callers::Key,
     Counting::Execution, true, doc::execute_paths, Timing::Execute, kEnvelope, kHeaders,
     h::execute},
    {RouteKind::Schema, "schema", "/v1/{domain}/{slug}/schema", kBase, kGet, Method::Get,
     Callers::KeyOptional, Counting::Request, true, doc::schema_paths, Timing::Discovery, kEnvelope,
     kHeaders, h::schema},
    {RouteKind::Sweep, "sweep", "/v1/{domain}/{slug}/sweep", kBase, kPost, Method::Post,
     Callers::Key, Counting::Units, true, doc::sweep_paths, Timing::Sweep, kEnvelope, kHeaders,
     h::sweep},
    {RouteKind::Tolerance, "tolerance", "/v1/{domain}/{slug}/tolerance", kBase, kPost, Method::Post,
     Callers::Key, Counting::Units, true, doc::tolerance_paths, Timing::Analysis, kEnvelope,
     kHeaders, h::tolerance},
    {RouteKind::Solve, "solve", "/v1/{domain}/{slug}/solve", kBase, kPost, Method::Post,
     Callers::Key, Counting::Units, true, doc::solve_paths, Timing::Analysis, kEnvelope, kHeaders,
     h::solve},
    {RouteKind::Tools, "tools", "/v1/tools", kBase, kGet, Method::Get, Callers::KeyOptional,
     Counting::Request, false, doc::tools_path, Timing::Discovery, kEnvelope, kHeaders,
     h::list_tools},
    {RouteKind::ToolBySlug, "tool", "/v1/tools/{slug}", kBase, kGet, Method::Get,
     Callers::KeyOptional, Counting::Request, false, doc::tool_path, Timing::Discovery, kEnvelope,
     kHeaders, h::tool_by_slug},
    {RouteKind::Domains, "domains", "/v1/domains", kBase, kGet, Method::Get, Callers::KeyOptional,
     Counting::Request, false, doc::domains_path, Timing::Discovery, kEnvelope, kHeaders,
     h::domains},
    {RouteKind::Me, "me", "/v1/me", kBase, kGet, Method::Get, Callers::Key, Counting::Request,
     false, doc::me_path, Timing::Other, kEnvelope, kHeaders, h::me},
    {RouteKind::Usage, "usage", "/v1/usage", kBase, kGet, Method::Get, Callers::Key,
     Counting::Request, false, doc::usage_path, Timing::Other, kEnvelope, kHeaders, h::usage},
    {RouteKind::Health, "health", "/v1/health", kBase, kGet, Method::Get, Callers::Anonymous,
     Counting::NotCounted, false, doc::health_path, Timing::Other, kEnvelope, kHeaders, h::health},
    {RouteKind::Ready, "ready", "/v1/ready", kBase, kGet, Method::Get, Callers::Anonymous,
     Counting::NotCounted, false, doc::ready_path, Timing::Other, kEnvelope, kHeaders, h::ready},
    {RouteKind::OpenApi, "openapi", "/v1/openapi.json", kBase, kGet, Method::Get,
     Callers::KeyOptional, Counting::Request, false, doc::openapi_path, Timing::Discovery,
     kEnvelope, kHeaders, h::openapi_document},
    {RouteKind::Mcp, "mcp", "/mcp", kBase, kPost, Method::Post, Callers::KeyOptional,
     Counting::Units, false, doc::mcp_path, Timing::Mcp, ErrorFormat::JsonRpc, kMcpHeaders,
     h::mcp_endpoint},
    {RouteKind::Asset, "playground", "/", kRootToo, "GET, HEAD, OPTIONS", Method::GetOrHead,
     Callers::Anonymous, Counting::NotCounted, false, doc::no_path, Timing::Other, kEnvelope,
     kHeaders, h::asset},
    {RouteKind::LlmsTxt, "llms_txt", "/llms.txt", kRootToo, kGet, Method::Get, Callers::Anonymous,
     Counting::NotCounted, false, doc::llms_txt_path, Timing::Other, kEnvelope, kHeaders,
     h::llms_txt},
    {RouteKind::Admin, "admin", "/admin/v1/{operation}", kBase, "GET, POST, PATCH, DELETE, OPTIONS",
     Method::Any, Callers::Admin, Counting::NotCounted, false, doc::no_path, Timing::Other,
     kEnvelope, kHeaders, h::admin},
    {RouteKind::Metrics, "metrics", "/metrics", kRootToo, kGet, Method::Get, Callers::Anonymous,
     Counting::NotCounted, false, doc::metrics_path, Timing::Other, kEnvelope, kHeaders,
     h::prometheus_metrics},
}};

// Each row's handler and OpenAPI writer (openapi::no_path for an endpoint the document does
// not describe) are checked at run time (endpoints_test.cpp): g++ does not fold a function
// pointer's comparison with nullptr in a constant expression under -fsanitize=undefined.
constexpr bool in_kind_order(const std::array<Endpoint, kRouteKindCount>& rows) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (static_cast<size_t>(rows[i].kind) != i) return false;
  return true;
}
static_assert(in_kind_order(kRows), "one row per RouteKind, in the enum's order");

// What match_route can match (routes.cpp): a path of at most kMaxPathSegments segments.
constexpr bool paths_fit(const std::array<Endpoint, kRouteKindCount>& rows) {
  for (const Endpoint& e : rows) {
    size_t segments = 0;
    for (char c : e.path) segments += c == '/';
    if (segments > kMaxPathSegments) return false;
    if (!e.path.empty() && e.path.front() != '/') return false;
  }
  return true;
}
static_assert(paths_fit(kRows), "every path starts with '/' and has at most kMaxPathSegments");

}  // namespace

const std::array<Endpoint, kRouteKindCount> kEndpoints = kRows;

}  // namespace toolcalc::api
