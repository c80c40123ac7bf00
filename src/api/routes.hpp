#pragma once
// Path matching for the endpoints of spec §4, under a configurable base path.
#include <string>
#include <string_view>

namespace toolcalc::api {

enum class RouteKind {
  NotFound,
  Execute,     // /v1/{domain}/{slug}
  Schema,      // /v1/{domain}/{slug}/schema
  Sweep,       // /v1/{domain}/{slug}/sweep
  Tolerance,   // /v1/{domain}/{slug}/tolerance
  Solve,       // /v1/{domain}/{slug}/solve
  Tools,       // /v1/tools
  ToolBySlug,  // /v1/tools/{slug}
  Domains,     // /v1/domains
  Me,          // /v1/me
  Usage,       // /v1/usage
  Health,      // /v1/health (liveness)
  Ready,       // /v1/ready (readiness)
  OpenApi,     // /v1/openapi.json
  Mcp,         // /mcp (Model Context Protocol, Streamable HTTP)
  Asset,       // the playground: / and its files, also under the base path (docs/playground.md)
  LlmsTxt,     // /llms.txt, also under the base path: the catalog as text for agents
  Admin,       // /admin/v1/… (api/admin.cpp); `slug` is the rest of the path after /admin/v1/
  Metrics,     // /metrics (Prometheus), under the base path too; stays last (kKindRows)
};

// The route's name in metrics labels ("execute", "tools", …).
std::string_view route_name(RouteKind kind);

struct Route {
  RouteKind kind = RouteKind::NotFound;
  std::string_view domain;  // Execute, Schema, Sweep, Tolerance, Solve
  std::string_view slug;    // those and ToolBySlug; Asset: the file ("" = page)
  std::string_view query;   // after '?', without it
};

// What a domain or slug in a path may be, as a regular expression for documents that state
// it (the OpenAPI document): exactly what match_route accepts.
std::string name_pattern();

// `target` is the request target (origin-form). `base_path` is "" or e.g. "/api".
Route match_route(std::string_view target, std::string_view base_path);

// Routes about one tool: /v1/{domain}/{slug} and its sub-resources.
inline bool is_tool_route(RouteKind kind) {
  return kind == RouteKind::Execute || kind == RouteKind::Schema || kind == RouteKind::Sweep ||
         kind == RouteKind::Tolerance || kind == RouteKind::Solve;
}

// The methods a route answers, for 405's Allow header: "GET, OPTIONS", "POST, OPTIONS",
// for the playground's files "GET, HEAD, OPTIONS", for the admin API every method it uses.
std::string_view allowed_methods(RouteKind kind);

}  // namespace toolcalc::api
