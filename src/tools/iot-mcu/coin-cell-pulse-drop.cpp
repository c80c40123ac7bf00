// Voltage of a coin cell during a current pulse from its internal resistance (V = Voc − I·R),
// fresh and at end of life, the largest pulse that stays above the device's brown-out
// voltage, and whether the brown-out is crossed. Formula, references and worked examples:
// docs/tools/coin-cell-pulse-drop.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Below 10 % of the open-circuit voltage the pulse asks for more than 90 % of the cell's
// short-circuit current Voc/R: far past its maximum-power point (Voc/2R), where the
// resistance model no longer describes a lithium coin cell. The tool reports such a pulse as
// a collapse to 0 V.
constexpr double kCollapseFraction = 0.1;
// Less headroom than this between the resting voltage and the brown-out threshold leaves no
// pulse worth computing: the cell is spent for this device.
constexpr double kMinHeadroomV = 0.1;
// A pulse that lands exactly on the threshold (to rounding) is taken as not crossing it.
constexpr double kThresholdSlackV = 1e-9;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "coin-cell-pulse-drop";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "Coin Cell Pulse Voltage Drop";
  t.description =
      "Voltage of a coin cell (e.g. CR2032) during a current pulse, V = Voc − I·R, with a fresh "
      "and an end-of-life internal resistance; the largest pulse that stays above the device's "
      "brown-out voltage, and whether the brown-out is crossed.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "open_circuit_voltage_v",
                    .label = "Open-circuit voltage Voc",
                    .unit = "V",
                    .help = "Resting voltage of the cell: about 3.0 V for a lithium CR2032 over "
                            "most of its life (3.2 V when new), 1.55 V for silver oxide.",
                    .min = 1,
                    .max = 4.2,
                    .step = 0.01,
                    .default_value = 3}),
      number_input({.key = "internal_resistance_ohm",
                    .label = "Internal resistance, fresh",
                    .unit = "Ω",
                    .help = "Internal resistance of a fresh cell at the operating temperature, "
                            "from the cell's datasheet: about 10–20 Ω for a CR2032 at room "
                            "temperature, several times more in the cold.",
                    .min = 1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 20}),
      number_input({.key = "end_of_life_resistance_ohm",
                    .label = "Internal resistance, end of life",
                    .unit = "Ω",
                    .help = "Internal resistance near the end of the usable capacity; it rises "
                            "as the cell discharges (CR2032: about 30 Ω after 170 of 240 mAh, "
                            "more beyond). At least the fresh value.",
                    .min = 1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 30}),
      number_input({.key = "pulse_current_ma",
                    .label = "Pulse current",
                    .unit = "mA",
                    .help = "Peak current of the pulse drawn from the cell (radio transmit, "
                            "sensor or LED), without a buffer capacitor.",
                    .min = 1,
                    .max = 500,
                    .step = 0.1,
                    .default_value = 15}),
      number_input({.key = "brownout_voltage_v",
                    .label = "Brown-out voltage",
                    .unit = "V",
                    .help = "Supply voltage below which the device resets (brown-out detector "
                            "or minimum operating voltage), e.g. 1.8 V.",
                    .min = 0.5,
                    .max = 4,
                    .step = 0.01,
                    .default_value = 1.8}),
  };
  t.outputs = {
      number_output({.key = "voltage_drop_mv",
                     .label = "Drop across the internal resistance, fresh",
                     .unit = "mV",
                     .precision = 2}),
      number_output({.key = "loaded_voltage_v",
                     .label = "Cell voltage during the pulse, fresh",
                     .unit = "V",
                     .precision = 3}),
      number_output({.key = "eol_voltage_drop_mv",
                     .label = "Drop across the internal resistance, end of life",
                     .unit = "mV",
                     .precision = 2}),
      number_output({.key = "eol_loaded_voltage_v",
                     .label = "Cell voltage during the pulse, end of life",
                     .unit = "V",
                     .precision = 3}),
      number_output({.key = "max_pulse_current_ma",
                     .label = "Largest pulse above the brown-out, fresh",
                     .unit = "mA",
                     .precision = 3}),
      number_output({.key = "eol_max_pulse_current_ma",
                     .label = "Largest pulse above the brown-out, end of life",
                     .unit = "mA",
                     .precision = 3}),
      text_output({.key = "status",
                   .label = "Brown-out check",
                   .options = {"ok", "brown-out at end of life", "brown-out"}}),
  };
  t.references = {
      "M. Jensen, Texas Instruments, SWRA349 \"Coin Cells and Peak Current Draw\", white "
      "paper, 2011: a coin cell modelled as a source with an internal resistance that rises as "
      "it discharges; a capacitor in parallel for the peaks",
      "K. Furset (Nordic Semiconductor), P. Hoffman (Energizer), \"High pulse drain impact on "
      "CR2032 coin cell battery capacity\", white paper: the internal resistance as the state "
      "variable of a CR2032 under pulsed radio loads",
      "Interactive Matter Lab, \"Driving Circuits from a CR2032 Lithium Coin Cell\", 2009 "
      "(interactive-matter.eu/blog/2009/08/29/driving-circuits-from-a-cr2032-lithium-coin-"
      "cell/), from a Duracell CR2032 datasheet: 3 V, 240 mAh to 2.0 V, internal resistance "
      "18–20 Ω up to 150 mAh and about 30 Ω at 170 mAh; I = ΔV/R",
  };
  t.examples = {
      {.title = "CR2032, 20 Ω, 5 mA radio pulse",
       .request_json = R"({"open_circuit_voltage_v":3,"internal_resistance_ohm":20,)"
                       R"("end_of_life_resistance_ohm":30,"pulse_current_ma":5,)"
                       R"("brownout_voltage_v":1.8})",
       .expected_json = R"({"voltage_drop_mv":100})",
       .tolerance_pct = 0,
       .source = "embedwise, \"Battery life calculator\" (embedwise.pages.dev/calculators/"
                 "battery-life), CR2032 limitations: \"At 5 mA peak TX current (e.g. nRF52 at "
                 "+4 dBm), the voltage sag is 5 mA × 20 Ω = 100 mV\""},
      {.title = "CR2032, 20 Ω, 40 mA LoRa transmit pulse",
       .request_json = R"({"open_circuit_voltage_v":3,"internal_resistance_ohm":20,)"
                       R"("end_of_life_resistance_ohm":30,"pulse_current_ma":40,)"
                       R"("brownout_voltage_v":1.8})",
       .expected_json = R"({"voltage_drop_mv":800})",
       .tolerance_pct = 0,
       .source = "embedwise, same page: \"At 40 mA (SX1276 LoRa TX at +14 dBm), the sag is "
                 "40 mA × 20 Ω = 800 mV, which can cause brownouts\""},
      {.title = "CR2032 at 3 V, 20 Ω, brown-out at 1.8 V: the largest pulse",
       .request_json = R"({"open_circuit_voltage_v":3,"internal_resistance_ohm":20,)"
                       R"("end_of_life_resistance_ohm":30,"pulse_current_ma":60,)"
                       R"("brownout_voltage_v":1.8})",
       .expected_json = R"({"loaded_voltage_v":1.8,"max_pulse_current_ma":60})",
       .tolerance_pct = 0,
       .source = "Interactive Matter Lab, \"Driving Circuits from a CR2032 Lithium Coin Cell\" "
                 "(interactive-matter.eu/blog/2009/08/29/driving-circuits-from-a-cr2032-"
                 "lithium-coin-cell/): no more than 1.2 V of drop, \"because after that your "
                 "circuit reaches 1.8 Volts\", with the ESR of 20 Ω gives \"something like 60 mA "
                 "(I = 1.2V/20Ohm)\""},
  };
  return t;
}

// The cell voltage during the pulse, or 0 where the model gives a collapse (see above).
double loaded_voltage(double voc, double drop) {
  const double v = voc - drop;
  return v < kCollapseFraction * voc ? 0 : v;
}

ComputeResult compute(const Inputs& in) {
  const double voc = in.number("open_circuit_voltage_v");
  const double r = in.number("internal_resistance_ohm");
  const double r_eol = in.number("end_of_life_resistance_ohm");
  const double i = in.number("pulse_current_ma") / 1000;
  const double vbo = in.number("brownout_voltage_v");
  if (r_eol < r) {
    return ToolError{"end_of_life_resistance_ohm",
                     "end_of_life_resistance_ohm (" + format_fixed(r_eol, 1) +
                         " Ω) is below the fresh internal_resistance_ohm (" + format_fixed(r, 1) +
                         " Ω); a coin cell's resistance rises as it discharges, so enter at "
                         "least the fresh value."};
  }
  if (voc - vbo < kMinHeadroomV) {
    return ToolError{"brownout_voltage_v",
                     "brownout_voltage_v (" + format_fixed(vbo, 3) +
                         " V) leaves less than 0.1 V below the open-circuit voltage (" +
                         format_fixed(voc, 3) +
                         " V): the device browns out with almost no load. Enter a brown-out "
                         "voltage at least 0.1 V below open_circuit_voltage_v."};
  }
  const double drop = i * r;
  const double drop_eol = i * r_eol;
  const double v = loaded_voltage(voc, drop);
  const double v_eol = loaded_voltage(voc, drop_eol);
  const double floor = vbo - kThresholdSlackV;
  const char* status = v < floor ? "brown-out" : v_eol < floor ? "brown-out at end of life" : "ok";
  Outputs out;
  out.set("voltage_drop_mv", drop * 1000)
      .set("loaded_voltage_v", v)
      .set("eol_voltage_drop_mv", drop_eol * 1000)
      .set("eol_loaded_voltage_v", v_eol)
      .set("max_pulse_current_ma", (voc - vbo) / r * 1000)
      .set("eol_max_pulse_current_ma", (voc - vbo) / r_eol * 1000)
      .set("status", status);
  return out;
}

}  // namespace

Tool make_coin_cell_pulse_drop() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
