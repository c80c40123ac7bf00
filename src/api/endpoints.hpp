#pragma once
// Every endpoint as one row: its name, path, method, who may call it, how it counts, where
// the OpenAPI documents describe it and its handler. The pipeline (service.cpp), the
// routes' names and Allow headers (routes.cpp), the request metrics and the usage history
// read the rows; docs/architecture.md's endpoint table is checked against them
// (tests/unit/api/endpoint_documents_test.cpp). Reading a row is an array index by RouteKind.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "api/routes.hpp"

namespace toolcalc::api {

class Service;
struct ServiceContext;

// Who may call an endpoint.
enum class Callers : uint8_t {
  Anonymous,    // anyone; a key sent is not read
  Key,          // a valid key: a missing one is 401
  KeyOptional,  // anonymous callers too, counted on their client address
  Admin,        // the admin token (api/admin.cpp)
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

// Where the endpoint is described.
enum class OpenApi : uint8_t {
  None,     // in no document (the playground's files, the unknown path)
  PerTool,  // the public document, once per tool the endpoint applies to
  Public,   // the public document, at its path
  Admin,    // the admin API's document (its rows: admin_endpoints)
};

// The duration histogram that observes the endpoint's requests (api/request_metrics.cpp).
enum class Timing : uint8_t { Execute, Sweep, Analysis, Discovery, Mcp, Other };

struct Endpoint {
  RouteKind kind;
  std::string_view name;     // the metrics label ("execute", "tools", …)
  std::string_view path;     // as documented: "/v1/{domain}/{slug}/sweep"
  std::string_view methods;  // 405's Allow header and the preflight's allowed methods
  Method method;
  Callers callers;
  Counting counting;
  bool tool_route;  // about one tool, /v1/{domain}/{slug}…: an unknown tool is 404
  OpenApi openapi;
  Timing timing;
  std::string_view preflight_headers;  // a preflight's Access-Control-Allow-Headers
  void (Service::*handler)(ServiceContext&);
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
// as RouteKind::Admin (never counted), then to their row by method and path (admin.cpp).
struct AdminCall;  // admin.cpp
struct AdminEndpoint {
  std::string_view method;  // "GET", "POST", "PATCH", "DELETE"
  std::string_view path;    // "/admin/v1/keys/{prefix}"; {prefix}: one non-empty segment
  std::string_view action;  // the audit line's action ("keys.create")
  void (*handler)(AdminCall&);
};

std::span<const AdminEndpoint> admin_endpoints();

}  // namespace toolcalc::api
