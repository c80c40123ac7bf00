// littles-law-concurrency: descriptor, the worked examples of
// docs/tools/littles-law-concurrency.md (expected texts copied from that page), the optional
// quantities, and properties over random valid inputs. The tool has no 422 condition.
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
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.description.empty());
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_EQ(d.endpoint(), "/v1/programming-dev/littles-law-concurrency");
  EXPECT_GE(d.references.size(), 2u);
  EXPECT_FALSE(d.examples.empty());

  ASSERT_EQ(d.inputs.size(), 4u);
  const auto& solve_for = d.inputs[0];
  EXPECT_EQ(solve_for.key, "solve_for");
  EXPECT_EQ(solve_for.type, InputType::Enum);
  EXPECT_TRUE(solve_for.required);
  EXPECT_FALSE(solve_for.unit.has_value());
  EXPECT_EQ(solve_for.options, (std::vector<std::string>{"concurrency", "throughput", "latency"}));
  EXPECT_EQ(std::get<std::string>(solve_for.default_value), "concurrency");
  struct In {
    const char* key;
    const char* unit;
    double min, max, step, def;
  };
  const std::vector<In> quantities = {
      {"concurrency", "requests", 0.001, 1e9, 1, 50},
      {"throughput_rps", "req/s", 0.001, 1e9, 1, 500},
      {"latency_ms", "ms", 0.001, 86400000, 1, 100},
  };
  for (size_t i = 0; i < quantities.size(); ++i) {
    const auto& in = d.inputs[i + 1];
    SCOPED_TRACE(quantities[i].key);
    EXPECT_EQ(in.key, quantities[i].key);
    EXPECT_EQ(in.type, InputType::Number);
    EXPECT_FALSE(in.required);  // the unknown need not be sent
    EXPECT_EQ(in.unit, quantities[i].unit);
    EXPECT_EQ(in.min, quantities[i].min);
    EXPECT_EQ(in.max, quantities[i].max);
    EXPECT_EQ(in.step, quantities[i].step);
    EXPECT_EQ(std::get<double>(in.default_value), quantities[i].def);
    EXPECT_FALSE(in.label.empty());
    EXPECT_TRUE(in.help.has_value());
  }

  ASSERT_EQ(d.outputs.size(), 4u);
  EXPECT_EQ(d.outputs[0].key, "solved_for");
  EXPECT_EQ(d.outputs[0].type, OutputType::String);
  EXPECT_EQ(d.outputs[0].options, solve_for.options);
  const std::vector<std::pair<const char*, const char*>> numbers = {
      {"concurrency", "requests"}, {"throughput_rps", "req/s"}, {"latency_ms", "ms"}};
  for (size_t i = 0; i < numbers.size(); ++i) {
    SCOPED_TRACE(numbers[i].first);
    EXPECT_EQ(d.outputs[i + 1].key, numbers[i].first);
    EXPECT_EQ(d.outputs[i + 1].type, OutputType::Number);
    EXPECT_EQ(d.outputs[i + 1].unit, numbers[i].second);
    EXPECT_EQ(d.outputs[i + 1].precision, 3);
  }
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

TEST(LittlesLawConcurrency, DescriptorExamplesRun) {
  for (const auto& ex : tool().descriptor.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_EQ(run_tool(tool(), ex.request_json).front(), '{');
  }
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
       {"concurrency", "50.000", "500.000", "100.000"}},
      {"2 defaults, solve throughput",
       body("throughput", 50, 500, 100),
       {"throughput", "50.000", "500.000", "100.000"}},
      {"3 defaults, solve latency",
       body("latency", 50, 500, 100),
       {"latency", "50.000", "500.000", "100.000"}},
      {"4 every number at its minimum",
       body("concurrency", 0.001, 0.001, 0.001),
       {"concurrency", "0.000", "0.001", "0.001"}},
      {"5 every number at its maximum",
       body("concurrency", 1e9, 1e9, 86400000),
       {"concurrency", "86400000000000.000", "1000000000.000", "86400000.000"}},
      {"6 largest throughput",
       body("throughput", 1e9, 1e9, 0.001),
       {"throughput", "1000000000.000", "1000000000000000.000", "0.001"}},
      {"7 database pool",
       body("concurrency", 50, 2000, 15),
       {"concurrency", "30.000", "2000.000", "15.000"}},
      {"8 200 workers at 250 ms",
       body("throughput", 200, 500, 250),
       {"throughput", "200.000", "800.000", "250.000"}},
      {"9 latency of 64 in flight at 1280 req/s",
       body("latency", 64, 1280, 100),
       {"latency", "64.000", "1280.000", "50.000"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(LittlesLawConcurrency, TheUnknownNeedNotBeSentAndIsIgnoredWhenSent) {
  EXPECT_EQ(
      run_tool(tool(), R"({"solve_for":"concurrency","throughput_rps":2000,"latency_ms":15})"),
      expected_result(tool(), {"concurrency", "30.000", "2000.000", "15.000"}));
  EXPECT_EQ(run_tool(tool(), R"({"solve_for":"throughput","concurrency":200,"latency_ms":250})"),
            expected_result(tool(), {"throughput", "200.000", "800.000", "250.000"}));
  EXPECT_EQ(run_tool(tool(), body("throughput", 200, 123456, 250)),
            expected_result(tool(), {"throughput", "200.000", "800.000", "250.000"}));
  // A known quantity left out takes its default, and the result shows it.
  EXPECT_EQ(run_tool(tool(), R"({"solve_for":"latency","concurrency":100})"),
            expected_result(tool(), {"latency", "100.000", "500.000", "200.000"}));
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
    if (L >= 0.001 && L <= 1e9 && lam >= 0.001 && lam <= 1e9) {
      const auto back = compute_body(tool(), body("latency", L, lam, 1));
      ASSERT_NEAR(std::get<catalog::Outputs>(back).number("latency_ms"), W, 1e-12 * W);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
