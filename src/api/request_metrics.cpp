#include "api/request_metrics.hpp"

#include <array>
#include <string_view>

namespace toolcalc::api {
namespace {

// Rows of the request counts: one per route kind, one for the transport's refusals, then
// one per tool and route about one tool.
constexpr size_t kKindRows = static_cast<size_t>(RouteKind::Metrics) + 1;  // Metrics is last
constexpr size_t kTransportRow = kKindRows;
constexpr size_t kFirstToolRow = kKindRows + 1;
constexpr std::array kToolRoutes = {RouteKind::Execute, RouteKind::Schema, RouteKind::Sweep,
                                    RouteKind::Tolerance, RouteKind::Solve};
constexpr size_t kToolRouteCount = kToolRoutes.size();
constexpr size_t kClasses = 5;  // 1xx … 5xx
constexpr std::array<std::string_view, kClasses> kClassNames = {"1xx", "2xx", "3xx", "4xx", "5xx"};

// The duration histograms: execute and discovery as the alerts need them, the
// rest grouped so that every request is observed once.
enum DurationKind : size_t {
  kExecute,
  kSweep,
  kAnalysis,
  kDiscovery,
  kMcp,
  kOther,
  kDurationKinds
};
constexpr std::array<std::string_view, kDurationKinds> kDurationNames = {
    "execute", "sweep", "analysis", "discovery", "mcp", "other"};

DurationKind duration_kind(RouteKind kind) {
  switch (kind) {
    case RouteKind::Execute:
      return kExecute;
    case RouteKind::Sweep:
      return kSweep;
    case RouteKind::Tolerance:
    case RouteKind::Solve:
      return kAnalysis;
    case RouteKind::Tools:
    case RouteKind::ToolBySlug:
    case RouteKind::Domains:
    case RouteKind::Schema:
    case RouteKind::OpenApi:
      return kDiscovery;
    case RouteKind::Mcp:
      return kMcp;
    default:
      return kOther;
  }
}

size_t status_class(int status) {
  const int c = status / 100;
  return c >= 1 && c <= 5 ? static_cast<size_t>(c - 1) : 4;
}

}  // namespace

RequestMetrics::RequestMetrics(const catalog::Registry& registry)
    : registry_(registry),
      requests_((kFirstToolRow + kToolRouteCount * registry.tools().size()) * kClasses),
      durations_(kDurationKinds, metrics::latency_buckets()) {}

size_t RequestMetrics::row(RouteKind kind, const catalog::RegisteredTool* tool) const {
  if (tool) {
    const auto index = static_cast<size_t>(tool - registry_.tools().data());
    for (size_t r = 0; r < kToolRouteCount; ++r)
      if (kToolRoutes[r] == kind) return kFirstToolRow + kToolRouteCount * index + r;
  }
  return static_cast<size_t>(kind);
}

void RequestMetrics::count(RouteKind kind, const catalog::RegisteredTool* tool, int status,
                           int64_t elapsed_ns) {
  requests_.add(row(kind, tool) * kClasses + status_class(status));
  durations_.observe_ns(duration_kind(kind), elapsed_ns);
}

void RequestMetrics::count_transport(int status) {
  requests_.add(kTransportRow * kClasses + status_class(status));
}

void RequestMetrics::render(std::string& out) const {
  constexpr std::string_view requests = "toolcalc_requests_total";
  metrics::write_family(out, requests,
                        "Requests answered, by route, tool (the routes about one tool) and "
                        "status class. Series appear with their first request.",
                        "counter");
  const auto write_row = [&](size_t r, std::string_view route, std::string_view tool) {
    for (size_t c = 0; c < kClasses; ++c) {
      const uint64_t v = requests_.value(r * kClasses + c);
      if (v == 0) continue;  // hundreds of label sets, most never used
      std::string labels;
      metrics::label_pair(labels, "route", route);
      metrics::label_pair(labels, "tool", tool);
      metrics::label_pair(labels, "status", kClassNames[c]);
      metrics::write_sample(out, requests, labels, v);
    }
  };
  for (size_t k = 0; k < kKindRows; ++k) write_row(k, route_name(static_cast<RouteKind>(k)), "");
  write_row(kTransportRow, "transport", "");
  const auto& tools = registry_.tools();
  for (size_t t = 0; t < tools.size(); ++t) {
    const std::string_view slug = tools[t].tool.descriptor.slug;
    for (size_t r = 0; r < kToolRouteCount; ++r)
      write_row(kFirstToolRow + kToolRouteCount * t + r, route_name(kToolRoutes[r]), slug);
  }

  constexpr std::string_view durations = "toolcalc_request_duration_seconds";
  metrics::write_family(out, durations,
                        "Time from a request's arrival at the API to its answer (a shared "
                        "store's round trip included), by kind of endpoint: execute, sweep, "
                        "analysis (tolerance, solve), discovery (tools, tool, domains, schema, "
                        "openapi), mcp, other.",
                        "histogram");
  for (size_t d = 0; d < kDurationKinds; ++d) {
    std::string labels;
    metrics::label_pair(labels, "kind", kDurationNames[d]);
    metrics::write_histogram(out, durations, labels, durations_, d);
  }
}

}  // namespace toolcalc::api
