// Resistive voltage divider: output, currents, powers, loading and the nearest IEC 60063
// preferred values. Formula, E-series tables, references and worked examples:
// docs/tools/voltage-divider.md.
#include <algorithm>
#include <cmath>
#include <span>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/common/e_series.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

using e_series::series;

// Below 1 µV a resistive divider no longer sets its output: every solder joint is a
// thermocouple of about 5 µV/°C against copper (Agilent 34420A user's guide, "Thermal EMF
// errors"), and even copper-to-copper junctions give several microvolts across a few degrees
// (Keithley 2750 user's manual, "Thermoelectric generation").
constexpr double kMinOutputV = 1e-6;

// Power in dBm (decibels relative to 1 mW): the scale on which a dissipation from
// attowatts to kilowatts keeps its significant digits.
double dbm(double watts) {
  return 10 * std::log10(watts * 1e3);
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "voltage-divider";
  t.domain = "electronics";
  t.version = "2.0.0";
  t.name = "Voltage Divider";
  t.description =
      "Output voltage of a two-resistor divider, the current and power in each resistor, the "
      "output with a load attached, the divider's source resistance, and the nearest IEC 60063 "
      "E12/E24/E96 values for both resistors with the output they give.";
  // The divider is Ohm's law; IEC 60063 only supplies the preferred values (see the doc page).
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "vin_v",
                    .label = "Input voltage",
                    .unit = "V",
                    .help = "Voltage across the whole divider (top of R1 to ground). The output "
                            "must come to at least 1 µV, below which thermoelectric voltages "
                            "swamp any resistor ratio.",
                    .min = 0.001,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 12}),
      number_input({.key = "r1_ohm",
                    .label = "R1 (top resistor)",
                    .unit = "Ω",
                    .help = "Resistor from the input to the output node.",
                    .min = 100,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 27000}),
      number_input({.key = "r2_ohm",
                    .label = "R2 (bottom resistor)",
                    .unit = "Ω",
                    .help = "Resistor from the output node to ground.",
                    .min = 100,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "load_ohm",
                    .label = "Load resistance (optional)",
                    .unit = "Ω",
                    .help = "Resistance connected from the output to ground (an ADC input, a "
                            "meter, the next stage). 0 = no load (open output), not a short.",
                    .min = 0,
                    .max = 1e10,
                    .step = 1,
                    .default_value = 0,
                    .required = false}),
      choice_input({.key = "e_series",
                    .label = "Preferred-value series",
                    .help = "IEC 60063 series to round R1 and R2 to: E12 (10 % parts), E24 (5 %, "
                            "also stocked in 1 %) or E96 (1 %). Each resistor goes to the nearest "
                            "value on a logarithmic scale: the boundary between two neighbours is "
                            "their geometric mean (1095 Ω between 1.0 kΩ and 1.2 kΩ, not 1100 Ω).",
                    .options = {"E12", "E24", "E96"},
                    .default_value = "E24",
                    .required = false}),
  };
  // Small values: each coarse output names the one that keeps 3 significant digits where it
  // would not (docs/tools/voltage-divider.md, "Outputs").
  t.outputs = {
      number_output({.key = "vout_v",
                     .label = "Output voltage, unloaded",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "vout_uv"}),
      number_output({.key = "vout_uv",
                     .label = "Output voltage, unloaded, in µV (for outputs below 0.1 V)",
                     .unit = "µV",
                     .precision = 2}),
      number_output({.key = "loaded_vout_v",
                     .label = "Output voltage with the load",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "loaded_vout_uv"}),
      number_output({.key = "loaded_vout_uv",
                     .label = "Output voltage with the load, in µV (for outputs below 0.1 V)",
                     .unit = "µV",
                     .precision = 2}),
      number_output({.key = "load_error_pct",
                     .label = "Change caused by the load",
                     .unit = "%",
                     .precision = 3,
                     .small_values_in = "load_error_ppm"}),
      number_output({.key = "load_error_ppm",
                     .label = "Change caused by the load, in ppm (for changes below 0.1 %)",
                     .unit = "ppm",
                     .precision = 5}),
      number_output({.key = "input_current_ua",
                     .label = "Current drawn from the input",
                     .unit = "µA",
                     .precision = 3,
                     .small_values_in = "input_current_na"}),
      number_output({.key = "input_current_na",
                     .label = "Current drawn from the input, in nA (for currents below 0.1 µA)",
                     .unit = "nA",
                     .precision = 4}),
      number_output({.key = "r1_power_mw",
                     .label = "Power in R1",
                     .unit = "mW",
                     .precision = 3,
                     .small_values_in = "r1_power_dbm"}),
      number_output({.key = "r1_power_dbm",
                     .label = "Power in R1, in dBm (10·log10 of the power in mW)",
                     .unit = "dBm",
                     .precision = 2,
                     .small_values_in = "r1_power_mw"}),
      number_output({.key = "r2_power_mw",
                     .label = "Power in R2",
                     .unit = "mW",
                     .precision = 3,
                     .small_values_in = "r2_power_dbm"}),
      number_output({.key = "r2_power_dbm",
                     .label = "Power in R2, in dBm (10·log10 of the power in mW)",
                     .unit = "dBm",
                     .precision = 2,
                     .small_values_in = "r2_power_mw"}),
      number_output({.key = "source_resistance_ohm",
                     .label = "Source resistance R1 ∥ R2",
                     .unit = "Ω",
                     .precision = 1}),
      number_output({.key = "r1_e_ohm",
                     .label = "Nearest preferred value for R1 (log scale)",
                     .unit = "Ω",
                     .precision = 0}),
      number_output({.key = "r2_e_ohm",
                     .label = "Nearest preferred value for R2 (log scale)",
                     .unit = "Ω",
                     .precision = 0}),
      number_output({.key = "vout_e_v",
                     .label = "Unloaded output with the preferred values",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "vout_e_uv"}),
      number_output({.key = "vout_e_uv",
                     .label = "Unloaded output with the preferred values, in µV (below 0.1 V)",
                     .unit = "µV",
                     .precision = 3}),
      number_output({.key = "vout_e_error_pct",
                     .label = "Output change with the preferred values",
                     .unit = "%",
                     .precision = 3,
                     .small_values_in = "vout_e_error_ppm"}),
      number_output({.key = "vout_e_error_ppm",
                     .label = "Output change with the preferred values, in ppm (below 0.1 %)",
                     .unit = "ppm",
                     .precision = 7}),
  };
  t.references = {
      "P. Horowitz, W. Hill, \"The Art of Electronics\", 3rd ed., Cambridge University Press, "
      "2015, §1.2 (voltage dividers; the Thévenin equivalent circuit: a divider's output "
      "resistance is R1 ∥ R2)",
      "IEC 60063:2015, \"Preferred number series for resistors and capacitors\" (E12, E24 and "
      "E96 values)",
      "Yageo RC series thick-film chip resistor datasheet: resistance range 1 Ω – 10 MΩ (the "
      "upper bound of R1 and R2)",
      "Agilent Technologies, 34420A Nano Volt/Micro Ohm Meter user's guide, chapter 7, "
      "\"Thermal EMF errors\" (copper to tin-lead solder ≈ 5 µV/°C), and Keithley, Model 2750 "
      "user's manual, appendix E, \"Thermoelectric generation\": why outputs below 1 µV are "
      "refused",
  };
  t.examples = {
      {.title = "5 V to 3.3 V with 1 kΩ and 1.94 kΩ",
       .request_json = R"({"vin_v":5,"r1_ohm":1000,"r2_ohm":1940})",
       .expected_json = R"({"vout_v":3.3,"source_resistance_ohm":660})",
       .tolerance_pct = 0.1,
       .source = "3roam, \"5V to 3.3V Voltage Divider\" (3roam.com/5v-to-3-3v-voltage-divider/), "
                 "\"How to Pick Resistor Values\": R1 = 1 kΩ and R2 = 1.94 kΩ provide +3.3 V at "
                 "the output; the effective impedance is 660 Ω"},
      {.title = "12 V battery ladder: 390 kΩ over 120 kΩ",
       .request_json = R"({"vin_v":12,"r1_ohm":390000,"r2_ohm":120000})",
       .expected_json = R"({"vout_v":2.8235})",
       .tolerance_pct = 0.01,
       .source = "Electrodragon, \"voltage-divider-dat\" (w2.electrodragon.com/power-dat/"
                 "voltage-dat/voltage-divider-dat/voltage-divider-dat.md), \"common use\": "
                 "VIN = 12 V, R_up = 390K, R_down = 120K, Vout_mid = 2.8235 V"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double vin = in.number("vin_v");
  const double r1 = in.number("r1_ohm");
  const double r2 = in.number("r2_ohm");
  const double load = in.number("load_ohm");
  const double vout = vin * r2 / (r1 + r2);
  if (vout < kMinOutputV) {
    std::string msg = "the unloaded output would be ";
    append_fixed(msg, vout * 1e6, 6);
    msg +=
        " µV, below 1 µV, where the thermoelectric voltages of the joints (µV per °C) and not "
        "the resistor ratio set it; raise vin_v or make R2 larger relative to R1";
    return ToolError{"vin_v", std::move(msg)};
  }
  // The load sits in parallel with R2; 0 means no load at all.
  const double r2_loaded = load > 0 ? r2 * load / (r2 + load) : r2;
  const double vout_loaded = vin * r2_loaded / (r1 + r2_loaded);
  if (vout_loaded < kMinOutputV) {
    std::string msg = "load_ohm of ";
    append_shortest(msg, load);
    msg += " Ω pulls the output down to ";
    append_fixed(msg, vout_loaded * 1e6, 6);
    msg +=
        " µV, below 1 µV, where thermoelectric voltages and not the divider set it: the load "
        "shorts the output; use a larger load resistance or a buffer";
    return ToolError{"load_ohm", std::move(msg)};
  }
  // Voltage across R1 from the ratio, not as vin − vout: no cancellation when R1 ≪ R2.
  const double v_r1 = vin * r1 / (r1 + r2_loaded);
  const double source_resistance = r1 * r2 / (r1 + r2);
  // (loaded − vout)/vout = −Rs/(Rs + RL), exact even when the change is parts per billion.
  const double load_error = load > 0 ? -source_resistance / (source_resistance + load) : 0;
  const auto values = series(in.enumeration("e_series"));
  const double r1_e = e_series::nearest(r1, values);
  const double r2_e = e_series::nearest(r2, values);
  const double vout_e = vin * r2_e / (r1_e + r2_e);
  // (vout_e − vout)/vout = (r2e·r1 − r2·r1e)/(r2·(r1e + r2e)); fma keeps the difference exact.
  const double e_error = std::fma(r2_e, r1, -r2 * r1_e) / (r2 * (r1_e + r2_e));
  const double p_r1 = v_r1 * v_r1 / r1;
  const double p_r2 = vout_loaded * vout_loaded / r2;
  const double current = v_r1 / r1;
  Outputs out;
  out.set("vout_v", vout)
      .set("vout_uv", vout * 1e6)
      .set("loaded_vout_v", vout_loaded)
      .set("loaded_vout_uv", vout_loaded * 1e6)
      .set("load_error_pct", 100 * load_error)
      .set("load_error_ppm", 1e6 * load_error)
      .set("input_current_ua", current * 1e6)
      .set("input_current_na", current * 1e9)
      .set("r1_power_mw", p_r1 * 1e3)
      .set("r1_power_dbm", dbm(p_r1))
      .set("r2_power_mw", p_r2 * 1e3)
      .set("r2_power_dbm", dbm(p_r2))
      .set("source_resistance_ohm", source_resistance)
      .set("r1_e_ohm", r1_e)
      .set("r2_e_ohm", r2_e)
      .set("vout_e_v", vout_e)
      .set("vout_e_uv", vout_e * 1e6)
      .set("vout_e_error_pct", 100 * e_error)
      .set("vout_e_error_ppm", 1e6 * e_error);
  return out;
}

}  // namespace

Tool make_voltage_divider() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
