#include "core/service_metrics.hpp"

#include <string>
#include <vector>

#include "core/api_error.hpp"

namespace toolcalc::metrics {
namespace {

std::vector<std::string> error_code_names() {
  std::vector<std::string> names;
  for (const auto& kind : kErrorTable) names.emplace_back(kind.name);
  return names;
}

}  // namespace

// Definition order is registration order, which is the order of the scrape.
UpDownGauge connections_open{"toolcalc_connections_open", "Client connections open now."};
Counter connections_accepted{"toolcalc_connections_accepted_total",
                             "Client connections accepted (including those refused at the cap)."};
Counter connections_refused{
    "toolcalc_connections_refused_total",
    "Connections answered 503 SERVER_BUSY and closed because server.max_connections were open."};
Counter connections_refused_per_address{
    "toolcalc_connections_refused_per_address_total",
    "Connections answered 503 SERVER_BUSY and closed because their address already held "
    "server.max_connections_per_address."};

Counter store_round_trips{"toolcalc_store_round_trips_total",
                          "Round trips to the accounts store: SQLite statements or transactions, "
                          "usage-journal appends, Redis command batches."};
Counter store_failures{"toolcalc_store_failures_total",
                       "Store operations that failed: unreachable, timed out or refused."};
Gauge store_up{"toolcalc_store_up",
               "1 while the accounts store answers (a shared store: its last background key "
               "refresh succeeded), 0 during an outage, when counted requests get 503 "
               "STORE_UNAVAILABLE.",
               1};
Counter journal_records_damaged{
    "toolcalc_usage_journal_records_damaged_total",
    "Usage-journal records that failed their check inside a run, passed over when the store "
    "took the journal over at start: acknowledged usage that was lost."};
Gauge keys_cached{"toolcalc_keys_cached", "Active API keys in the in-memory key cache."};
Counter key_reloads{"toolcalc_key_reloads_total",
                    "Reloads of the key cache from the store (at start and on each key change)."};

LabeledCounter api_errors{"toolcalc_api_errors_total", "Error answers by error code.", "code",
                          error_code_names()};
LabeledCounter limit_refusals{"toolcalc_limit_refusals_total",
                              "Requests refused by a limit: the per-minute rate limit "
                              "(RATE_LIMITED) or the monthly quota (QUOTA_EXCEEDED).",
                              "limit",
                              {"rate", "quota"}};

Counter analysis_samples{"toolcalc_analysis_samples_total",
                         "Tool evaluations run by analyses (tolerance and solve requests)."};

Counter log_lines_dropped{"toolcalc_log_lines_dropped_total",
                          "Access-log and operational-log lines dropped whole because they could "
                          "not be written (the log's disk full)."};

}  // namespace toolcalc::metrics
