// token-bucket: the descriptor table, the published examples of docs/tools/token-bucket.md
// (expected values from those sources), the page's worked-example rows, the 422, and
// properties over random valid inputs (the arrival curve and the burst formulas agree).
#include <gtest/gtest.h>

#include <algorithm>
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
  static const catalog::Tool t = make_token_bucket();
  return t;
}

std::string body(double rate, double capacity, double peak, double burst, double window_s) {
  return RequestBody()
      .number("rate_per_s", rate)
      .number("bucket_capacity", capacity)
      .number("peak_rate_per_s", peak)
      .number("burst_requests", burst)
      .number("window_s", window_s)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(TokenBucket, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "token-bucket");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"rate_per_s", InputType::Number, "1/s", 0.001, 10000000, 0.001, 100.0},
             {"bucket_capacity", InputType::Number, "tokens", 1, 1000000000000, 1, 200.0},
             {"peak_rate_per_s", InputType::Number, "1/s", 1, 10000000, 1, 1000.0},
             {"burst_requests", InputType::Number, "tokens", 1, 1000000000000, 1, 1000.0},
             {"window_s", InputType::Number, "s", 1, 31557600, 1, 60.0},
         });
  tool_test::expect_outputs(d, {
                                   {"refill_time_s", OutputType::Number, "s", 3},
                                   {"max_requests_in_window", OutputType::Number, "tokens", 2},
                                   {"max_burst_duration_s", OutputType::Number, "s", 3},
                                   {"max_burst_requests", OutputType::Number, "tokens", 2},
                                   {"burst_time_s", OutputType::Number, "s", 3},
                                   {"refill_time_us", OutputType::Number, "µs", 3},
                                   {"max_burst_duration_us", OutputType::Number, "µs", 3},
                                   {"burst_time_us", OutputType::Number, "µs", 3},
                               });
}

// The published numbers, as their sources print them.
TEST(TokenBucket, ReproducesPublishedExamples) {
  // GATE CS 2016: 1 MB bucket, 10 MB/s tokens, 20 MB/s output, 12 MB: 1.1 s (official key).
  const std::string gate16 = run_tool(tool(), body(10, 1, 20, 12, 1));
  EXPECT_NEAR(field(gate16, "burst_time_s"), 1.1, 1e-9);
  EXPECT_NEAR(field(gate16, "max_burst_duration_s"), 0.1, 1e-9);
  EXPECT_NEAR(field(gate16, "max_burst_requests"), 2, 1e-9);
  // GATE CS 2008: 16 Mb, 2 Mbps, 10 Mbps: 2 s at the full rate.
  EXPECT_NEAR(field(run_tool(tool(), body(2, 16, 10, 16, 1)), "max_burst_duration_s"), 2, 1e-9);
  // Odom, Cisco QoS ECG, Figure 6-5: Bc = 8000 bits at 64 kbps, Tc = 125 ms.
  EXPECT_NEAR(field(run_tool(tool(), body(64000, 8000, 128000, 8000, 1)), "refill_time_s"), 0.125,
              1e-9);
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/token-bucket.md, row by row.
TEST(TokenBucket, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 100/s, 200 burst, 1000/s peak",
       body(100, 200, 1000, 1000, 60),
       {"2.000", "6200.00", "0.222", "222.22", "8.000", "2000000.000", "222222.222",
        "8000000.000"}},
      {"2 GATE 2016",
       body(10, 1, 20, 12, 1),
       {"0.100", "11.00", "0.100", "2.00", "1.100", "100000.000", "100000.000", "1100000.000"}},
      {"3 GATE 2008",
       body(2, 16, 10, 16, 1),
       {"8.000", "10.00", "2.000", "20.00", "1.600", "8000000.000", "2000000.000", "1600000.000"}},
      {"4 Cisco 64 kbps, Bc 8000 bits",
       body(64000, 8000, 128000, 8000, 1),
       {"0.125", "72000.00", "0.125", "16000.00", "0.063", "125000.000", "125000.000",
        "62500.000"}},
      {"5 slowest bucket",
       body(0.001, 1, 1, 1, 1),
       {"1000.000", "1.00", "1.001", "1.00", "1.000", "1000000000.000", "1001001.001",
        "1000000.000"}},
      {"6 fastest rates, one token",
       body(9999999, 1, 10000000, 1, 1),
       {"0.000", "10000000.00", "1.000", "10000000.00", "0.000", "0.100", "1000000.000", "0.100"}},
      {"7 largest bucket and window",
       body(0.001, 1000000000000, 10000000, 1000000000000, 31557600),
       {"1000000000000000.000", "1000000031557.60", "100000.000", "1000000000100.00", "100000.000",
        "1000000000000000000000.000", "100000000010.000", "100000000000.000"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(TokenBucket, PeakRateNotAboveTokenRateIs422) {
  EXPECT_EQ(run_tool(tool(), body(100, 200, 100, 1000, 60)),
            "422:peak_rate_per_s:peak_rate_per_s of 100/s does not exceed the token rate of "
            "100/s: the bucket then never empties and bursts are not limited by it; enter the "
            "peak (line) rate, above the token rate");
  EXPECT_EQ(run_tool(tool(), body(5000, 200, 1000, 1000, 60)).rfind("422:peak_rate_per_s:", 0), 0u);
}

TEST(TokenBucket, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1999);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double r = tool_test::draw_number(d.inputs[0], rng);
    const double b = tool_test::draw_number(d.inputs[1], rng);
    const double m = tool_test::draw_number(d.inputs[2], rng);
    const double n = tool_test::draw_number(d.inputs[3], rng);
    const double window = tool_test::draw_number(d.inputs[4], rng);
    const auto result = compute_body(tool(), body(r, b, m, n, window));
    if (m <= r) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      continue;
    }
    const auto& out = std::get<catalog::Outputs>(result);
    // The longest burst ends where the peak line meets the bucket's arrival curve.
    const double s = out.number("max_burst_duration_s");
    ASSERT_NEAR(m * s, b + r * s, 1e-9 * (b + r * s));
    ASSERT_NEAR(out.number("max_burst_requests"), m * s, 1e-9 * m * s);
    // N tokens leave by burst_time: the curve min(M·t, b + r·t) reaches N exactly then.
    const double t = out.number("burst_time_s");
    ASSERT_NEAR(std::min(m * t, b + r * t), n, 1e-9 * n);
    // A window never admits more than the bucket plus its refill, nor more than the peak.
    const double most = out.number("max_requests_in_window");
    ASSERT_LE(most, (b + r * window) * (1 + 1e-12));
    ASSERT_LE(most, m * window * (1 + 1e-12));
    ASSERT_NEAR(out.number("refill_time_s") * r, b, 1e-9 * b);
    ASSERT_NEAR(out.number("burst_time_us"), t * 1e6, 1e-9 * t * 1e6);
  }
}

}  // namespace
}  // namespace toolcalc::tools
