#pragma once
// Every endpoint as one row: its name, path, method, who may call it, how it counts, its
// OpenAPI writer, its error format and its handler. Routing (routes.cpp matches the rows'
// paths), the pipeline (service.cpp), the routes' names and Allow headers, the request
// metrics, the usage history and the OpenAPI documents (api/openapi/document.cpp writes
// each row's paths) read the rows; docs/architecture.md's endpoint table is checked against
// them (tests/unit/api/endpoint_documents_test.cpp). Reading a row is an array index by
// RouteKind.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "api/routes.hpp"

namespace toolcalc::api {

class HandlerEnv;  // api/handler_env.hpp
struct ServiceContext;
namespace openapi {
struct Paths;  // api/openapi/writing.hpp
}

// Who may call an endpoint.
enum class Callers : uint8_t {
  Anonymous,    // anyone; a key sent is not read
  Key,          // a valid key: a missing one is 401
  KeyOptional,  // anonymous callers too, counted on their client address
  Admin,        // the admin token (api/handlers/admin.cpp)
};

// What a request to the endpoint counts.
enum class Counting : uint8_t {
  NotCounted,  // answered before the caller is identified: no rate step, no quota
  Request,     // one unit of the caller's rate window
  Execution,   // one rate unit, and the rate step reserves the execution's quota unit
  Units,       // one rate unit; the handler reserves the quota units it uses
};

// The method the endpoint answers (OPTIONS aside, which every one answers).
enum class Method : uint8_t {
  Get,
  Post,
  GetOrHead,  // the playground's files
  Any,        // the handler decides (the admin API's router, the unknown path)
};

// Where the path is served besides under the base path (serve's base_path, "" or "/api").
enum class Mount : uint8_t {
  BasePath,         // only under the base path
  RootAndBasePath,  // at the server's root too: the playground, /llms.txt (llmstxt.org looks
                    // there), /metrics (where Prometheus scrapes by default)
};

// How the endpoint's refusals are written (ServiceContext::fail).
enum class ErrorFormat : uint8_t {
  Envelope,  // the error envelope (api/envelope.hpp)
  JsonRpc,   // a JSON-RPC error response (MCP clients parse JSON-RPC, not our envelope)
};

// Writes the endpoint's path items into the public OpenAPI document (api/openapi/paths.hpp):
// at its path, or once per tool it applies to; openapi::no_path for the endpoints it does
// not describe.
using OpenApiWriter = void (*)(openapi::Paths&);

// An endpoint's handler (api/handlers/): fills ctx.res or calls ctx.fail.
using Handler = void (*)(HandlerEnv&, ServiceContext&);

// The duration histogram that observes the endpoint's requests (api/request_metrics.cpp).
enum class Timing : uint8_t { Execute, Sweep, Analysis, Discovery, Mcp, Other };

struct Endpoint {
  RouteKind kind;
  std::string_view name;  // the metrics label ("execute", "tools", …)
  // As documented, and what match_route matches (routes.hpp: literal segments, {domain} and
  // {slug} names, {operation} the rest of the path; "/" the playground's directory).
  std::string_view path;
  Mount mount;
  std::string_view methods;  // 405's Allow header and the preflight's allowed methods
  Method method;
  Callers callers;
  Counting counting;
  bool tool_route;  // about one tool, /v1/{domain}/{slug}…: an unknown tool is 404
  OpenApiWriter openapi;
  Timing timing;
  ErrorFormat errors;
  std::string_view preflight_headers;  // a preflight's Access-Control-Allow-Headers
  Handler handler;
};

inline constexpr size_t kRouteKindCount = static_cast<size_t>(RouteKind::Count);

// Indexed by RouteKind (endpoints.cpp checks the order when it compiles).
extern const std::array<Endpoint, kRouteKindCount> kEndpoints;

inline const Endpoint& endpoint(RouteKind kind) {
  return kEndpoints[static_cast<size_t>(kind)];
}

// Whether `method` is one the endpoint answers.
inline bool accepts(Method wanted, std::string_view method) {
  switch (wanted) {
    case Method::Get:
      return method == "GET";
    case Method::Post:
      return method == "POST";
    case Method::GetOrHead:
      return method == "GET" || method == "HEAD";
    case Method::Any:
      return true;
  }
  return false;
}

// One operation of the admin API, {base}/admin/v1/…: all of them go through the pipeline
// as RouteKind::Admin (never counted), then to their row by method and path
// (api/handlers/admin.cpp); the admin OpenAPI document is written from these rows.
struct AdminCall;  // api/handlers/admin.cpp
struct AdminEndpoint {
  std::string_view method;  // "GET", "POST", "PATCH", "DELETE"
  std::string_view path;    // "/admin/v1/keys/{prefix}"; {prefix}: one non-empty segment
  std::string_view action;  // the audit line's action ("keys.create")
  void (*handler)(AdminCall&);
  // Appends the operation's OpenAPI object (`"get":{…}`) to the admin document's path item
  // (api/openapi/admin_document.cpp).
  void (*openapi)(std::string& out);
};

std::span<const AdminEndpoint> admin_endpoints();

}  // namespace toolcalc::api
