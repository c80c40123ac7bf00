// stored-energy: descriptor, the published worked examples of docs/tools/stored-energy.md
// (OpenStax), and properties over random valid inputs. The tool has no 422 condition.
#include <gtest/gtest.h>

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
  static const catalog::Tool t = make_stored_energy();
  return t;
}

std::string capacitor(double c_uf, double v) {
  return RequestBody()
      .text("component", "capacitor")
      .number("capacitance_uf", c_uf)
      .number("voltage_v", v)
      .json();
}

std::string inductor(double l_mh, double i) {
  return RequestBody()
      .text("component", "inductor")
      .number("inductance_mh", l_mh)
      .number("current_a", i)
      .json();
}

catalog::Outputs outputs(const std::string& request) {
  const auto result = compute_body(tool(), request);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result));
  return std::get<catalog::Outputs>(result);
}

TEST(StoredEnergy, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "stored-energy");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "component",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("capacitor"),
              .options = {"capacitor", "inductor"}},
             {"capacitance_uf", InputType::Number, "µF", 0.001, 10000000, 0.001, 100.0, false},
             {"voltage_v", InputType::Number, "V", 0.1, 100000, 0.1, 12.0, false},
             {"inductance_mh", InputType::Number, "mH", 0.001, 100000, 0.001, 1.0, false},
             {"current_a", InputType::Number, "A", 0.01, 10000, 0.01, 1.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {"energy_j", OutputType::Number, "J", 6},
                                   {"energy_pj", OutputType::Number, "pJ", 3},
                                   {"charge_c", OutputType::Number, "C", 6},
                                   {"charge_nc", OutputType::Number, "nC", 3},
                               });
}

// OpenStax: University Physics Vol. 2 Example 8.8 (96 µJ, 64 µJ, 130 µJ, total 0.29 mJ),
// College Physics 2e Example 19.11 (8.00 µF at 10.0 kV: 400 J) and Example 23.8 (0.632 mH
// at 30.0 A: 0.284 J).
TEST(StoredEnergy, PublishedWorkedExamples) {
  EXPECT_NEAR(outputs(capacitor(12, 4)).number("energy_pj"), 96e6, 1);
  EXPECT_NEAR(outputs(capacitor(2, 8)).number("energy_pj"), 64e6, 1);
  EXPECT_NEAR(outputs(capacitor(4, 8)).number("energy_pj"), 130e6, 2e6);  // printed 2 digits
  EXPECT_NEAR(outputs(capacitor(4, 12)).number("energy_j"), 0.29e-3, 0.005e-3);
  EXPECT_NEAR(outputs(capacitor(8, 10000)).number("energy_j"), 400, 1e-9);
  EXPECT_NEAR(outputs(inductor(0.632, 30)).number("energy_j"), 0.284, 0.0005);
}

// Hand check: 100 µF at 12 V: E = ½·1e-4·144 = 7.2 mJ, Q = 1.2 mC; an inductor holds no
// charge: 1 mH at 1 A stores 0.5 mJ.
TEST(StoredEnergy, HandCheckedRows) {
  EXPECT_EQ(run_tool(tool(), capacitor(100, 12)),
            expected_result(tool(), {"0.007200", "7200000000.000", "0.001200", "1200000.000"}));
  EXPECT_EQ(run_tool(tool(), inductor(1, 1)),
            expected_result(tool(), {"0.000500", "500000000.000", "0.000000", "0.000"}));
}

TEST(StoredEnergy, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), capacitor(100, 0)), "400:voltage_v:voltage_v must be at least 0.1");
  EXPECT_EQ(run_tool(tool(), inductor(1, 20000)), "400:current_a:current_a must be at most 10000");
}

TEST(StoredEnergy, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1745);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 2000; ++draw) {
    const double c = tool_test::draw_number(d.inputs[1], rng);
    const double v = tool_test::draw_number(d.inputs[2], rng);
    const auto cap = outputs(capacitor(c, v));
    // E = Q·V/2 = Q²/(2C): the three textbook forms agree.
    const double q = cap.number("charge_c");
    ASSERT_NEAR(cap.number("energy_j"), q * v / 2, 1e-12 * cap.number("energy_j"));
    ASSERT_NEAR(cap.number("energy_j"), q * q / (2 * c * 1e-6), 1e-12 * cap.number("energy_j"));
    ASSERT_NEAR(cap.number("energy_pj"), cap.number("energy_j") * 1e12,
                1e-12 * cap.number("energy_pj"));
    // Doubling the voltage quadruples the energy.
    if (2 * v <= 100000) {
      ASSERT_NEAR(outputs(capacitor(c, 2 * v)).number("energy_j"), 4 * cap.number("energy_j"),
                  1e-12 * cap.number("energy_j"));
    }
    const double l = tool_test::draw_number(d.inputs[3], rng);
    const double i = tool_test::draw_number(d.inputs[4], rng);
    const auto ind = outputs(inductor(l, i));
    ASSERT_NEAR(ind.number("energy_j"), 0.5 * l * 1e-3 * i * i, 1e-12 * ind.number("energy_j"));
    ASSERT_EQ(ind.number("charge_c"), 0);
  }
}

}  // namespace
}  // namespace toolcalc::tools
