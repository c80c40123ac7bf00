// battery-pack: descriptor, the published examples of docs/tools/battery-pack.md (expected values
// as their sources print them) and properties over random valid packs. The tool has no 422
// condition: every SxP combination of valid cells is a pack.
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
  static const catalog::Tool t = make_battery_pack();
  return t;
}

std::string body(double cell_v, double cell_mah, double c_rate, double s, double p) {
  return RequestBody()
      .number("cell_voltage_v", cell_v)
      .number("cell_capacity_mah", cell_mah)
      .number("max_c_rate", c_rate)
      .number("series_count", s)
      .number("parallel_count", p)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(BatteryPack, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "battery-pack");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"cell_voltage_v", InputType::Number, "V", 1, 5, 0.01, 3.6},
             {"cell_capacity_mah", InputType::Number, "mAh", 10, 500000, 1, 3000.0},
             {"max_c_rate", InputType::Number, "C", 0.1, 200, 0.1, 1.0},
             {"series_count", InputType::Integer, "cells", 1, 1000, 1, 4.0},
             {"parallel_count", InputType::Integer, "cells", 1, 1000, 1, 1.0},
         });
  tool_test::expect_outputs(d, {
                                   {"pack_voltage_v", OutputType::Number, "V", 2},
                                   {"pack_capacity_ah", OutputType::Number, "Ah", 3},
                                   {"pack_energy_wh", OutputType::Number, "Wh", 2},
                                   {"max_continuous_current_a", OutputType::Number, "A", 3},
                                   {"max_continuous_power_w", OutputType::Number, "W", 2},
                                   {"cell_count", OutputType::Number, "cells", 0},
                                   {"pack_capacity_mah", OutputType::Number, "mAh", 1},
                                   {"pack_energy_mwh", OutputType::Number, "mWh", 1},
                                   {"max_continuous_current_ma", OutputType::Number, "mA", 2},
                                   {"max_continuous_power_mw", OutputType::Number, "mW", 2},
                               });
}

// calculatorlib.com 18650 pack calculator, worked example: 10S4P of 3.7 V, 3000 mAh cells.
TEST(BatteryPack, TenSFourPWorkedExample) {
  const std::string r = run_tool(tool(), body(3.7, 3000, 1, 10, 4));
  EXPECT_NEAR(field(r, "pack_voltage_v"), 37, 0.005);
  EXPECT_NEAR(field(r, "pack_capacity_ah"), 12, 0.0005);
  EXPECT_NEAR(field(r, "pack_energy_wh"), 444, 0.005);
  EXPECT_EQ(result_field(r, "cell_count"), "40");
}

// drones4.life "LiPo C rates explained": 3S 2200 mAh 40C is 11.1 V and 88 A; two 1500 mAh 20C
// cells in parallel give 60 A.
TEST(BatteryPack, LipoCRateExamples) {
  const std::string three_s = run_tool(tool(), body(3.7, 2200, 40, 3, 1));
  EXPECT_NEAR(field(three_s, "pack_voltage_v"), 11.1, 0.005);
  EXPECT_NEAR(field(three_s, "max_continuous_current_a"), 88, 0.0005);
  const std::string two_p = run_tool(tool(), body(3.7, 1500, 20, 1, 2));
  EXPECT_NEAR(field(two_p, "pack_capacity_ah"), 3, 0.0005);
  EXPECT_NEAR(field(two_p, "max_continuous_current_a"), 60, 0.0005);
}

TEST(BatteryPack, CountsMustBeWholeNumbers) {
  EXPECT_EQ(run_tool(tool(), body(3.7, 3000, 1, 2.5, 1)),
            "400:series_count:series_count must be an integer, got 2.5");
  EXPECT_EQ(run_tool(tool(), body(3.7, 3000, 1, 1, 0)),
            "400:parallel_count:parallel_count must be at least 1");
}

TEST(BatteryPack, PropertiesOverRandomValidPacks) {
  std::mt19937 rng(302);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double v = tool_test::draw_number(d.inputs[0], rng);
    const double mah = tool_test::draw_number(d.inputs[1], rng);
    const double c = tool_test::draw_number(d.inputs[2], rng);
    const double s = std::round(tool_test::draw_number(d.inputs[3], rng));
    const double p = std::round(tool_test::draw_number(d.inputs[4], rng));
    const auto pack = std::get<catalog::Outputs>(compute_body(tool(), body(v, mah, c, s, p)));
    const auto cell = std::get<catalog::Outputs>(compute_body(tool(), body(v, mah, c, 1, 1)));
    // Energy depends only on the number of cells, not on how they are wired (BU-302).
    ASSERT_NEAR(pack.number("pack_energy_wh"), s * p * cell.number("pack_energy_wh"),
                pack.number("pack_energy_wh") * 1e-12);
    ASSERT_NEAR(pack.number("pack_voltage_v"), s * v, s * v * 1e-15);
    ASSERT_NEAR(pack.number("max_continuous_current_a"),
                p * cell.number("max_continuous_current_a"),
                pack.number("max_continuous_current_a") * 1e-12);
    ASSERT_NEAR(pack.number("max_continuous_power_w"),
                pack.number("pack_voltage_v") * pack.number("max_continuous_current_a"),
                pack.number("max_continuous_power_w") * 1e-12);
    ASSERT_EQ(pack.number("cell_count"), s * p);
  }
}

}  // namespace
}  // namespace toolcalc::tools
