#include "api/routes.hpp"

#include <array>

#include "api/endpoints.hpp"
#include "api/limits.hpp"
#include "api/static_assets.hpp"

namespace toolcalc::api {
namespace {

// Splits "a/b/c" into at most 4 segments; returns the count, or 5 when there are more.
size_t split_segments(std::string_view path, std::string_view (&seg)[4]) {
  size_t n = 0;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (n == 4) return 5;
    seg[n++] = part;
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
    if (path.empty()) return 5;  // trailing slash: not one of our paths
  }
  return n;
}

// The characters of a domain or slug: one table lookup each (every request has two).
// name_pattern() states the same set.
constexpr std::array<bool, 256> kNameChar = [] {
  std::array<bool, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<size_t>(c)] = true;
  for (int c = '0'; c <= '9'; ++c) t[static_cast<size_t>(c)] = true;
  t['-'] = t['_'] = t['.'] = true;
  return t;
}();

bool valid_name(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  for (char c : s)
    if (!kNameChar[static_cast<unsigned char>(c)]) return false;
  return true;
}

// "/" (the page) or "/" + an embedded file's name; or /llms.txt (llmstxt.org: at the root).
bool match_asset(std::string_view path, Route& route) {
  if (path == "/llms.txt") {
    route.kind = RouteKind::LlmsTxt;
    return true;
  }
  if (path.empty() || path.front() != '/') return false;
  path.remove_prefix(1);
  if (!path.empty() && !is_embedded_file(path)) return false;
  route.kind = RouteKind::Asset;
  route.slug = path;
  return true;
}

}  // namespace

std::string name_pattern() {
  return "^[a-z0-9._-]{1," + std::to_string(kMaxNameLength) + "}$";
}

Route match_route(std::string_view target, std::string_view base_path) {
  Route route;
  const size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  if (q != std::string_view::npos) route.query = target.substr(q + 1);

  // The playground, llms.txt and /metrics are served at the root and under the base path
  // alike (Prometheus scrapes /metrics by default).
  if (match_asset(path, route)) return route;
  if (path == "/metrics") {
    route.kind = RouteKind::Metrics;
    return route;
  }
  if (!base_path.empty()) {
    if (path.substr(0, base_path.size()) != base_path) return route;
    path.remove_prefix(base_path.size());
    if (match_asset(path, route)) return route;
    if (path == "/metrics") {
      route.kind = RouteKind::Metrics;
      return route;
    }
  }
  if (path == "/mcp") {
    route.kind = RouteKind::Mcp;
    return route;
  }
  if (path.starts_with("/admin/v1/")) {
    route.kind = RouteKind::Admin;
    route.slug = path.substr(10);
    return route;
  }
  if (path.substr(0, 4) != "/v1/") return route;
  path.remove_prefix(4);

  std::string_view seg[4];
  const size_t n = split_segments(path, seg);
  if (n == 1) {
    if (seg[0] == "tools")
      route.kind = RouteKind::Tools;
    else if (seg[0] == "domains")
      route.kind = RouteKind::Domains;
    else if (seg[0] == "me")
      route.kind = RouteKind::Me;
    else if (seg[0] == "usage")
      route.kind = RouteKind::Usage;
    else if (seg[0] == "health")
      route.kind = RouteKind::Health;
    else if (seg[0] == "ready")
      route.kind = RouteKind::Ready;
    else if (seg[0] == "openapi.json")
      route.kind = RouteKind::OpenApi;
  } else if (n == 2) {
    if (seg[0] == "tools") {
      if (valid_name(seg[1])) {
        route.kind = RouteKind::ToolBySlug;
        route.slug = seg[1];
      }
    } else if (valid_name(seg[0]) && valid_name(seg[1])) {
      route.kind = RouteKind::Execute;
      route.domain = seg[0];
      route.slug = seg[1];
    }
  } else if (n == 3 && seg[0] != "tools" && valid_name(seg[0]) && valid_name(seg[1])) {
    if (seg[2] == "schema")
      route.kind = RouteKind::Schema;
    else if (seg[2] == "sweep")
      route.kind = RouteKind::Sweep;
    else if (seg[2] == "tolerance")
      route.kind = RouteKind::Tolerance;
    else if (seg[2] == "solve")
      route.kind = RouteKind::Solve;
    if (route.kind != RouteKind::NotFound) {
      route.domain = seg[0];
      route.slug = seg[1];
    }
  }
  return route;
}

std::string_view route_name(RouteKind kind) {
  return endpoint(kind).name;
}

std::string_view allowed_methods(RouteKind kind) {
  return endpoint(kind).methods;
}

}  // namespace toolcalc::api
