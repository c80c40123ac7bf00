// Erlang C (M/M/c queue): probability of waiting, mean wait and response time, and the share
// of requests that wait longer than a target, for a worker pool or a support desk. Formula,
// bounds, references and worked examples: docs/tools/erlang-c.md.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kMaxServers = 1000;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "erlang-c";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "Erlang C Queue (M/M/c)";
  t.description =
      "Erlang C for an M/M/c queue: with Poisson arrivals, exponential service times and c "
      "servers (workers, threads, agents), the probability that a request waits, the mean wait "
      "and response time, and the share of requests waiting longer than a target. For sizing "
      "worker pools and support desks.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "arrival_rate_per_s",
                    .label = "Arrival rate λ",
                    .unit = "1/s",
                    .help = "Mean requests (calls, jobs) arriving per second, e.g. 100. Per hour? "
                            "Divide by 3600.",
                    .min = 0.001,
                    .max = 1000000,
                    .step = 0.001,
                    .default_value = 100}),
      number_input({.key = "mean_service_time_ms",
                    .label = "Mean service time 1/μ",
                    .unit = "ms",
                    .help = "Mean time one server is busy with one request (handle time), in "
                            "milliseconds: 50 ms, or 180000 for a 3-minute call.",
                    .min = 0.001,
                    .max = 3600000,
                    .step = 0.001,
                    .default_value = 50}),
      integer_input({.key = "servers",
                     .label = "Servers c",
                     .unit = "servers",
                     .help = "Requests served at once: workers, threads, connections or agents, "
                             "1 to 1000. Must exceed the offered load λ × service time.",
                     .min = 1,
                     .max = kMaxServers,
                     .step = 1,
                     .default_value = 8}),
      number_input({.key = "target_wait_ms",
                    .label = "Target wait t",
                    .unit = "ms",
                    .help = "Queueing time a request should not exceed, for the share of "
                            "requests that wait longer (0 = any wait at all).",
                    .min = 0,
                    .max = 3600000,
                    .step = 1,
                    .default_value = 100}),
  };
  // Every quantity here spans many decades over the input bounds (a load of 1e-9 erlangs at
  // the smallest rate and service time; probabilities below 1e-10000 with 1000 idle servers),
  // so each coarse output names a finer one: a smaller unit, or log10 for the probabilities and
  // the mean wait, which no fixed-point unit can hold. log10 and its linear output name each
  // other: where one rounds to fewer than 3 digits (|log10| < 1), the other keeps them.
  t.outputs = {
      number_output({.key = "offered_load_erlangs",
                     .label = "Offered load A = λ/μ",
                     .unit = "E",
                     .precision = 3,
                     .small_values_in = "offered_load_microerlangs"}),
      number_output({.key = "utilization_pct",
                     .label = "Server utilization A/c",
                     .unit = "%",
                     .precision = 2,
                     .small_values_in = "utilization_ppb"}),
      number_output({.key = "probability_wait_pct",
                     .label = "Probability a request waits (Erlang C)",
                     .unit = "%",
                     .precision = 2,
                     .small_values_in = "probability_wait_log10"}),
      number_output({.key = "mean_wait_ms",
                     .label = "Mean wait in queue W_q (all requests)",
                     .unit = "ms",
                     .precision = 3,
                     .small_values_in = "mean_wait_log10_ms"}),
      number_output({.key = "mean_response_ms",
                     .label = "Mean response time W_q + 1/μ",
                     .unit = "ms",
                     .precision = 3,
                     .small_values_in = "mean_response_us"}),
      number_output({.key = "wait_exceeds_target_pct",
                     .label = "Requests waiting longer than the target",
                     .unit = "%",
                     .precision = 2,
                     .small_values_in = "wait_exceeds_target_log10"}),
      number_output({.key = "offered_load_microerlangs",
                     .label = "Offered load in microerlangs (light loads)",
                     .unit = "µE",
                     .precision = 5}),
      number_output({.key = "utilization_ppb",
                     .label = "Server utilization in parts per billion (light loads)",
                     .unit = "ppb",
                     .precision = 5}),
      number_output({.key = "probability_wait_log10",
                     .label = "log10 of the probability of waiting (−6 = one in a million)",
                     .unit = "",
                     .precision = 2,
                     .small_values_in = "probability_wait_pct"}),
      number_output({.key = "mean_wait_log10_ms",
                     .label = "log10 of the mean wait in ms (−3 = 1 µs)",
                     .unit = "log10(ms)",
                     .precision = 2,
                     .small_values_in = "mean_wait_ms"}),
      number_output({.key = "mean_response_us",
                     .label = "Mean response time in microseconds",
                     .unit = "µs",
                     .precision = 3}),
      number_output({.key = "wait_exceeds_target_log10",
                     .label = "log10 of the share waiting longer than the target",
                     .unit = "",
                     .precision = 2,
                     .small_values_in = "wait_exceeds_target_pct"}),
  };
  t.references = {
      "A. K. Erlang, \"Solution of some problems in the theory of probabilities of significance "
      "in automatic telephone exchanges\", Elektroteknikeren 13, 1917 (the delay formula)",
      "L. Kleinrock, \"Queueing Systems, Volume 1: Theory\", Wiley, 1975, §3.5 (M/M/m: "
      "probability of queueing, Erlang's C formula, eq. 3.40; mean wait W = C/(mμ − λ))",
      "V. B. Iversen, \"Teletraffic Engineering and Network Planning\", ITU-D / Technical "
      "University of Denmark, 2015, ch. 9 (Erlang's delay system: E2,n(A) from the Erlang B "
      "recursion, mean waiting time, waiting-time distribution P(W > t) = E2,n(A)·e^(−(n−A)t/s))",
  };
  t.examples = {
      {.title = "Call centre: 100 calls in 30 min, 3-minute calls, 14 agents, 20 s target",
       .request_json = R"({"arrival_rate_per_s":0.05555555555555555,)"
                       R"("mean_service_time_ms":180000,"servers":14,"target_wait_ms":20000})",
       .expected_json = R"({"offered_load_erlangs":10,"utilization_pct":71.43,)"
                        R"("probability_wait_pct":17.41,"wait_exceeds_target_pct":11.165})",
       .tolerance_pct = 0.01,
       .source = "pyworkforce ErlangC documentation, docs/guide/erlangc.md "
                 "(github.com/rodrigo-arenas/pyworkforce), the Call Centre Helper worked example "
                 "(100 transactions per 30 min, AHT 3 min, ASA target 20 s): 14 raw positions, "
                 "occupancy 0.7142857142857143, waiting_probability 0.1741319335950498, "
                 "service_level 0.8883500191794669, so 11.165 % wait longer than 20 s"},
      {.title = "Help desk: 57 calls an hour, 1110 s each, 21 agents, 180 s target",
       .request_json = R"({"arrival_rate_per_s":0.015833333333333333,)"
                       R"("mean_service_time_ms":1110000,"servers":21,"target_wait_ms":180000})",
       .expected_json = R"({"wait_exceeds_target_pct":19.3})",
       .tolerance_pct = 0.3,
       .source = "Westbay CC-Excel CCXLService() as reported in the erlang.com forum thread "
                 "\"CCXLService\" (12 Jan 2021; read in the Nemotron-CC-Math crawl, "
                 "huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1): 21 agents, 57 calls "
                 "(per hour, as CC-Excel takes them), 1110 s duration, 180 s target give a "
                 "service level of 80.7 %, checked there with the Westbay Traffic Calculators; "
                 "so 19.3 % wait longer"},
  };
  return t;
}

// ln(1/B) for Erlang's B formula with `servers` servers and load `load`, by the recursion
// 1/B(k) = 1 + (k/A)·(1/B(k−1)), 1/B(0) = 1 (Iversen §4.4), carried in logarithms so that
// neither 1/B (up to e^11000 with 1000 servers at 1e-9 E) nor B underflows or overflows.
// ln k for k = 0…kMaxServers, each computed by std::log at run time once, as the recursion
// would compute it on every call (a tolerance analysis calls it 10,000 times and more).
const std::vector<double>& log_of_integers() {
  static const std::vector<double> table = [] {
    std::vector<double> t(static_cast<size_t>(kMaxServers) + 1, 0);
    for (size_t k = 1; k < t.size(); ++k) t[k] = std::log(static_cast<double>(k));
    return t;
  }();
  return table;
}

double log_inverse_erlang_b(int servers, double load) {
  double u = 0;  // ln(1/B(0))
  const double log_load = std::log(load);
  const std::vector<double>& log_k = log_of_integers();
  for (int k = 1; k <= servers; ++k) {
    const double s = log_k[static_cast<size_t>(k)] - log_load + u;       // ln((k/A)·(1/B(k−1)))
    u = s > 0 ? s + std::log1p(std::exp(-s)) : std::log1p(std::exp(s));  // ln(1 + e^s)
  }
  return u;
}

ToolError overloaded(double load, double servers) {
  std::string msg = "the offered load is ";
  append_fixed(msg, load, 3);
  msg += " erlangs (arrival rate × mean service time), so ";
  append_shortest(msg, servers);
  msg += servers == 1 ? " server would be " : " servers would be ";
  append_fixed(msg, load / servers * 100, 1);
  msg += " % utilized and the queue would grow without bound: ";
  const double needed = std::floor(load) + 1;
  if (needed <= kMaxServers) {
    msg += "use at least ";
    append_shortest(msg, needed);
    msg += " servers, or lower the arrival rate or the service time";
  } else {
    msg +=
        "it needs more than the 1000 servers this tool takes; lower the arrival rate or the "
        "service time";
  }
  return ToolError{"servers", std::move(msg)};
}

ComputeResult compute(const Inputs& in) {
  const double lambda = in.number("arrival_rate_per_s");
  const double service_ms = in.number("mean_service_time_ms");
  const double c = in.number("servers");
  const double target_ms = in.number("target_wait_ms");
  const double load = lambda * service_ms / 1000;  // A = λ/μ, erlangs
  if (load >= c) return overloaded(load, c);
  const double rho = load / c;

  // C = B / (1 − ρ(1 − B)), so ln C = −ln(1/B) − ln(1 − ρ + ρB). 1 − ρ > 0 here.
  const double log_inv_b = log_inverse_erlang_b(static_cast<int>(c), load);
  const double log_c = -log_inv_b - std::log((1 - rho) + rho * std::exp(-log_inv_b));
  // W_q = C / (cμ − λ) = C · service time / (c − A); P(W > t) = C · e^(−(c − A)·t/service).
  const double headroom = c - load;
  const double log_wait_ms = log_c + std::log(service_ms / headroom);
  const double log_exceeds = log_c - headroom * target_ms / service_ms;
  const double wait_ms = std::exp(log_wait_ms);
  const double ln10 = std::numbers::ln10;

  Outputs out;
  out.set("offered_load_erlangs", load)
      .set("utilization_pct", rho * 100)
      .set("probability_wait_pct", std::exp(log_c) * 100)
      .set("mean_wait_ms", wait_ms)
      .set("mean_response_ms", wait_ms + service_ms)
      .set("wait_exceeds_target_pct", std::exp(log_exceeds) * 100)
      .set("offered_load_microerlangs", load * 1e6)
      .set("utilization_ppb", rho * 1e9)
      .set("probability_wait_log10", log_c / ln10)
      .set("mean_wait_log10_ms", log_wait_ms / ln10)
      .set("mean_response_us", (wait_ms + service_ms) * 1000)
      .set("wait_exceeds_target_log10", log_exceeds / ln10);
  return out;
}

}  // namespace

Tool make_erlang_c() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
