// parallel-speedup: the descriptor table, the published examples of
// docs/tools/parallel-speedup.md (expected values from those sources), the page's
// worked-example rows, and properties over random valid inputs (limits, the two laws' order).
// The tool has no 422 condition.
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
  static const catalog::Tool t = make_parallel_speedup();
  return t;
}

std::string body(double parallel_pct, double processors) {
  return RequestBody()
      .number("parallel_fraction_pct", parallel_pct)
      .number("processors", processors)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(ParallelSpeedup, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "parallel-speedup");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"parallel_fraction_pct", InputType::Number, "%", 0, 99.9999, 0.0001, 95.0},
             {"processors", InputType::Integer, "processors", 1, 100000, 1, 16.0},
         });
  tool_test::expect_outputs(d, {
                                   {"amdahl_speedup", OutputType::Number, "×", 3},
                                   {"amdahl_efficiency_pct", OutputType::Number, "%", 5},
                                   {"amdahl_limit", OutputType::Number, "×", 3},
                                   {"gustafson_speedup", OutputType::Number, "×", 3},
                                   {"gustafson_efficiency_pct", OutputType::Number, "%", 5},
                               });
}

// The published numbers, as their sources print them.
TEST(ParallelSpeedup, ReproducesPublishedExamples) {
  // CS:APP §1.9.1: α = 0.6, k = 3 gives 1.67×, and 2.5× as k → ∞.
  const std::string csapp = run_tool(tool(), body(60, 3));
  EXPECT_NEAR(field(csapp, "amdahl_speedup"), 1.67, 0.005);
  EXPECT_NEAR(field(csapp, "amdahl_limit"), 2.5, 1e-9);
  // Wikipedia: P = 90 % caps the speedup at 10; Hjorth-Jensen: f = 0.99 at 100.
  EXPECT_NEAR(field(run_tool(tool(), body(90, 1024)), "amdahl_limit"), 10, 1e-9);
  EXPECT_NEAR(field(run_tool(tool(), body(99, 1000)), "amdahl_limit"), 100, 1e-9);
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/parallel-speedup.md, row by row.
TEST(ParallelSpeedup, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 95 % on 16",
       body(95, 16),
       {"9.143", "57.14286", "20.000", "15.250", "95.31250"}},
      {"2 CS:APP: 60 % sped up 3×",
       body(60, 3),
       {"1.667", "55.55556", "2.500", "2.200", "73.33333"}},
      {"3 90 % on 1024", body(90, 1024), {"9.913", "0.96805", "10.000", "921.700", "90.00977"}},
      {"4 99 % on 1000", body(99, 1000), {"90.992", "9.09918", "100.000", "990.010", "99.00100"}},
      {"5 nothing parallel", body(0, 8), {"1.000", "12.50000", "1.000", "1.000", "12.50000"}},
      {"6 every number at its maximum",
       body(99.9999, 100000),
       {"90909.174", "90.90917", "1000000.000", "99999.900", "99.99990"}},
      {"7 one processor", body(50, 1), {"1.000", "100.00000", "2.000", "1.000", "100.00000"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(ParallelSpeedup, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(100, 8)),
            "400:parallel_fraction_pct:parallel_fraction_pct must be at most 99.9999");
  EXPECT_EQ(run_tool(tool(), body(50, 0)), "400:processors:processors must be at least 1");
}

TEST(ParallelSpeedup, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1967);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double p = tool_test::draw_number(d.inputs[0], rng);
    const double n = std::round(tool_test::draw_number(d.inputs[1], rng));
    const auto result = compute_body(tool(), body(p, n));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    const double amdahl = out.number("amdahl_speedup");
    const double gustafson = out.number("gustafson_speedup");
    // 1 ≤ Amdahl ≤ min(N, limit) ≤ Gustafson ≤ N: a fixed problem never gains more than a
    // scaled one, and neither more than the processors.
    ASSERT_GE(amdahl, 1 - 1e-12);
    ASSERT_LE(amdahl, n * (1 + 1e-12));
    ASSERT_LE(amdahl, out.number("amdahl_limit") * (1 + 1e-12));
    ASSERT_LE(amdahl, gustafson * (1 + 1e-12));
    ASSERT_LE(gustafson, n * (1 + 1e-12));
    ASSERT_NEAR(out.number("amdahl_efficiency_pct"), amdahl / n * 100, 1e-9);
    // More processors never slow a fixed problem down.
    if (n < 100000) {
      const auto more = std::get<catalog::Outputs>(compute_body(tool(), body(p, n + 1)));
      ASSERT_GE(more.number("amdahl_speedup"), amdahl * (1 - 1e-12));
    }
  }
  // N = 1 is no speedup at all, whatever p.
  const std::string one = run_tool(tool(), body(73, 1));
  EXPECT_EQ(result_field(one, "amdahl_speedup"), "1.000");
  EXPECT_EQ(result_field(one, "gustafson_speedup"), "1.000");
}

}  // namespace
}  // namespace toolcalc::tools
