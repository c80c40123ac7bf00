// heatsink-thermal-resistance: descriptor, the textbook examples of
// docs/tools/heatsink-thermal-resistance.md (expected values as the books print them), every 422
// case and properties over random valid inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::RequestBody;
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_heatsink_thermal_resistance();
  return t;
}

std::string body(double tj, double ta, double power, double theta_jc, double theta_cs) {
  return RequestBody()
      .number("max_junction_temp_c", tj)
      .number("ambient_temp_c", ta)
      .number("power_w", power)
      .number("theta_jc_c_per_w", theta_jc)
      .number("theta_cs_c_per_w", theta_cs)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(HeatsinkThermalResistance, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "heatsink-thermal-resistance");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d,
                           {
                               {"max_junction_temp_c", InputType::Number, "°C", 50, 200, 1, 125.0},
                               {"ambient_temp_c", InputType::Number, "°C", -40, 125, 1, 40.0},
                               {"power_w", InputType::Number, "W", 0.01, 2000, 0.1, 10.0},
                               {"theta_jc_c_per_w", InputType::Number, "°C/W", 0, 50, 0.01, 1.5},
                               {"theta_cs_c_per_w", InputType::Number, "°C/W", 0, 10, 0.01, 0.5},
                           });
  tool_test::expect_outputs(d, {
                                   {"theta_sa_c_per_w", OutputType::Number, "°C/W", 3},
                                   {"theta_ja_max_c_per_w", OutputType::Number, "°C/W", 3},
                                   {"case_temp_c", OutputType::Number, "°C", 1},
                                   {"heatsink_temp_c", OutputType::Number, "°C", 1},
                                   {"case_temp_k", OutputType::Number, "K", 1},
                                   {"heatsink_temp_k", OutputType::Number, "K", 1},
                               });
}

// Franco, Design with Op Amps and Analog ICs, 3rd ed., Example 11.15: θSA ≈ 6 °C/W.
TEST(HeatsinkThermalResistance, FrancoExample11_15) {
  EXPECT_NEAR(field(run_tool(tool(), body(125, 60, 7 * 0.8, 5, 0.6)), "theta_sa_c_per_w"), 6.0,
              6.0 * 0.002 + 0.0005);
}

// Boylestad & Nashelsky, 10th ed., Example 12.18, run backwards: 61.54 W needs 1.5 °C/W.
TEST(HeatsinkThermalResistance, BoylestadExample12_18) {
  const std::string r = run_tool(tool(), body(200, 40, 61.54, 0.5, 0.6));
  EXPECT_NEAR(field(r, "theta_sa_c_per_w"), 1.5, 0.0005);
  EXPECT_NEAR(field(r, "theta_ja_max_c_per_w"), 2.6, 0.0005);
}

// Neamen, Electronic Circuit Analysis and Design, 2nd ed., Example 8.1, run backwards.
TEST(HeatsinkThermalResistance, NeamenExample8_1) {
  EXPECT_NEAR(field(run_tool(tool(), body(150, 30, 15.48, 1.75, 1)), "theta_sa_c_per_w"), 5,
              5 * 0.0005 + 0.0005);
}

TEST(HeatsinkThermalResistance, AmbientNotBelowTheJunctionIs422) {
  EXPECT_EQ(run_tool(tool(), body(100, 100, 10, 1, 0.5)),
            "422:ambient_temp_c:ambient_temp_c of 100 °C is not below the junction limit of "
            "100 °C: no heatsink can cool below ambient; lower ambient_temp_c or raise "
            "max_junction_temp_c");
}

TEST(HeatsinkThermalResistance, NoHeatsinkCanDoItIs422) {
  // 100 W with 85 °C of budget allows 0.85 °C/W, all of it taken by θJC + θCS.
  EXPECT_EQ(run_tool(tool(), body(125, 40, 100, 0.6, 0.3)),
            "422:power_w:at power_w of 100 W the path may have only 0.850 °C/W, which leaves "
            "-0.050 °C/W for the heatsink after θJC and θCS: below 0.1 °C/W no air-cooled "
            "heatsink can do it; lower the power, the ambient or the interface resistance, or "
            "share the heat between several devices");
  // A positive but impractically small θSA is refused too.
  EXPECT_EQ(run_tool(tool(), body(125, 40, 100, 0.5, 0.3)).rfind("422:power_w:", 0), 0u);
}

TEST(HeatsinkThermalResistance, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1218);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    double x[5];
    for (int i = 0; i < 5; ++i) x[i] = tool_test::draw_number(d.inputs[i], rng);
    const auto result = compute_body(tool(), body(x[0], x[1], x[2], x[3], x[4]));
    if (std::holds_alternative<catalog::ToolError>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double theta_sa = out.number("theta_sa_c_per_w");
    ASSERT_GE(theta_sa, 0.1);
    // Round trip: with exactly this heatsink the junction reaches its limit.
    ASSERT_NEAR(x[1] + x[2] * (x[3] + x[4] + theta_sa), x[0], 1e-9 * (1 + std::fabs(x[0])));
    // Temperatures fall from junction to case to heatsink to ambient.
    ASSERT_LE(out.number("case_temp_c"), x[0] + 1e-9);
    ASSERT_LE(out.number("heatsink_temp_c"), out.number("case_temp_c") + 1e-9);
    ASSERT_GE(out.number("heatsink_temp_c"), x[1] - 1e-9);
  }
  EXPECT_GT(computed, 500);
}

}  // namespace
}  // namespace toolcalc::tools
