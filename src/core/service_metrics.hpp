#pragma once
// The process-wide metrics (docs/operations.md "Metrics" lists every family): counted by
// the layer where the event happens, rendered by GET /metrics. The per-route, per-tool
// request counts and durations belong to api::Service, which knows the routes and tools.
#include "core/metrics.hpp"

namespace toolcalc::metrics {

// http/: client connections.
extern UpDownGauge connections_open;
extern Counter connections_accepted;
extern Counter connections_refused;  // over server.max_connections: 503 SERVER_BUSY, closed
// Over server.max_connections_per_address: 503 SERVER_BUSY, closed.
extern Counter connections_refused_per_address;

// store/: round trips to the accounts store (SQLite statements or transactions, Redis
// command batches) and failed ones; accounts/: whether the shared store answered the
// last background key refresh (every key_refresh_ms), 1 for the embedded store.
extern Counter store_round_trips;
extern Counter store_failures;
extern Gauge store_up;
// store/: usage-journal records that failed their check inside a run when the store took
// the journal over (their usage is lost; docs/reliability.md, "Counts on disk").
extern Counter journal_records_damaged;

// accounts/: the in-memory key cache.
extern Gauge keys_cached;
extern Counter key_reloads;

// api/: every error answer by code (RATE_LIMITED and QUOTA_EXCEEDED are the limit
// refusals, also counted by toolcalc_limit_refusals_total).
extern LabeledCounter api_errors;
extern LabeledCounter limit_refusals;  // 0: rate, 1: quota
inline constexpr size_t kRateRefusal = 0;
inline constexpr size_t kQuotaRefusal = 1;

// Samples evaluated by analyses (tolerance and solve endpoints): each adds the number of
// times it ran a tool's compute.
extern Counter analysis_samples;

// core/: log lines (access log and operational log) dropped whole because they could not
// be written (a full disk): core/line_writer.hpp.
extern Counter log_lines_dropped;

}  // namespace toolcalc::metrics
