// littles-law-concurrency: the descriptor table, the worked examples of
// docs/tools/littles-law-concurrency.md (expected texts copied from that page), the optional
// quantities, the 422s for results below their range, and properties over random valid inputs.
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
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_littles_law_concurrency();
  return t;
}

std::string body(const char* solve_for, double concurrency, double throughput_rps,
                 double latency_ms) {
  return RequestBody()
      .text("solve_for", solve_for)
      .number("concurrency", concurrency)
      .number("throughput_rps", throughput_rps)
      .number("latency_ms", latency_ms)
      .json();
}

TEST(LittlesLawConcurrency, Descriptor) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "littles-law-concurrency");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "2.0.0");
  EXPECT_FALSE(d.standard.has_value());
  // The three quantities are optional: the unknown need not be sent.
  tool_test::expect_inputs(
      d, {
             {.key = "solve_for",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("concurrency"),
              .options = {"concurrency", "throughput", "latency"}},
             {"concurrency", InputType::Number, "requests", 0.0001, 1e9, 1, 50.0, false},
             {"throughput_rps", InputType::Number, "req/s", 0.001, 1e9, 1, 500.0, false},
             {"latency_ms", InputType::Number, "ms", 0.001, 86400000, 1, 100.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {.key = "solved_for",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"concurrency", "throughput", "latency"}},
                                   {"concurrency", OutputType::Number, "requests", 6},
                                   {"throughput_rps", OutputType::Number, "req/s", 5},
                                   {"latency_ms", OutputType::Number, "ms", 5},
                               });
}

// 3 req/s at 0.1 ms keeps 0.0003 requests in flight: at three decimals that printed 0.000.
TEST(LittlesLawConcurrency, SmallConcurrencyIsNotHiddenByRounding) {
  EXPECT_EQ(run_tool(tool(), body("concurrency", 1, 3, 0.1)),
            expected_result(tool(), {"concurrency", "0.000300", "3.00000", "0.10000"}));
}

TEST(LittlesLawConcurrency, SolveForRendersAsRequiredAndQuantitiesAsOptional) {
  const std::string record = catalog::render_record(tool().descriptor);
  EXPECT_NE(record.find(R"({"key":"solve_for","label":"Solve for","required":true,)"),
            std::string::npos)
      << record;
  EXPECT_NE(record.find(R"x({"key":"latency_ms","label":"Latency (W)","unit":"ms",)x"),
            std::string::npos)
      << record;
}

struct WorkedExample {
  const char* name;
  std::string body;
  // solved_for, concurrency, req/s, ms
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/littles-law-concurrency.md, row by row.
TEST(LittlesLawConcurrency, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body("concurrency", 50, 500, 100),
       {"concurrency", "50.000000", "500.00000", "100.00000"}},
      {"2 defaults, solve throughput",
       body("throughput", 50, 500, 100),
       {"throughput", "50.000000", "500.00000", "100.00000"}},
      {"3 defaults, solve latency",
       body("latency", 50, 500, 100),
       {"latency", "50.000000", "500.00000", "100.00000"}},
      {"4 the smallest concurrency, 0.1 req/s at 1 ms",
       body("concurrency", 1, 0.1, 1),
       {"concurrency", "0.000100", "0.10000", "1.00000"}},
      {"5 every number at its maximum",
       body("concurrency", 1e9, 1e9, 86400000),
       {"concurrency", "86400000000000.000000", "1000000000.00000", "86400000.00000"}},
      {"6 largest throughput",
       body("throughput", 1e9, 1e9, 0.001),
       {"throughput", "1000000000.000000", "1000000000000000.00000", "0.00100"}},
      {"7 database pool",
       body("concurrency", 50, 2000, 15),
       {"concurrency", "30.000000", "2000.00000", "15.00000"}},
      {"8 200 workers at 250 ms",
       body("throughput", 200, 500, 250),
       {"throughput", "200.000000", "800.00000", "250.00000"}},
      {"9 latency of 64 in flight at 1280 req/s",
       body("latency", 64, 1280, 100),
       {"latency", "64.000000", "1280.00000", "50.00000"}},
      {"10 3 req/s at 0.1 ms",
       body("concurrency", 1, 3, 0.1),
       {"concurrency", "0.000300", "3.00000", "0.10000"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(LittlesLawConcurrency, TheUnknownNeedNotBeSentAndIsIgnoredWhenSent) {
  EXPECT_EQ(
      run_tool(tool(), R"({"solve_for":"concurrency","throughput_rps":2000,"latency_ms":15})"),
      expected_result(tool(), {"concurrency", "30.000000", "2000.00000", "15.00000"}));
  EXPECT_EQ(run_tool(tool(), R"({"solve_for":"throughput","concurrency":200,"latency_ms":250})"),
            expected_result(tool(), {"throughput", "200.000000", "800.00000", "250.00000"}));
  EXPECT_EQ(run_tool(tool(), body("throughput", 200, 123456, 250)),
            expected_result(tool(), {"throughput", "200.000000", "800.00000", "250.00000"}));
  // A known quantity left out takes its default, and the result shows it.
  EXPECT_EQ(run_tool(tool(), R"({"solve_for":"latency","concurrency":100})"),
            expected_result(tool(), {"latency", "100.000000", "500.00000", "200.00000"}));
}

TEST(LittlesLawConcurrency, ResultBelowItsQuantitysRangeIs422) {  // doc rows 11–13
  EXPECT_EQ(run_tool(tool(), body("concurrency", 1, 1, 0.01)),
            "422:throughput_rps:the concurrency these give, throughput_rps × latency_ms / 1000 "
            "= 0.00001 requests, is below 0.0001 requests, the smallest the tool works with; "
            "check the inputs and their units");
  EXPECT_EQ(run_tool(tool(), body("throughput", 0.0001, 1, 1000)),
            "422:concurrency:the throughput these give, concurrency / (latency_ms / 1000) = "
            "0.0001 req/s, is below 0.001 req/s, the smallest the tool works with; check the "
            "inputs and their units");
  EXPECT_EQ(run_tool(tool(), body("latency", 0.0001, 1000, 1)),
            "422:concurrency:the latency these give, concurrency / throughput_rps × 1000 = "
            "0.0001 ms, is below 0.001 ms, the smallest the tool works with; check the inputs "
            "and their units");
}

TEST(LittlesLawConcurrency, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), R"({"throughput_rps":500,"latency_ms":100})"),
            "400:solve_for:solve_for is required");
  EXPECT_EQ(run_tool(tool(), body("rate", 50, 500, 100)),
            "400:solve_for:solve_for must be one of: concurrency, throughput, latency");
  EXPECT_EQ(
      run_tool(tool(), R"({"solve_for":"concurrency","throughput_rps":500,"latency_ms":null})"),
      "400:latency_ms:latency_ms must be a number, got null");
  EXPECT_EQ(run_tool(tool(), body("concurrency", 50, 0, 100)),
            "400:throughput_rps:throughput_rps must be at least 0.001");
}

TEST(LittlesLawConcurrency, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1961);
  const auto& d = tool().descriptor;
  const char* modes[] = {"concurrency", "throughput", "latency"};
  for (int draw = 0; draw < 3000; ++draw) {
    const double l = tool_test::draw_number(d.inputs[1], rng);
    const double lambda = tool_test::draw_number(d.inputs[2], rng);
    const double w = tool_test::draw_number(d.inputs[3], rng);
    const char* mode = modes[draw % 3];
    const auto result = compute_body(tool(), body(mode, l, lambda, w));
    if (const auto* error = std::get_if<catalog::ToolError>(&result)) {
      // Only a result below its quantity's range is refused.
      if (mode == modes[0]) {
        ASSERT_LT(lambda * w / 1000, 0.0001);
      } else if (mode == modes[1]) {
        ASSERT_LT(l / (w / 1000), 0.001);
      } else {
        ASSERT_LT(l / lambda * 1000, 0.001);
      }
      ASSERT_FALSE(error->field.empty());
      continue;
    }
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) {
      if (o.type == OutputType::Number) {
        ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
      }
    }
    ASSERT_EQ(out.text("solved_for"), mode);
    const double L = out.number("concurrency");
    const double lam = out.number("throughput_rps");
    const double W = out.number("latency_ms");
    // L = λ·W holds on the result, and the two known quantities come back unchanged.
    ASSERT_NEAR(L, lam * W / 1000, 1e-12 * L);
    if (mode != modes[0]) {
      ASSERT_EQ(L, l);
    }
    if (mode != modes[1]) {
      ASSERT_EQ(lam, lambda);
    }
    if (mode != modes[2]) {
      ASSERT_EQ(W, w);
    }
    // Round trip: solving back for the latency recovers it (when L and λ are valid inputs).
    if (L >= 0.0001 && L <= 1e9 && lam >= 0.001 && lam <= 1e9 && W >= 0.0011) {
      const auto back = compute_body(tool(), body("latency", L, lam, 1));
      ASSERT_NEAR(std::get<catalog::Outputs>(back).number("latency_ms"), W, 1e-12 * W);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
