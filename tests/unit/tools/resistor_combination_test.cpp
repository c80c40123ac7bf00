// resistor-combination: descriptor table, published series/parallel examples (besides the
// verification vectors, which all_tools_test.cpp checks), the pair search checked against a
// brute-force search over random targets, and the 422 case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tools/common/e_series.hpp"
#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::RequestBody;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_resistor_combination();
  return t;
}

catalog::Outputs outputs(const std::string& body) {
  const auto result = compute_body(tool(), body);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << body;
  return std::get<catalog::Outputs>(result);
}

std::string body(std::vector<double> rs, double target, const char* series = "E24") {
  RequestBody b;
  const char* keys[] = {"r1_ohm", "r2_ohm", "r3_ohm", "r4_ohm"};
  for (size_t i = 0; i < rs.size(); ++i) b.number(keys[i], rs[i]);
  return b.number("target_ohm", target).text("e_series", series).json();
}

TEST(ResistorCombination, DescriptorTable) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "resistor-combination");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  // The help says how "nearest" is measured (on a log scale, as the docs page does).
  const auto& series = *std::find_if(d.inputs.begin(), d.inputs.end(),
                                     [](const auto& i) { return i.key == "e_series"; });
  EXPECT_NE(series.help->find("logarithmic scale"), std::string::npos);
  tool_test::expect_inputs(d, {
                                  {"r1_ohm", InputType::Number, "Ω", 1, 10000000, 1, 1000.0},
                                  {"r2_ohm", InputType::Number, "Ω", 1, 10000000, 1, 2200.0},
                                  {"r3_ohm", InputType::Number, "Ω", 0, 10000000, 1, 0.0, false},
                                  {"r4_ohm", InputType::Number, "Ω", 0, 10000000, 1, 0.0, false},
                                  {"target_ohm", InputType::Number, "Ω", 1, 10000000, 1, 4990.0},
                                  {.key = "e_series",
                                   .type = InputType::Enum,
                                   .unit = std::nullopt,
                                   .default_value = std::string("E24"),
                                   .required = false,
                                   .options = {"E12", "E24", "E96"}},
                              });
  tool_test::expect_outputs(d, {
                                   {"series_ohm", OutputType::Number, "Ω", 3},
                                   {"parallel_ohm", OutputType::Number, "Ω", 3},
                                   {"series_pair_a_ohm", OutputType::Number, "Ω", 3},
                                   {"series_pair_b_ohm", OutputType::Number, "Ω", 3},
                                   {"series_pair_ohm", OutputType::Number, "Ω", 3},
                                   {"series_pair_error_pct", OutputType::Number, "%", 3},
                                   {"series_pair_error_ppm", OutputType::Number, "ppm", 6},
                                   {"parallel_pair_a_ohm", OutputType::Number, "Ω", 3},
                                   {"parallel_pair_b_ohm", OutputType::Number, "Ω", 3},
                                   {"parallel_pair_ohm", OutputType::Number, "Ω", 3},
                                   {"parallel_pair_error_pct", OutputType::Number, "%", 3},
                                   {"parallel_pair_error_ppm", OutputType::Number, "ppm", 6},
                               });
}

TEST(ResistorCombination, PublishedExamples) {
  // Instructables, "Custom Resistor Values": 3,300 + 120,000 = 123,300 Ω.
  EXPECT_DOUBLE_EQ(outputs(body({3300, 120000}, 1000)).number("series_ohm"), 123300);
  // Show Me The Physics, "Total Resistance Parallel Circuit": Ex 4, 3.0, 6.0 and 9.0 Ω give
  // 18/11 Ω; Ex 5, 2.0 and 4.0 Ω give 4.0/3.0 Ω.
  EXPECT_NEAR(outputs(body({3, 6, 9}, 1)).number("parallel_ohm"), 18.0 / 11, 1e-12);
  EXPECT_NEAR(outputs(body({2, 4}, 1)).number("parallel_ohm"), 4.0 / 3, 1e-12);
  // Four equal resistors: a quarter in parallel, four times in series.
  const auto four = outputs(body({4700, 4700, 4700, 4700}, 1000));
  EXPECT_DOUBLE_EQ(four.number("series_ohm"), 18800);
  EXPECT_NEAR(four.number("parallel_ohm"), 1175, 1e-9);
}

TEST(ResistorCombination, ExactPairsHaveNoError) {
  // 14.7 kΩ from E12 is exact in series (12 k + 2.7 k, or 10 k + 4.7 k).
  const auto s = outputs(body({1000, 1000}, 14700, "E12"));
  EXPECT_DOUBLE_EQ(s.number("series_pair_ohm"), 14700);
  EXPECT_EQ(s.number("series_pair_error_pct"), 0);
  EXPECT_EQ(s.number("series_pair_a_ohm") + s.number("series_pair_b_ohm"), 14700);
  // 5 kΩ is 10 k ∥ 10 k.
  const auto p = outputs(body({1000, 1000}, 5000, "E24"));
  EXPECT_EQ(p.number("parallel_pair_error_pct"), 0);
  EXPECT_NEAR(p.number("parallel_pair_ohm"), 5000, 1e-9);
}

// Every part from 1 Ω to 10 MΩ, as the tool's doc page defines the search space.
std::vector<double> all_parts(const char* series) {
  std::vector<double> parts;
  const auto m = e_series::series(series);
  for (int d = 0; d <= 6; ++d)
    for (int v : m) parts.push_back(e_series::preferred_value(v, d - 2));
  parts.push_back(1e7);
  return parts;
}

TEST(ResistorCombination, PairsMatchABruteForceSearch) {
  std::mt19937 rng(63);
  const char* names[] = {"E12", "E24", "E96"};
  for (int i = 0; i < 60; ++i) {
    const char* name = names[i % 3];
    const auto parts = all_parts(name);
    const double target = std::pow(10.0, std::uniform_real_distribution<double>(0.5, 6.8)(rng));
    double best_s = INFINITY, best_p = INFINITY;
    for (size_t a = 0; a < parts.size(); ++a)
      for (size_t b = 0; b <= a; ++b) {
        best_s = std::fmin(best_s, std::fabs(std::log((parts[a] + parts[b]) / target)));
        best_p = std::fmin(
            best_p, std::fabs(std::log(parts[a] * parts[b] / (parts[a] + parts[b]) / target)));
      }
    const auto out = outputs(body({1000, 1000}, target, name));
    SCOPED_TRACE(std::string(name) + " " + std::to_string(target));
    EXPECT_NEAR(std::fabs(std::log(out.number("series_pair_ohm") / target)), best_s, 1e-12);
    EXPECT_NEAR(std::fabs(std::log(out.number("parallel_pair_ohm") / target)), best_p, 1e-12);
    EXPECT_GE(out.number("series_pair_a_ohm"), out.number("series_pair_b_ohm"));
    EXPECT_GE(out.number("parallel_pair_a_ohm"), out.number("parallel_pair_b_ohm"));
    EXPECT_NEAR(out.number("series_pair_error_pct"),
                100 * (out.number("series_pair_ohm") - target) / target, 1e-9);
  }
}

TEST(ResistorCombination, SeriesAndParallelBoundsOverRandomInputs) {
  std::mt19937 rng(2015);
  const auto& d = tool().descriptor;
  for (int i = 0; i < 2000; ++i) {
    std::vector<double> rs;
    for (int k = 0; k < 2 + i % 3; ++k) rs.push_back(tool_test::draw_number(d.inputs[0], rng));
    const auto out = outputs(body(rs, 1000));
    double smallest = INFINITY, largest = 0;
    for (double r : rs) {
      smallest = std::fmin(smallest, r);
      largest = std::fmax(largest, r);
    }
    // In series the total exceeds the largest; in parallel it is below the smallest.
    ASSERT_GT(out.number("series_ohm"), largest);
    ASSERT_LT(out.number("parallel_ohm"), smallest);
    ASSERT_GE(out.number("parallel_ohm"), smallest / rs.size() * (1 - 1e-12));
  }
}

TEST(ResistorCombination, OptionalResistorsAreZeroOrAtLeastOneOhm) {
  EXPECT_EQ(run_tool(tool(), body({1000, 1000, 0.5}, 1000)),
            "422:r3_ohm:r3_ohm must be 0 (no resistor) or at least 1 Ω, the smallest standard "
            "value; enter 0 to leave it out");
  EXPECT_EQ(run_tool(tool(), body({1000, 1000, 0, 0.2}, 1000)).rfind("422:r4_ohm:", 0), 0u);
  EXPECT_EQ(run_tool(tool(), body({1000, 1000, 0, 1}, 1000)).front(), '{');
}

}  // namespace
}  // namespace toolcalc::tools
