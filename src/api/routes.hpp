#pragma once
// Path matching for the endpoints of spec §4, under a configurable base path, from the
// endpoint table's path patterns (api/endpoints.hpp: each row's path and mount), compiled
// into a segment table once. A pattern's segments are literals, {domain} and {slug} (a
// name: name_pattern()), and, last, {operation} (the rest of the path) or "" (a trailing
// "/": the directory of the playground's files, "" being its page). A literal segment wins
// over a name: a name is never a literal that another row's path has at its place after
// the same segments and that leads on to more of them ("tools" is no {domain}: the
// /v1/tools/{slug} row), and a pattern ending in {operation} or "/" is tried after every
// other (an exact path wins over a file or an operation). Matching allocates nothing.
#include <cstddef>
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
  Admin,       // /admin/v1/{operation} (api/handlers/admin.cpp): `slug` is the operation
  Metrics,     // /metrics (Prometheus), also under the base path
  Count,       // not a route: the number of kinds, each with its row in api/endpoints.cpp
};

// The most segments an endpoint's path has ("/v1/{domain}/{slug}/sweep": 4).
inline constexpr size_t kMaxPathSegments = 4;

// The route's name in metrics labels ("execute", "tools", …): its row's.
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

// The methods a route answers, for 405's Allow header ("GET, OPTIONS", …): its row's.
std::string_view allowed_methods(RouteKind kind);

}  // namespace toolcalc::api
