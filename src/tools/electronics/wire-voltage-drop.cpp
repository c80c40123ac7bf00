// DC voltage drop in a two-wire copper or aluminium run sized by AWG or mm²: the conductor's
// resistance at its temperature, the loop resistance of the out-and-back run, the voltage
// drop, the voltage left at the load and the power lost in the wire. Formula, constants,
// references and verification vectors: docs/tools/wire-voltage-drop.md.
#include <cmath>
#include <numbers>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Resistivity at 20 °C and its temperature coefficient. Copper: the International Annealed
// Copper Standard, 1/58 Ω·mm²/m = 1.7241e-8 Ω·m, α20 = 0.00393 /K (IEC 60028:1925).
// Aluminium: hard-drawn conductor wire of 61 % IACS, 2.8264e-8 Ω·m, α20 = 0.00403 /K
// (IEC 60889:1987).
constexpr double kCopperRho20 = 1.7241e-8;
constexpr double kCopperAlpha20 = 0.00393;
constexpr double kAluminiumRho20 = 2.8264e-8;
constexpr double kAluminiumAlpha20 = 0.00403;

// ASTM B258: d(n) = 0.005 in × 92^((36 − n)/39) = 0.127 mm × 92^((36 − n)/39); 0 stands for
// 1/0, −1 for 2/0, −2 for 3/0 and −3 for 4/0.
double awg_diameter_mm(double n) {
  return 0.127 * std::pow(92.0, (36 - n) / 39);
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "wire-voltage-drop";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Wire Voltage Drop";
  t.description =
      "DC voltage drop over a two-wire copper or aluminium run given by AWG or mm²: the "
      "resistance per km at the conductor temperature, the out-and-back loop resistance, the "
      "voltage drop and its percentage of the supply, the voltage at the load and the power "
      "lost in the wire.";
  t.standard = "ASTM B258, IEC 60028";
  t.inputs = {
      choice_input({.key = "material",
                    .label = "Conductor",
                    .help = "copper: annealed copper (IACS, 1.7241e-8 Ω·m at 20 °C). "
                            "aluminium: hard-drawn 61 % IACS (2.8264e-8 Ω·m).",
                    .options = {"copper", "aluminium"},
                    .default_value = "copper"}),
      choice_input({.key = "size_system",
                    .label = "Size given as",
                    .help = "awg: the American Wire Gauge number below. mm2: the conductor's "
                            "cross-section in mm² below.",
                    .options = {"awg", "mm2"},
                    .default_value = "awg"}),
      integer_input({.key = "awg",
                     .label = "AWG gauge",
                     .unit = "",
                     .help = "Gauge number 40 (thin) to −3 (thick): enter 0 for 1/0, −1 for "
                             "2/0, −2 for 3/0 and −3 for 4/0. Used when size_system is awg.",
                     .min = -3,
                     .max = 40,
                     .step = 1,
                     .default_value = 14,
                     .required = false}),
      number_input({.key = "area_mm2",
                    .label = "Cross-section",
                    .unit = "mm²",
                    .help = "Conductor cross-section, e.g. 1.5, 2.5, 4, 6 mm² (IEC 60228 "
                            "sizes). Used when size_system is mm2.",
                    .min = 0.01,
                    .max = 500,
                    .step = 0.01,
                    .default_value = 2.5,
                    .required = false}),
      number_input({.key = "length_m",
                    .label = "One-way length",
                    .unit = "m",
                    .help = "Distance from the source to the load; the current flows out and "
                            "back, so the wire is twice as long. From 1 m: below that, "
                            "terminals and contacts dominate.",
                    .min = 1,
                    .max = 10000,
                    .step = 0.1,
                    .default_value = 10}),
      number_input({.key = "current_a",
                    .label = "Current",
                    .unit = "A",
                    .help = "Load current through the run.",
                    .min = 0.001,
                    .max = 1000,
                    .step = 0.001,
                    .default_value = 5}),
      number_input({.key = "supply_v",
                    .label = "Supply voltage",
                    .unit = "V",
                    .help = "Voltage at the source end, for the percentage drop and the voltage "
                            "left at the load.",
                    .min = 1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 12}),
      number_input({.key = "temperature_c",
                    .label = "Conductor temperature",
                    .unit = "°C",
                    .help = "Temperature of the conductor: 20 °C for tables, 60–90 °C for a "
                            "loaded cable at its insulation rating.",
                    .min = -40,
                    .max = 150,
                    .step = 1,
                    .default_value = 20,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "diameter_mm",
                     .label = "Conductor diameter (solid round)",
                     .unit = "mm",
                     .precision = 4}),
      number_output({.key = "area_mm2", .label = "Cross-section", .unit = "mm²", .precision = 5}),
      number_output({.key = "resistance_ohm_per_km",
                     .label = "Resistance per km of conductor at the temperature",
                     .unit = "Ω/km",
                     .precision = 4}),
      number_output({.key = "loop_resistance_ohm",
                     .label = "Loop resistance (out and back)",
                     .unit = "Ω",
                     .precision = 4,
                     .small_values_in = "loop_resistance_mohm"}),
      number_output({.key = "loop_resistance_mohm",
                     .label = "Loop resistance, in mΩ",
                     .unit = "mΩ",
                     .precision = 4}),
      number_output({.key = "voltage_drop_v",
                     .label = "Voltage drop",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "voltage_drop_uv"}),
      number_output(
          {.key = "voltage_drop_uv", .label = "Voltage drop, in µV", .unit = "µV", .precision = 4}),
      number_output({.key = "voltage_drop_pct",
                     .label = "Voltage drop as a share of the supply",
                     .unit = "%",
                     .precision = 3,
                     .small_values_in = "voltage_drop_uv"}),
      number_output({.key = "load_voltage_v",
                     .label = "Voltage at the load",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "load_voltage_uv"}),
      number_output({.key = "load_voltage_uv",
                     .label = "Voltage at the load, in µV",
                     .unit = "µV",
                     .precision = 4}),
      number_output({.key = "power_loss_w",
                     .label = "Power lost in the wire",
                     .unit = "W",
                     .precision = 4,
                     .small_values_in = "power_loss_nw"}),
      number_output({.key = "power_loss_nw",
                     .label = "Power lost in the wire, in nW",
                     .unit = "nW",
                     .precision = 4}),
  };
  t.references = {
      "ASTM B258, \"Standard Specification for Standard Nominal Diameters and Cross-Sectional "
      "Areas of AWG Sizes of Solid Round Wires Used as Electrical Conductors\": d = 0.005 in · "
      "92^((36 − n)/39)",
      "IEC 60028:1925, \"International standard of resistance for copper\": annealed copper at "
      "20 °C, 1/58 Ω·mm²/m = 0.017241 Ω·mm²/m, temperature coefficient 0.00393 /K",
      "IEC 60889:1987, \"Hard-drawn aluminium wire for overhead line conductors\": 0.028264 "
      "Ω·mm²/m at 20 °C (61 % IACS), temperature coefficient 0.00403 /K",
      "HyperPhysics (C. R. Nave, Georgia State University), \"Wire gauges\" "
      "(hyperphysics.phy-astr.gsu.edu/hbase/Tables/wirega.html), AWG table of resistance per "
      "1000 ft and per 1000 m at 20 °C, data from Floyd, \"Electric Circuit Fundamentals\"",
  };
  t.examples = {
      {.title = "24 AWG copper at 20 °C",
       .request_json = R"({"material":"copper","size_system":"awg","awg":24,"length_m":1000,)"
                       R"("current_a":0.01,"supply_v":12,"temperature_c":20})",
       .expected_json = R"({"resistance_ohm_per_km":84.2})",
       .tolerance_pct = 0.1,
       .source = "HyperPhysics, \"Wire gauges\" (hyperphysics.phy-astr.gsu.edu/hbase/Tables/"
                 "wirega.html), copper at 20 °C: 24 AWG, 25.67 Ω per 1000 ft, 84.2 Ω per "
                 "1000 m"},
      {.title = "10 AWG copper at 20 °C",
       .request_json = R"({"material":"copper","size_system":"awg","awg":10,"length_m":100,)"
                       R"("current_a":1,"supply_v":12,"temperature_c":20})",
       .expected_json = R"({"resistance_ohm_per_km":3.28})",
       .tolerance_pct = 0.2,
       .source = "HyperPhysics, \"Wire gauges\" (hyperphysics.phy-astr.gsu.edu/hbase/Tables/"
                 "wirega.html), copper at 20 °C: 10 AWG, 0.999 Ω per 1000 ft, 3.28 Ω per "
                 "1000 m"},
      {.title = "14 AWG, 10 m run, 5 A",
       .request_json = R"({"material":"copper","size_system":"awg","awg":14,"length_m":10,)"
                       R"("current_a":5,"supply_v":12,"temperature_c":20})",
       .expected_json = R"({"loop_resistance_ohm":0.1656,"voltage_drop_v":0.8278,)"
                        R"("power_loss_w":4.139})",
       .tolerance_pct = 0.1,
       .source = "AbraCalc, \"Voltage Drop Calculator\" (abracalc.com/calculator/voltage-drop/), "
                 "worked example AWG 14, 10 m, 5 A (ρ = 1.724e-8 Ω·m, 4110 cmil): R_total = "
                 "0.1656 Ω, V_drop = 0.8278 V, P = 4.139 W"},
      {.title = "12 AWG, 100 ft run, 20 A at 120 V",
       .request_json = R"({"material":"copper","size_system":"awg","awg":12,"length_m":30.48,)"
                       R"("current_a":20,"supply_v":120,"temperature_c":20})",
       .expected_json = R"({"voltage_drop_v":6.4,"voltage_drop_pct":5.3})",
       .tolerance_pct = 1,
       .source = "voltagedropcalculator.net, \"Examples\" (voltagedropcalculator.net/examples): "
                 "20 A load, 120 V, 100 ft run, 12 AWG copper, VD = 2 × 0.017241 × 20 × 30.48 "
                 "/ 3.31 = 6.4 V (5.3 %)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const bool copper = in.enumeration("material") == "copper";
  double diameter_mm = 0, area_mm2 = 0;
  if (in.enumeration("size_system") == "awg") {
    diameter_mm = awg_diameter_mm(in.number("awg"));
    area_mm2 = std::numbers::pi / 4 * diameter_mm * diameter_mm;
  } else {
    area_mm2 = in.number("area_mm2");
    diameter_mm = std::sqrt(4 * area_mm2 / std::numbers::pi);
  }
  const double rho20 = copper ? kCopperRho20 : kAluminiumRho20;
  const double alpha = copper ? kCopperAlpha20 : kAluminiumAlpha20;
  const double rho = rho20 * (1 + alpha * (in.number("temperature_c") - 20));
  const double ohm_per_m = rho / (area_mm2 * 1e-6);
  const double loop = 2 * in.number("length_m") * ohm_per_m;
  const double current = in.number("current_a");
  const double supply = in.number("supply_v");
  const double drop = current * loop;
  if (drop >= supply) {
    std::string msg = "the wire would drop ";
    append_fixed(msg, drop, 2);
    msg += " V, the whole supply of ";
    append_shortest(msg, supply);
    msg +=
        " V or more, so the load could not draw this current; use a thicker conductor, a "
        "shorter run or a higher supply voltage";
    return ToolError{"current_a", std::move(msg)};
  }
  Outputs out;
  out.set("diameter_mm", diameter_mm)
      .set("area_mm2", area_mm2)
      .set("resistance_ohm_per_km", ohm_per_m * 1000)
      .set("loop_resistance_ohm", loop)
      .set("loop_resistance_mohm", loop * 1e3)
      .set("voltage_drop_v", drop)
      .set("voltage_drop_uv", drop * 1e6)
      .set("voltage_drop_pct", 100 * drop / supply)
      .set("load_voltage_v", supply - drop)
      .set("load_voltage_uv", (supply - drop) * 1e6)
      .set("power_loss_w", current * current * loop)
      .set("power_loss_nw", current * current * loop * 1e9);
  return out;
}

}  // namespace

Tool make_wire_voltage_drop() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
