// Daily energy budget of a small solar-powered device: the energy a PV panel harvests from
// its rating (or area and cell efficiency), the peak sun hours and the system efficiency,
// against the device's daily consumption; the panel needed to break even and the days the
// battery carries the load without sun. Formula, references and worked examples:
// docs/tools/solar-harvesting-budget.md.
#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Standard test conditions (IEC 61215 / IEC 60904-3): the panel's rating is its output at
// 1000 W/m², which is also the irradiance that defines a peak sun hour.
constexpr double kStcIrradianceWPerM2 = 1000;
constexpr double kHoursPerDay = 24;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "solar-harvesting-budget";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "Solar Harvesting Budget";
  t.description =
      "Daily energy a small PV panel harvests (rated power or area × cell efficiency, peak sun "
      "hours, system efficiency) against a device's daily consumption: surplus or deficit, "
      "the panel needed to break even, and the battery's autonomy without sun.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "panel_rating",
                    .label = "Panel given by",
                    .help = "rated-power: the panel's rated (STC) power in watts. area-"
                            "efficiency: its active area and cell efficiency, for a bare cell.",
                    .options = {"rated-power", "area-efficiency"},
                    .default_value = "rated-power",
                    .required = false}),
      number_input({.key = "panel_power_w",
                    .label = "Panel rated power",
                    .unit = "W",
                    .help = "Rated power at standard test conditions (1000 W/m², 25 °C), from "
                            "the label: 0.005 W to 500 W. Used with rated-power.",
                    .min = 0.005,
                    .max = 500,
                    .step = 0.001,
                    .default_value = 1,
                    .required = false}),
      number_input({.key = "panel_area_cm2",
                    .label = "Panel active area",
                    .unit = "cm²",
                    .help = "Active (cell) area in square centimetres, 1 to 20000. Used with "
                            "area-efficiency.",
                    .min = 1,
                    .max = 20000,
                    .step = 0.1,
                    .default_value = 50,
                    .required = false}),
      number_input({.key = "cell_efficiency_pct",
                    .label = "Cell efficiency",
                    .unit = "%",
                    .help = "Conversion efficiency of the cells at STC: about 15–23 % for "
                            "crystalline silicon, 5–10 % for amorphous. Used with "
                            "area-efficiency.",
                    .min = 5,
                    .max = 50,
                    .step = 0.1,
                    .default_value = 18,
                    .required = false}),
      number_input({.key = "peak_sun_hours",
                    .label = "Peak sun hours",
                    .unit = "h/day",
                    .help = "Daily insolation on the panel in kWh/m²/day, i.e. hours at "
                            "1000 W/m² (NREL PVWatts or NSRDB for the site); use the worst "
                            "month, e.g. 1–3 h in a northern winter, 4–6 h in summer.",
                    .min = 0.5,
                    .max = 10,
                    .step = 0.1,
                    .default_value = 4}),
      number_input({.key = "system_efficiency_pct",
                    .label = "System efficiency",
                    .unit = "%",
                    .help = "Share of the panel's rated energy that reaches the battery after "
                            "temperature, soiling, wiring, charger and battery losses: about "
                            "70 %.",
                    .min = 10,
                    .max = 100,
                    .step = 1,
                    .default_value = 70,
                    .required = false}),
      number_input({.key = "load_current_ma",
                    .label = "Device average current",
                    .unit = "mA",
                    .help = "Average current the device draws from the battery over a day, "
                            "sleep and active phases together: 0.005 to 500 mA.",
                    .min = 0.005,
                    .max = 500,
                    .step = 0.001,
                    .default_value = 1}),
      number_input({.key = "battery_voltage_v",
                    .label = "Battery voltage",
                    .unit = "V",
                    .help = "Nominal battery voltage the current is drawn at: 3.7 V for Li-ion, "
                            "3.2 V for LiFePO4, 1.2 V per NiMH cell.",
                    .min = 1,
                    .max = 48,
                    .step = 0.1,
                    .default_value = 3.7,
                    .required = false}),
      number_input({.key = "battery_capacity_mah",
                    .label = "Battery capacity",
                    .unit = "mAh",
                    .help = "Rated capacity of the battery, 100 mAh to 1000000 mAh.",
                    .min = 100,
                    .max = 1000000,
                    .step = 1,
                    .default_value = 2000,
                    .required = false}),
      number_input({.key = "battery_usable_pct",
                    .label = "Usable battery capacity",
                    .unit = "%",
                    .help = "Share of the capacity you let the load use: 80 % for Li-ion, 90 % "
                            "for LiFePO4, 50 % for lead-acid.",
                    .min = 50,
                    .max = 100,
                    .step = 1,
                    .default_value = 80,
                    .required = false}),
  };
  t.outputs = {
      number_output(
          {.key = "panel_power_mw", .label = "Panel rated power", .unit = "mW", .precision = 3}),
      number_output({.key = "harvest_mwh_per_day",
                     .label = "Energy harvested per day",
                     .unit = "mWh/day",
                     .precision = 3}),
      number_output({.key = "load_mwh_per_day",
                     .label = "Energy consumed per day",
                     .unit = "mWh/day",
                     .precision = 3}),
      text_output(
          {.key = "energy_status", .label = "Daily balance", .options = {"surplus", "deficit"}}),
      number_output({.key = "required_panel_mw",
                     .label = "Panel rating needed to break even",
                     .unit = "mW",
                     .precision = 4}),
      number_output({.key = "autonomy_days",
                     .label = "Battery autonomy without sun",
                     .unit = "days",
                     .precision = 3,
                     .small_values_in = "autonomy_hours"}),
      number_output({.key = "autonomy_hours",
                     .label = "Battery autonomy without sun, in hours",
                     .unit = "h",
                     .precision = 3}),
  };
  t.references = {
      "A. P. Dobos, \"PVWatts Version 5 Manual\", NREL/TP-6A20-62641, National Renewable "
      "Energy Laboratory, 2014: DC output proportional to plane-of-array irradiance over the "
      "1000 W/m² reference, default system losses 14 %",
      "MeshAmerica wiki, \"Sizing Your Solar System\" (wiki.meshamerica.com/books/solar-power-"
      "systems/page/sizing-your-solar-system): daily energy = average current × 24 h × system "
      "voltage; panel (W) = daily energy ÷ (PSH × efficiency factor 0.70); battery (Wh) = daily "
      "energy × reserve days ÷ usable fraction",
      "M. Byamukama et al., \"New Techniques for Sizing Solar Photovoltaic Panels for "
      "Environment Monitoring Sensor Nodes\", Journal of Sensors, vol. 2019, Article ID "
      "9835138, doi:10.1155/2019/9835138: the traditional sizing by panel rating × hours of "
      "radiation against load wattage × hours of use, and why it needs an error factor",
  };
  t.examples = {
      {.title = "LoRa repeater: 25 mA at 3.7 V, North Dakota December (2.5 PSH), 70 %",
       .request_json = R"({"panel_rating":"rated-power","panel_power_w":6,"peak_sun_hours":2.5,)"
                       R"("system_efficiency_pct":70,"load_current_ma":25,)"
                       R"("battery_voltage_v":3.7})",
       .expected_json = R"({"load_mwh_per_day":2220,"required_panel_mw":1270,)"
                        R"("energy_status":"surplus"})",
       .tolerance_pct = 0.2,
       .source = "MeshAmerica wiki, \"Sizing Your Solar System\", steps 1–3 (revision read at "
                 "wiki.meshamerica.com/books/solar-power-systems/page/sizing-your-solar-system): "
                 "25 mA average at 3.7 V = 2.22 Wh/day; panel = 2.22 Wh ÷ (2.5 h × 0.70) = "
                 "1.27 W minimum; \"a 6W panel provides 4.7× the minimum required\""},
      {.title = "Battery reserve: 8.33 Wh Li-ion (2251 mAh at 3.7 V), 80 % usable",
       .request_json = R"({"peak_sun_hours":2.5,"load_current_ma":25,"battery_voltage_v":3.7,)"
                       R"("battery_capacity_mah":2251,"battery_usable_pct":80})",
       .expected_json = R"({"autonomy_days":3})",
       .tolerance_pct = 0.2,
       .source = "MeshAmerica wiki, \"Sizing Your Solar System\", step 4: \"Battery = 2.22 × 3 ÷ "
                 "0.80 = 8.33 Wh minimum\" for a 3-day reserve with Li-ion (usable fraction "
                 "0.80); 8.33 Wh ÷ 3.7 V = 2251 mAh"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double panel_w = in.enumeration("panel_rating") == "area-efficiency"
                             ? in.number("panel_area_cm2") * 1e-4 * kStcIrradianceWPerM2 *
                                   in.number("cell_efficiency_pct") / 100
                             : in.number("panel_power_w");
  const double psh = in.number("peak_sun_hours");
  const double efficiency = in.number("system_efficiency_pct") / 100;
  const double load_ma = in.number("load_current_ma");
  const double battery_v = in.number("battery_voltage_v");

  const double harvest_mwh = panel_w * 1000 * psh * efficiency;
  const double load_mwh = load_ma * battery_v * kHoursPerDay;
  // The battery and the load share battery_v, so the reserve in hours is usable mAh / mA.
  const double autonomy_h =
      in.number("battery_capacity_mah") * in.number("battery_usable_pct") / 100 / load_ma;
  Outputs out;
  out.set("panel_power_mw", panel_w * 1000)
      .set("harvest_mwh_per_day", harvest_mwh)
      .set("load_mwh_per_day", load_mwh)
      .set("energy_status", harvest_mwh >= load_mwh ? "surplus" : "deficit")
      .set("required_panel_mw", load_mwh / (psh * efficiency))
      .set("autonomy_days", autonomy_h / kHoursPerDay)
      .set("autonomy_hours", autonomy_h);
  return out;
}

}  // namespace

Tool make_solar_harvesting_budget() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
