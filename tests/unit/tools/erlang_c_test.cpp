// erlang-c: the descriptor table, the published examples of docs/tools/erlang-c.md (expected
// values from those sources), the page's worked-example rows, the 422 for an overloaded queue,
// and properties over random valid inputs (M/M/1 closed forms, monotonicity in the servers).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_erlang_c();
  return t;
}

std::string body(double lambda, double service_ms, double servers, double target_ms) {
  return RequestBody()
      .number("arrival_rate_per_s", lambda)
      .number("mean_service_time_ms", service_ms)
      .number("servers", servers)
      .number("target_wait_ms", target_ms)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

catalog::Outputs outputs(const std::string& request) {
  const auto result = compute_body(tool(), request);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result));
  return std::get<catalog::Outputs>(result);
}

TEST(ErlangC, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "erlang-c");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"arrival_rate_per_s", InputType::Number, "1/s", 0.001, 1000000, 0.001, 100.0},
             {"mean_service_time_ms", InputType::Number, "ms", 0.001, 3600000, 0.001, 50.0},
             {"servers", InputType::Integer, "servers", 1, 1000, 1, 8.0},
             {"target_wait_ms", InputType::Number, "ms", 0, 3600000, 1, 100.0},
         });
  tool_test::expect_outputs(d, {
                                   {"offered_load_erlangs", OutputType::Number, "E", 3},
                                   {"utilization_pct", OutputType::Number, "%", 2},
                                   {"probability_wait_pct", OutputType::Number, "%", 2},
                                   {"mean_wait_ms", OutputType::Number, "ms", 3},
                                   {"mean_response_ms", OutputType::Number, "ms", 3},
                                   {"wait_exceeds_target_pct", OutputType::Number, "%", 2},
                                   {"offered_load_microerlangs", OutputType::Number, "µE", 5},
                                   {"utilization_ppb", OutputType::Number, "ppb", 5},
                                   {"probability_wait_log10", OutputType::Number, "", 2},
                                   {"mean_wait_log10_ms", OutputType::Number, "log10(ms)", 2},
                                   {"mean_response_us", OutputType::Number, "µs", 3},
                                   {"wait_exceeds_target_log10", OutputType::Number, "", 2},
                               });
}

// The published numbers, as their sources print them.
TEST(ErlangC, ReproducesPublishedExamples) {
  // pyworkforce ErlangC docs (the Call Centre Helper example): 100 calls in 30 min, 3-minute
  // handle time, 14 agents, 20 s target: occupancy 0.7142857142857143, waiting_probability
  // 0.1741319335950498, service_level 0.8883500191794669.
  const std::string call_centre = run_tool(tool(), body(100.0 / 1800, 180000, 14, 20000));
  EXPECT_NEAR(field(call_centre, "utilization_pct"), 71.42857142857143, 0.005);
  EXPECT_NEAR(field(call_centre, "probability_wait_pct"), 17.41319335950498, 0.005);
  EXPECT_NEAR(field(call_centre, "wait_exceeds_target_pct"), 100 - 88.83500191794669, 0.005);
  // Westbay CC-Excel CCXLService(21 agents, 57 calls/h, 1110 s, 180 s) = 80.7 % service level.
  const std::string help_desk = run_tool(tool(), body(57.0 / 3600, 1110000, 21, 180000));
  EXPECT_NEAR(100 - field(help_desk, "wait_exceeds_target_pct"), 80.7, 0.05);
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/erlang-c.md, row by row.
TEST(ErlangC, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 100/s, 50 ms, 8 servers, 100 ms",
       body(100, 50, 8, 100),
       {"5.000", "62.50", "16.73", "2.788", "52.788", "0.04", "5000000.00000", "625000000.00000",
        "-0.78", "0.45", "52787.775", "-3.38"}},
      {"2 call centre: 100 calls in 30 min, 3 min each, 14 agents, 20 s",
       body(100.0 / 1800, 180000, 14, 20000),
       {"10.000", "71.43", "17.41", "7835.937", "187835.937", "11.16", "10000000.00000",
        "714285714.28571", "-0.76", "3.89", "187835937.012", "-0.95"}},
      {"3 help desk: 57 calls an hour, 1110 s each, 21 agents, 180 s",
       body(57.0 / 3600, 1110000, 21, 180000),
       {"17.575", "83.69", "33.71", "109251.306", "1219251.306", "19.34", "17575000.00000",
        "836904761.90476", "-0.47", "5.04", "1219251305.816", "-0.71"}},
      {"4 M/M/1 at 50 %",
       body(10, 50, 1, 0),
       {"0.500", "50.00", "50.00", "50.000", "100.000", "50.00", "500000.00000", "500000000.00000",
        "-0.30", "1.70", "100000.000", "-0.30"}},
      {"5 lightest load on 1000 servers",
       body(0.001, 0.001, 1000, 3600000),
       {"0.000", "0.00", "0.00", "0.000", "0.001", "0.00", "0.00100", "0.00100", "-11567.60",
        "-11573.60", "1.000", "-1563460146417.75"}},
      {"6 1000 servers at 99.99 %",
       body(999.9, 1000, 1000, 0),
       {"999.900", "99.99", "99.61", "9960.751", "10960.751", "99.61", "999900000.00000",
        "999900000.00000", "0.00", "4.00", "10960751.239", "0.00"}},
      {"7 worker pool: 2000/s, 20 ms, 50 workers, 10 ms",
       body(2000, 20, 50, 10),
       {"40.000", "80.00", "8.70", "0.174", "20.174", "0.06", "40000000.00000", "800000000.00000",
        "-1.06", "-0.76", "20173.905", "-3.23"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(ErlangC, OverloadedQueueIs422NamingServers) {
  EXPECT_EQ(run_tool(tool(), body(100, 50, 5, 100)),
            "422:servers:the offered load is 5.000 erlangs (arrival rate × mean service time), "
            "so 5 servers would be 100.0 % utilized and the queue would grow without bound: use "
            "at least 6 servers, or lower the arrival rate or the service time");
  EXPECT_EQ(run_tool(tool(), body(10, 150, 1, 0)),
            "422:servers:the offered load is 1.500 erlangs (arrival rate × mean service time), "
            "so 1 server would be 150.0 % utilized and the queue would grow without bound: use "
            "at least 2 servers, or lower the arrival rate or the service time");
  EXPECT_EQ(run_tool(tool(), body(1000000, 3600000, 1000, 0)),
            "422:servers:the offered load is 3600000000.000 erlangs (arrival rate × mean "
            "service time), so 1000 servers would be 360000000.0 % utilized and the queue would "
            "grow without bound: it needs more than the 1000 servers this tool takes; lower the "
            "arrival rate or the service time");
}

TEST(ErlangC, ThousandServersAtTheExtremesStayFinite) {
  // A load of 1e-9 E on 1000 servers: C ≈ A^1000/1000!, about 10^-11568, far below a double;
  // the logarithms carry it.
  const auto light = outputs(body(0.001, 0.001, 1000, 3600000));
  EXPECT_EQ(light.number("probability_wait_pct"), 0);
  EXPECT_NEAR(light.number("probability_wait_log10"),
              1000 * std::log10(1e-9) - std::lgamma(1001.0) / std::log(10.0), 0.01);
  EXPECT_TRUE(std::isfinite(light.number("wait_exceeds_target_log10")));
  // 999.9 E on 1000 servers: nearly every request waits.
  const auto heavy = outputs(body(999.9, 1000, 1000, 0));
  EXPECT_GT(heavy.number("probability_wait_pct"), 90);
  EXPECT_LT(heavy.number("probability_wait_pct"), 100);
  EXPECT_TRUE(std::isfinite(heavy.number("mean_wait_ms")));
}

TEST(ErlangC, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1917);
  const auto& d = tool().descriptor;
  int checked = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const double lambda = tool_test::draw_number(d.inputs[0], rng);
    const double service = tool_test::draw_number(d.inputs[1], rng);
    const double c = std::round(tool_test::draw_number(d.inputs[2], rng));
    const double t = tool_test::draw_number(d.inputs[3], rng);
    const double load = lambda * service / 1000;
    const auto result = compute_body(tool(), body(lambda, service, c, t));
    if (load >= c) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      ASSERT_EQ(std::get<catalog::ToolError>(result).field, "servers");
      continue;
    }
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));
    const auto& out = std::get<catalog::Outputs>(result);
    ++checked;
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double rho = load / c;
    const double p_wait = out.number("probability_wait_pct") / 100;
    ASSERT_NEAR(out.number("utilization_pct"), rho * 100, 1e-9 * rho * 100);
    ASSERT_GE(p_wait, 0);
    ASSERT_LT(p_wait, 1);
    // P(W > t) ≤ P(W > 0), and the logarithms agree with the linear values.
    ASSERT_LE(out.number("wait_exceeds_target_log10"), out.number("probability_wait_log10"));
    if (p_wait > 1e-300) {
      ASSERT_NEAR(out.number("probability_wait_log10"), std::log10(p_wait), 1e-9);
    }
    // Mean response = mean wait + service time.
    ASSERT_NEAR(out.number("mean_response_ms"), out.number("mean_wait_ms") + service,
                1e-9 * out.number("mean_response_ms"));
    if (c == 1) {
      // M/M/1: P(wait) = ρ and W_q = ρ·S/(1 − ρ).
      ASSERT_NEAR(p_wait, rho, 1e-9);
      ASSERT_NEAR(out.number("mean_wait_ms"), rho * service / (1 - rho),
                  1e-9 * out.number("mean_wait_ms") + 1e-300);
    }
    // One more server never makes anyone wait more.
    if (c < 1000) {
      const auto more = outputs(body(lambda, service, c + 1, t));
      ASSERT_LE(more.number("probability_wait_log10"), out.number("probability_wait_log10") + 1e-9);
      ASSERT_LE(more.number("mean_wait_log10_ms"), out.number("mean_wait_log10_ms") + 1e-9);
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
