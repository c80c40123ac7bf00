// Little's law, L = λ·W: concurrency, throughput or latency from the other two. Formula,
// input design, references and worked examples: docs/tools/littles-law-concurrency.md.
#include <stdexcept>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kMsPerS = 1000;
// The smallest value of each quantity, given or computed (the inputs' minimums).
constexpr double kMinConcurrency = 0.0001;  // requests
constexpr double kMinThroughputRps = 0.001;
constexpr double kMinLatencyMs = 0.001;  // 1 µs

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "littles-law-concurrency";
  t.domain = "programming-dev";
  t.version = "2.0.0";
  t.name = "Little's Law: Concurrency, Throughput, Latency";
  t.description =
      "Little's law L = λ·W for a service in steady state: the average number of requests in "
      "flight (concurrency) from throughput and latency, or either of those from the other "
      "two. Choose the unknown with solve_for and give the other two.";
  t.standard = std::nullopt;

  t.inputs = {
      choice_input({.key = "solve_for",
                    .label = "Solve for",
                    .help = "The unknown: concurrency (L = λ·W), throughput (λ = L/W) or latency "
                            "(W = L/λ). The input of the same name is then ignored; the other two "
                            "are used. The result must stay in that quantity's range (422 "
                            "otherwise).",
                    .options = {"concurrency", "throughput", "latency"},
                    .default_value = "concurrency"}),
      // The three quantities are optional: the one being solved for need not be sent. A
      // missing known quantity takes its default, so the result echoes all three.
      number_input({.key = "concurrency",
                    .label = "Concurrency (L)",
                    .unit = "requests",
                    .help = "Average number of requests in the system at once: in flight, "
                            "queued or being served (busy workers, open connections, pool slots "
                            "in use); at least 0.0001. Ignored when solve_for = concurrency.",
                    .min = 0.0001,
                    .max = 1e9,
                    .step = 1,
                    .default_value = 50,
                    .required = false}),
      number_input({.key = "throughput_rps",
                    .label = "Throughput (λ)",
                    .unit = "req/s",
                    .help = "Average rate of requests completing (equal to the arrival rate in "
                            "steady state); at least 0.001 req/s. Ignored when solve_for = "
                            "throughput.",
                    .min = 0.001,
                    .max = 1e9,
                    .step = 1,
                    .default_value = 500,
                    .required = false}),
      number_input({.key = "latency_ms",
                    .label = "Latency (W)",
                    .unit = "ms",
                    .help = "Average time a request spends in the system, queueing included "
                            "(the mean, not a percentile); at least 0.001 ms (1 µs). Ignored when "
                            "solve_for = latency.",
                    .min = 0.001,
                    .max = 86400000,
                    .step = 1,
                    .default_value = 100,
                    .required = false}),
  };
  t.outputs = {
      text_output({.key = "solved_for",
                   .label = "Quantity solved for",
                   .options = {"concurrency", "throughput", "latency"}}),
      number_output(
          {.key = "concurrency", .label = "Concurrency (L)", .unit = "requests", .precision = 6}),
      number_output(
          {.key = "throughput_rps", .label = "Throughput (λ)", .unit = "req/s", .precision = 5}),
      number_output({.key = "latency_ms", .label = "Latency (W)", .unit = "ms", .precision = 5}),
  };
  t.references = {
      "J. D. C. Little, \"A Proof for the Queuing Formula: L = λW\", Operations Research "
      "9(3):383–387, 1961",
      "J. D. C. Little, \"Little's Law as Viewed on Its 50th Anniversary\", Operations "
      "Research 59(3):536–549, 2011 (conditions: long-run averages of a stable system)",
      "B. Gregg, \"Systems Performance\", 2nd ed., Addison-Wesley, 2020, section 2.6.5 "
      "(queueing theory: Little's law for sizing concurrency)",
  };
  t.examples = {
      {.title = "M/M/2/7 queue: time in the system from L and the effective arrival rate",
       .request_json = R"({"solve_for":"latency","concurrency":2.0711,)"
                       R"("throughput_rps":0.0135243333333})",
       .expected_json = R"({"latency_ms":153000})",
       .tolerance_pct = 0.2,
       .source = "\"System Performance Summary for poissoned\", M/M/2/7 queue report "
                 "(slideshare.net/slideshow/pois-28144510/28144510), lines 4, 7 and 10: effective "
                 "arrival rate 48.6876 per hour (0.0135243 req/s), L = 2.0711 customers, W = "
                 "0.0425 hours (153,000 ms, three significant digits)"},
      {.title = "Maximum throughput of 100,000 in-flight operations at 50 ms",
       .request_json = R"({"solve_for":"throughput","concurrency":100000,"latency_ms":50})",
       .expected_json = R"({"throughput_rps":2000000})",
       .tolerance_pct = 0,
       .source = "A. Dudarev, \"Little's Law for Server Concurrency\" (dev.dudarev.com/"
                 "littles-law), \"Quick numeric check\": W = 50 ms and L̄ = 100,000 give "
                 "λmax ≈ 100,000 / 0.05 = 2,000,000 req/s"},
      {.title = "Coffee shop: 4 orders a minute, 4.5 minutes each",
       .request_json = R"({"solve_for":"concurrency","throughput_rps":0.0666666666667,)"
                       R"("latency_ms":270000})",
       .expected_json = R"({"concurrency":18})",
       .tolerance_pct = 0,
       .source = "A. Dudarev, \"Little's Law for Server Concurrency\" (dev.dudarev.com/"
                 "littles-law), \"Coffee Shop Example\": λ = 4 orders/min (0.0667 req/s) and "
                 "W = 4.5 min (270,000 ms) give λ·W = 18 drinks in flight"},
  };
  return t;
}

// A result below the smallest value its quantity accepts as an input is refused rather than
// reported: the tool's ranges are where a request-level view of a system makes sense, and
// each output's decimals keep three significant digits over its range.
ToolError below_range(const char* field, const char* quantity, double value, double minimum,
                      const char* unit, const char* how) {
  std::string msg = "the ";
  msg += quantity;
  msg += " these give, ";
  msg += how;
  msg += " = ";
  append_shortest(msg, value);
  msg += " ";
  msg += unit;
  msg += ", is below ";
  append_shortest(msg, minimum);
  msg += " ";
  msg += unit;
  msg += ", the smallest the tool works with; check the inputs and their units";
  return ToolError{field, std::move(msg)};
}

ComputeResult compute(const Inputs& in) {
  const std::string& unknown = in.enumeration("solve_for");
  double concurrency = in.number("concurrency");
  double throughput_rps = in.number("throughput_rps");
  double latency_ms = in.number("latency_ms");
  if (unknown == "concurrency") {
    concurrency = throughput_rps * latency_ms / kMsPerS;
    if (concurrency < kMinConcurrency)
      return below_range("throughput_rps", "concurrency", concurrency, kMinConcurrency, "requests",
                         "throughput_rps × latency_ms / 1000");
  } else if (unknown == "throughput") {
    throughput_rps = concurrency / (latency_ms / kMsPerS);
    if (throughput_rps < kMinThroughputRps)
      return below_range("concurrency", "throughput", throughput_rps, kMinThroughputRps, "req/s",
                         "concurrency / (latency_ms / 1000)");
  } else if (unknown == "latency") {
    latency_ms = concurrency / throughput_rps * kMsPerS;
    if (latency_ms < kMinLatencyMs)
      return below_range("concurrency", "latency", latency_ms, kMinLatencyMs, "ms",
                         "concurrency / throughput_rps × 1000");
  } else {  // validation only lets the descriptor's options through
    throw std::logic_error("littles-law-concurrency: unknown solve_for");
  }
  Outputs out;
  out.set("solved_for", unknown)
      .set("concurrency", concurrency)
      .set("throughput_rps", throughput_rps)
      .set("latency_ms", latency_ms);
  return out;
}

}  // namespace

Tool make_littles_law_concurrency() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
