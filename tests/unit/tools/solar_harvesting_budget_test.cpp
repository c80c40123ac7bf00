// solar-harvesting-budget: descriptor, the worked sizing example of
// docs/tools/solar-harvesting-budget.md (MeshAmerica wiki), the two ways of rating a panel,
// and properties over random valid inputs. The tool has no 422 condition.
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
  static const catalog::Tool t = make_solar_harvesting_budget();
  return t;
}

RequestBody rated(double panel_w, double psh, double efficiency_pct, double load_ma,
                  double battery_v) {
  RequestBody b;
  b.text("panel_rating", "rated-power")
      .number("panel_power_w", panel_w)
      .number("peak_sun_hours", psh)
      .number("system_efficiency_pct", efficiency_pct)
      .number("load_current_ma", load_ma)
      .number("battery_voltage_v", battery_v);
  return b;
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(SolarHarvestingBudget, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "solar-harvesting-budget");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "panel_rating",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("rated-power"),
              .required = false,
              .options = {"rated-power", "area-efficiency"}},
             {"panel_power_w", InputType::Number, "W", 0.005, 500, 0.001, 1.0, false},
             {"panel_area_cm2", InputType::Number, "cm²", 1, 20000, 0.1, 50.0, false},
             {"cell_efficiency_pct", InputType::Number, "%", 5, 50, 0.1, 18.0, false},
             {"peak_sun_hours", InputType::Number, "h/day", 0.5, 10, 0.1, 4.0},
             {"system_efficiency_pct", InputType::Number, "%", 10, 100, 1, 70.0, false},
             {"load_current_ma", InputType::Number, "mA", 0.005, 500, 0.001, 1.0},
             {"battery_voltage_v", InputType::Number, "V", 1, 48, 0.1, 3.7, false},
             {"battery_capacity_mah", InputType::Number, "mAh", 100, 1000000, 1, 2000.0, false},
             {"battery_usable_pct", InputType::Number, "%", 50, 100, 1, 80.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {"panel_power_mw", OutputType::Number, "mW", 3},
                                   {"harvest_mwh_per_day", OutputType::Number, "mWh/day", 3},
                                   {"load_mwh_per_day", OutputType::Number, "mWh/day", 3},
                                   {.key = "energy_status",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"surplus", "deficit"}},
                                   {"required_panel_mw", OutputType::Number, "mW", 4},
                                   {"autonomy_days", OutputType::Number, "days", 3},
                                   {"autonomy_hours", OutputType::Number, "h", 3},
                               });
  EXPECT_EQ(d.outputs[5].small_values_in, "autonomy_hours");
}

TEST(SolarHarvestingBudget, MeshAmericaRepeaterExample) {
  // 25 mA at 3.7 V = 2.22 Wh/day; panel = 2.22 Wh ÷ (2.5 h × 0.70) = 1.27 W minimum; a 6 W
  // panel "provides 4.7× the minimum required".
  const std::string r = run_tool(tool(), rated(6, 2.5, 70, 25, 3.7).json());
  EXPECT_EQ(result_field(r, "load_mwh_per_day"), "2220.000");
  EXPECT_NEAR(field(r, "required_panel_mw"), 1270, 1270 * 0.002);
  EXPECT_EQ(result_field(r, "energy_status"), "surplus");
  EXPECT_NEAR(field(r, "harvest_mwh_per_day") / field(r, "load_mwh_per_day"), 4.7, 0.05);
  // Battery = 2.22 × 3 ÷ 0.80 = 8.33 Wh for a 3-day reserve: 8.33 Wh / 3.7 V = 2251 mAh.
  RequestBody battery = rated(6, 2.5, 70, 25, 3.7);
  battery.number("battery_capacity_mah", 2251).number("battery_usable_pct", 80);
  EXPECT_NEAR(field(run_tool(tool(), battery.json()), "autonomy_days"), 3, 3 * 0.002);
}

TEST(SolarHarvestingBudget, PanelFromAreaAndEfficiency) {
  // 50 cm² of 18 % cells is 0.9 W at 1000 W/m²; 4 h at 70 % gives 2520 mWh/day.
  RequestBody b;
  b.text("panel_rating", "area-efficiency")
      .number("panel_area_cm2", 50)
      .number("cell_efficiency_pct", 18)
      .number("peak_sun_hours", 4)
      .number("load_current_ma", 1)
      .number("battery_voltage_v", 3.7)
      .number("battery_capacity_mah", 2000)
      .number("battery_usable_pct", 80);
  EXPECT_EQ(run_tool(tool(), b.json()),
            expected_result(tool(), {"900.000", "2520.000", "88.800", "surplus", "31.7143",
                                     "66.667", "1600.000"}));
  // The rated-power input is ignored when the panel is given by its area, and vice versa.
  b.number("panel_power_w", 100);
  EXPECT_EQ(result_field(run_tool(tool(), b.json()), "panel_power_mw"), "900.000");
}

TEST(SolarHarvestingBudget, DeficitWhenTheLoadOutgrowsThePanel) {
  // 0.1 W, 2 h, 70 % = 140 mWh/day against 5 mA × 3.7 V × 24 h = 444 mWh/day.
  const std::string r = run_tool(tool(), rated(0.1, 2, 70, 5, 3.7).json());
  EXPECT_EQ(result_field(r, "harvest_mwh_per_day"), "140.000");
  EXPECT_EQ(result_field(r, "load_mwh_per_day"), "444.000");
  EXPECT_EQ(result_field(r, "energy_status"), "deficit");
}

TEST(SolarHarvestingBudget, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(62641);
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << b;  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    const double harvest = out.number("harvest_mwh_per_day");
    const double load = out.number("load_mwh_per_day");
    const double required = out.number("required_panel_mw");
    const double panel = out.number("panel_power_mw");
    // Round trip: a panel of exactly the required rating harvests exactly the load.
    ASSERT_NEAR(harvest / panel * required, load, 1e-9 * load);
    ASSERT_EQ(out.text("energy_status") == "surplus", panel >= required * (1 - 1e-12)) << b;
    ASSERT_NEAR(out.number("autonomy_hours"), 24 * out.number("autonomy_days"),
                1e-12 * out.number("autonomy_hours"));
  }
}

}  // namespace
}  // namespace toolcalc::tools
