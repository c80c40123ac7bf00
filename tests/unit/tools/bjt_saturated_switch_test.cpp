// bjt-saturated-switch: descriptor, the published examples of docs/tools/bjt-saturated-switch.md
// (expected values as their sources print them), every 422 case and properties over random
// valid inputs.
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
  static const catalog::Tool t = make_bjt_saturated_switch();
  return t;
}

std::string body(double ic_ma, double vdrive, double vbe, double vce, double hfe, double beta) {
  return RequestBody()
      .number("collector_current_ma", ic_ma)
      .number("drive_voltage_v", vdrive)
      .number("vbe_sat_v", vbe)
      .number("vce_sat_v", vce)
      .number("hfe_min", hfe)
      .number("forced_beta", beta)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(BjtSaturatedSwitch, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "bjt-saturated-switch");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d,
                           {
                               {"collector_current_ma", InputType::Number, "mA", 1, 5000, 1, 100.0},
                               {"drive_voltage_v", InputType::Number, "V", 0.6, 50, 0.1, 5.0},
                               {"vbe_sat_v", InputType::Number, "V", 0.5, 2, 0.01, 0.7},
                               {"vce_sat_v", InputType::Number, "V", 0, 2, 0.01, 0.2},
                               {"hfe_min", InputType::Number, "", 5, 1000, 1, 100.0},
                               {"forced_beta", InputType::Number, "", 5, 1000, 1, 10.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"base_current_ma", OutputType::Number, "mA", 3},
                                   {"base_resistor_ohm", OutputType::Number, "Ω", 2},
                                   {"overdrive_factor", OutputType::Number, "", 2},
                                   {"resistor_power_mw", OutputType::Number, "mW", 3},
                                   {"transistor_power_mw", OutputType::Number, "mW", 3},
                                   {"base_current_ua", OutputType::Number, "µA", 2},
                                   {"resistor_power_uw", OutputType::Number, "µW", 3},
                                   {"transistor_power_uw", OutputType::Number, "µW", 3},
                               });
}

// Floyd, Electronic Devices, 7th ed., Example 4-9: I_B(min) = 50 µA, R_B(max) = 86 kΩ.
TEST(BjtSaturatedSwitch, FloydExample4_9) {
  const std::string r = run_tool(tool(), body(10, 5, 0.7, 0, 200, 200));
  EXPECT_NEAR(field(r, "base_current_ma"), 0.050, 0.0005);
  EXPECT_NEAR(field(r, "base_resistor_ohm"), 86000, 0.005);
  EXPECT_EQ(result_field(r, "overdrive_factor"), "1.00");
}

// EE Stack Exchange answer: 133 mA relay coil, h_FE 30, V_BE(sat) 0.95 V → 4.43 mA, 913 Ω.
TEST(BjtSaturatedSwitch, RelayDriverAnswer) {
  const std::string r = run_tool(tool(), body(133, 5, 0.95, 0.2, 30, 30));
  EXPECT_NEAR(field(r, "base_current_ma"), 4.43, 4.43 * 0.002 + 0.0005);
  EXPECT_NEAR(field(r, "base_resistor_ohm"), 913, 913 * 0.002 + 0.005);
}

TEST(BjtSaturatedSwitch, ForcedBetaAboveMinimumGainIs422) {
  EXPECT_EQ(run_tool(tool(), body(100, 5, 0.7, 0.2, 50, 60)),
            "422:forced_beta:forced_beta of 60 is above hfe_min of 50: a transistor with the "
            "minimum gain would need less base current than that and stay in its active region, "
            "not saturate; lower forced_beta to at most hfe_min (10 is the usual choice)");
}

TEST(BjtSaturatedSwitch, DriveTooCloseToVbeIs422) {
  EXPECT_EQ(run_tool(tool(), body(100, 0.75, 0.7, 0.2, 100, 10)),
            "422:drive_voltage_v:drive_voltage_v of 0.75 V leaves 0.050 V over V_BE(sat), less "
            "than the 0.1 V a base resistor needs to set the base current; raise drive_voltage_v "
            "(or add a driver stage)");
}

TEST(BjtSaturatedSwitch, ResistorBelowOneOhmIs422) {
  // 5 A at a forced β of 5 is 1 A of base current through 0.5 V.
  EXPECT_EQ(run_tool(tool(), body(5000, 1.5, 1, 0.3, 20, 5)),
            "422:drive_voltage_v:the base resistor would be 0.500 Ω, below 1 Ω: the drive "
            "voltage leaves too little headroom for this base current; raise drive_voltage_v, "
            "raise forced_beta towards hfe_min, or use a Darlington or a MOSFET");
}

TEST(BjtSaturatedSwitch, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(3904);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    double x[6];
    for (int i = 0; i < 6; ++i) x[i] = tool_test::draw_number(d.inputs[i], rng);
    const auto result = compute_body(tool(), body(x[0], x[1], x[2], x[3], x[4], x[5]));
    if (x[5] > x[4]) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      EXPECT_EQ(std::get<catalog::ToolError>(result).field, "forced_beta");
      continue;
    }
    if (std::holds_alternative<catalog::ToolError>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double ib = out.number("base_current_ma") / 1e3;
    const double r = out.number("base_resistor_ohm");
    // Ohm's law round trip, and the base drive covers the weakest transistor.
    ASSERT_NEAR((x[1] - x[2]) / r, ib, ib * 1e-12);
    ASSERT_GE(ib * x[4], x[0] / 1e3 * (1 - 1e-12));
    ASSERT_GE(out.number("overdrive_factor"), 1);
    ASSERT_NEAR(out.number("resistor_power_mw") / 1e3, ib * ib * r, ib * ib * r * 1e-9);
  }
  EXPECT_GT(computed, 300);
}

}  // namespace
}  // namespace toolcalc::tools
