// Little's law, L = λ·W: concurrency, throughput or latency from the other two. Formula,
// input design, references and worked examples: docs/tools/littles-law-concurrency.md.
#include <stdexcept>

#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kMsPerS = 1000;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "littles-law-concurrency";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "Little's Law: Concurrency, Throughput, Latency";
  t.description =
      "Little's law L = λ·W for a service in steady state: the average number of requests in "
      "flight (concurrency) from throughput and latency, or either of those from the other "
      "two. Choose the unknown with solve_for and give the other two.";
  t.standard = std::nullopt;

  InputDescriptor solve_for;
  solve_for.key = "solve_for";
  solve_for.label = "Solve for";
  solve_for.type = InputType::Enum;
  solve_for.help =
      "The unknown: concurrency (L = λ·W), throughput (λ = L/W) or latency (W = L/λ). The "
      "input of the same name is then ignored; the other two are used.";
  solve_for.options = {"concurrency", "throughput", "latency"};
  solve_for.default_value = std::string("concurrency");

  // The three quantities are optional: the one being solved for need not be sent. A missing
  // known quantity takes its default, so the result echoes all three.
  auto quantity = [](std::string key, std::string label, std::string unit, std::string help,
                     double min, double max, double step, double def) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Number;
    in.required = false;
    in.unit = std::move(unit);
    in.help = std::move(help);
    in.min = min;
    in.max = max;
    in.step = step;
    in.default_value = def;
    return in;
  };
  t.inputs = {
      solve_for,
      quantity("concurrency", "Concurrency (L)", "requests",
               "Average number of requests in the system at once: in flight, queued or being "
               "served (busy workers, open connections, pool slots in use). Ignored when "
               "solve_for = concurrency.",
               0.001, 1e9, 1, 50),
      quantity("throughput_rps", "Throughput (λ)", "req/s",
               "Average rate of requests completing (equal to the arrival rate in steady "
               "state). Ignored when solve_for = throughput.",
               0.001, 1e9, 1, 500),
      quantity("latency_ms", "Latency (W)", "ms",
               "Average time a request spends in the system, queueing included (mean, not a "
               "percentile). Ignored when solve_for = latency.",
               0.001, 86400000, 1, 100),
  };

  auto number = [](std::string key, std::string label, std::string unit, int precision) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::Number;
    o.unit = std::move(unit);
    o.precision = precision;
    return o;
  };
  OutputDescriptor solved;
  solved.key = "solved_for";
  solved.label = "Quantity solved for";
  solved.type = OutputType::String;
  solved.options = solve_for.options;
  t.outputs = {
      solved,
      number("concurrency", "Concurrency (L)", "requests", 3),
      number("throughput_rps", "Throughput (λ)", "req/s", 3),
      number("latency_ms", "Latency (W)", "ms", 3),
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
      {.title = "Defaults: concurrency for 500 req/s at 100 ms",
       .request_json = R"({"solve_for":"concurrency","throughput_rps":500,"latency_ms":100})"},
      {.title = "Database pool: connections for 2000 queries/s at 15 ms",
       .request_json = R"({"solve_for":"concurrency","throughput_rps":2000,"latency_ms":15})"},
      {.title = "Maximum throughput of 200 workers at 250 ms per request",
       .request_json = R"({"solve_for":"throughput","concurrency":200,"latency_ms":250})"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const std::string& unknown = in.enumeration("solve_for");
  double concurrency = in.number("concurrency");
  double throughput_rps = in.number("throughput_rps");
  double latency_ms = in.number("latency_ms");
  if (unknown == "concurrency")
    concurrency = throughput_rps * latency_ms / kMsPerS;
  else if (unknown == "throughput")
    throughput_rps = concurrency / (latency_ms / kMsPerS);
  else if (unknown == "latency")
    latency_ms = concurrency / throughput_rps * kMsPerS;
  else  // validation only lets the descriptor's options through
    throw std::logic_error("littles-law-concurrency: unknown solve_for");
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
