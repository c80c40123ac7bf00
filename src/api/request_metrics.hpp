#pragma once
// The per-request metrics of a Service (docs/operations.md "Metrics"): requests by route,
// tool and status class, and request durations by kind of endpoint. Counting one request
// is a few relaxed atomic adds on the calling thread's own cache lines (core/metrics.hpp):
// no lock, no allocation.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "api/routes.hpp"
#include "catalog/registry.hpp"
#include "core/metrics.hpp"

namespace toolcalc::api {

class RequestMetrics {
 public:
  explicit RequestMetrics(const catalog::Registry& registry);

  // One answered request. `tool`: the tool a request about one tool named (execute,
  // schema, sweep, tolerance, solve; nullptr when there was none or it is unknown).
  void count(RouteKind kind, const catalog::RegisteredTool* tool, int status, int64_t elapsed_ns);
  // A request refused by the transport before it had a route (413, 431, 400, 503 busy).
  void count_transport(int status);

  // The families, in the text exposition format 0.0.4.
  void render(std::string& out) const;

 private:
  size_t row(RouteKind kind, const catalog::RegisteredTool* tool) const;

  const catalog::Registry& registry_;
  // The routes about one tool, in the endpoint table's order, and each kind's place among
  // them (kNoSlot: not one).
  static constexpr uint8_t kNoSlot = 0xff;
  std::vector<RouteKind> tool_routes_;
  std::array<uint8_t, static_cast<size_t>(RouteKind::Count)> tool_slot_;
  metrics::Cells requests_;        // row × status class (1xx … 5xx)
  metrics::Histograms durations_;  // by the endpoint's Timing (endpoints.hpp)
};

}  // namespace toolcalc::api
