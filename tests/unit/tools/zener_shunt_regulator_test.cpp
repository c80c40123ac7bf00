// zener-shunt-regulator: descriptor, the textbook examples of docs/tools/zener-shunt-regulator.md
// (expected values as the books print them), every 422 case and properties over random valid
// inputs.
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
  static const catalog::Tool t = make_zener_shunt_regulator();
  return t;
}

std::string body(double vin_min, double vin_max, double vz, double il_min, double il_max,
                 double iz_min) {
  return RequestBody()
      .number("vin_min_v", vin_min)
      .number("vin_max_v", vin_max)
      .number("zener_voltage_v", vz)
      .number("load_current_min_ma", il_min)
      .number("load_current_max_ma", il_max)
      .number("zener_min_current_ma", iz_min)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(ZenerShuntRegulator, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "zener-shunt-regulator");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"vin_min_v", InputType::Number, "V", 1, 400, 0.1, 12.0},
             {"vin_max_v", InputType::Number, "V", 1, 400, 0.1, 15.0},
             {"zener_voltage_v", InputType::Number, "V", 1, 200, 0.1, 5.1},
             {"load_current_min_ma", InputType::Number, "mA", 0, 2000, 0.1, 0.0},
             {"load_current_max_ma", InputType::Number, "mA", 0, 2000, 0.1, 20.0},
             {"zener_min_current_ma", InputType::Number, "mA", 0.1, 1000, 0.1, 5.0},
         });
  tool_test::expect_outputs(d, {
                                   {"series_resistor_ohm", OutputType::Number, "Ω", 2},
                                   {"zener_current_max_ma", OutputType::Number, "mA", 3},
                                   {"zener_power_mw", OutputType::Number, "mW", 3},
                                   {"resistor_power_mw", OutputType::Number, "mW", 3},
                                   {"input_current_max_ma", OutputType::Number, "mA", 3},
                                   {"resistor_power_uw", OutputType::Number, "µW", 1},
                               });
}

// Sedha, Applied Electronics, Example 20.10: R_S(max) = 30 Ω, P_Z(max) = 1.9 W.
TEST(ZenerShuntRegulator, SedhaExample20_10) {
  const std::string r = run_tool(tool(), body(13, 16, 10, 10, 85, 15));
  EXPECT_NEAR(field(r, "series_resistor_ohm"), 30, 0.005);
  EXPECT_NEAR(field(r, "zener_current_max_ma"), 190, 0.0005);
  EXPECT_NEAR(field(r, "zener_power_mw"), 1900, 0.0005);
}

// Kumar & Jain, Electronic Devices and Circuits, Example 3.16: 116.36 Ω, 110 mA with no load.
TEST(ZenerShuntRegulator, KumarJainExample3_16) {
  const std::string r = run_tool(tool(), body(20, 20, 7.2, 0, 100, 10));
  EXPECT_NEAR(field(r, "series_resistor_ohm"), 116.36, 0.005);
  EXPECT_NEAR(field(r, "zener_current_max_ma"), 110, 0.0005);
}

TEST(ZenerShuntRegulator, InputTooCloseToTheZenerIs422) {
  EXPECT_EQ(run_tool(tool(), body(5.15, 6, 5.1, 0, 20, 5)),
            "422:vin_min_v:vin_min_v of 5.15 V leaves 0.050 V over the Zener voltage, less than "
            "the 0.1 V a series resistor needs to set the current: the Zener drops out of "
            "regulation at the lowest input; raise vin_min_v or choose a lower zener_voltage_v");
  EXPECT_EQ(run_tool(tool(), body(5, 6, 5.1, 0, 20, 5)).rfind("422:vin_min_v:", 0), 0u);
}

TEST(ZenerShuntRegulator, ReversedRangesAre422) {
  EXPECT_EQ(run_tool(tool(), body(15, 12, 5.1, 0, 20, 5)),
            "422:vin_max_v:vin_max_v of 12 V is below vin_min_v of 15 V; enter the input range "
            "lowest first");
  EXPECT_EQ(run_tool(tool(), body(12, 15, 5.1, 30, 20, 5)),
            "422:load_current_min_ma:load_current_min_ma of 30 mA is above load_current_max_ma "
            "of 20 mA; enter the load range lowest first");
}

TEST(ZenerShuntRegulator, ResistorBelowOneOhmIs422) {
  EXPECT_EQ(run_tool(tool(), body(6, 6, 5.1, 0, 2000, 10)),
            "422:load_current_max_ma:the series resistor would be 0.448 Ω, below 1 Ω: the load "
            "and Zener currents are too large for a shunt regulator at this headroom; use a "
            "series (transistor or IC) regulator, or raise vin_min_v");
}

TEST(ZenerShuntRegulator, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(2010);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 6000; ++draw) {
    double x[6];
    for (int i = 0; i < 6; ++i) x[i] = tool_test::draw_number(d.inputs[i], rng);
    const auto result = compute_body(tool(), body(x[0], x[1], x[2], x[3], x[4], x[5]));
    if (std::holds_alternative<catalog::ToolError>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double r = out.number("series_resistor_ohm");
    const double iz_max = out.number("zener_current_max_ma") / 1e3;
    // At the lowest input and the highest load the Zener keeps exactly its minimum current.
    ASSERT_NEAR((x[0] - x[2]) / r - x[4] / 1e3, x[5] / 1e3, 1e-12 + x[5] / 1e3 * 1e-9);
    // The worst case is never below the minimum, and the currents add up at the highest input.
    ASSERT_GE(iz_max, x[5] / 1e3 * (1 - 1e-9));
    ASSERT_NEAR(out.number("input_current_max_ma") / 1e3, iz_max + x[3] / 1e3, 1e-9);
    ASSERT_NEAR(out.number("zener_power_mw"), x[2] * out.number("zener_current_max_ma"),
                1e-9 * (1 + out.number("zener_power_mw")));
    ASSERT_GE(r, 1);
  }
  EXPECT_GT(computed, 300);
}

}  // namespace
}  // namespace toolcalc::tools
