#include "api/request_metrics.hpp"

#include "api/endpoints.hpp"

#include <array>
#include <string_view>

namespace toolcalc::api {
namespace {

// Rows of the request counts: one per route kind, one for the transport's refusals, then
// one per tool and route about one tool (the endpoint table's tool routes).
constexpr size_t kKindRows = kRouteKindCount;
constexpr size_t kTransportRow = kKindRows;
constexpr size_t kFirstToolRow = kKindRows + 1;
constexpr size_t kClasses = 5;  // 1xx … 5xx
constexpr std::array<std::string_view, kClasses> kClassNames = {"1xx", "2xx", "3xx", "4xx", "5xx"};

// The duration histograms, one per Timing of the endpoint table: execute and discovery as
// the alerts need them, the rest grouped so that every request is observed once.
constexpr size_t kDurationKinds = static_cast<size_t>(Timing::Other) + 1;
constexpr std::array<std::string_view, kDurationKinds> kDurationNames = {
    "execute", "sweep", "analysis", "discovery", "mcp", "other"};

size_t status_class(int status) {
  const int c = status / 100;
  return c >= 1 && c <= 5 ? static_cast<size_t>(c - 1) : 4;
}

std::vector<RouteKind> tool_routes() {
  std::vector<RouteKind> kinds;
  for (const Endpoint& e : kEndpoints)
    if (e.tool_route) kinds.push_back(e.kind);
  return kinds;
}

}  // namespace

RequestMetrics::RequestMetrics(const catalog::Registry& registry)
    : registry_(registry),
      tool_routes_(tool_routes()),
      requests_((kFirstToolRow + tool_routes_.size() * registry.tools().size()) * kClasses),
      durations_(kDurationKinds, metrics::latency_buckets()) {
  tool_slot_.fill(kNoSlot);
  for (size_t r = 0; r < tool_routes_.size(); ++r)
    tool_slot_[static_cast<size_t>(tool_routes_[r])] = static_cast<uint8_t>(r);
}

size_t RequestMetrics::row(RouteKind kind, const catalog::RegisteredTool* tool) const {
  if (tool) {
    const uint8_t slot = tool_slot_[static_cast<size_t>(kind)];
    if (slot != kNoSlot) {
      const auto index = static_cast<size_t>(tool - registry_.tools().data());
      return kFirstToolRow + tool_routes_.size() * index + slot;
    }
  }
  return static_cast<size_t>(kind);
}

void RequestMetrics::count(RouteKind kind, const catalog::RegisteredTool* tool, int status,
                           int64_t elapsed_ns) {
  requests_.add(row(kind, tool) * kClasses + status_class(status));
  durations_.observe_ns(static_cast<size_t>(endpoint(kind).timing), elapsed_ns);
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
  for (size_t k = 0; k < kKindRows; ++k) write_row(k, kEndpoints[k].name, "");
  write_row(kTransportRow, "transport", "");
  const auto& tools = registry_.tools();
  for (size_t t = 0; t < tools.size(); ++t) {
    const std::string_view slug = tools[t].tool.descriptor.slug;
    for (size_t r = 0; r < tool_routes_.size(); ++r)
      write_row(kFirstToolRow + tool_routes_.size() * t + r, endpoint(tool_routes_[r]).name, slug);
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
