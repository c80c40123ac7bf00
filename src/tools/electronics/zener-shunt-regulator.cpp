// Zener shunt regulator: the series resistor that keeps the Zener in regulation over an input
// voltage range and a load current range, and the worst-case Zener current and powers.
// Formula, bounds, references and worked examples: docs/tools/zener-shunt-regulator.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Below 0.1 V across the series resistor at the lowest input, the current is set by the
// Zener's own voltage tolerance (±2–5 % of V_Z) rather than by the resistor.
constexpr double kMinHeadroomV = 0.1;
// Standard resistor ranges start at 1 Ω (thick-film chip series 1 Ω – 10 MΩ); below it the
// wiring and the source resistance set the current.
constexpr double kMinResistanceOhm = 1;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "zener-shunt-regulator";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Zener Shunt Regulator";
  t.description =
      "Series resistor of a Zener shunt regulator for an input voltage range and a load current "
      "range: the largest resistor that still leaves the minimum Zener current at the lowest "
      "input and highest load, and with it the worst-case Zener current, Zener power and "
      "resistor power (highest input, lowest load).";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "vin_min_v",
                    .label = "Minimum input voltage",
                    .unit = "V",
                    .help = "Lowest unregulated input voltage (including ripple troughs). It must "
                            "exceed V_Z by at least 0.1 V.",
                    .min = 1,
                    .max = 400,
                    .step = 0.1,
                    .default_value = 12}),
      number_input({.key = "vin_max_v",
                    .label = "Maximum input voltage",
                    .unit = "V",
                    .help = "Highest input voltage; at least the minimum (equal for a fixed "
                            "input).",
                    .min = 1,
                    .max = 400,
                    .step = 0.1,
                    .default_value = 15}),
      number_input({.key = "zener_voltage_v",
                    .label = "Zener voltage V_Z",
                    .unit = "V",
                    .help = "Nominal Zener (breakdown) voltage, which is the regulated output.",
                    .min = 1,
                    .max = 200,
                    .step = 0.1,
                    .default_value = 5.1}),
      number_input({.key = "load_current_min_ma",
                    .label = "Minimum load current",
                    .unit = "mA",
                    .help = "Lowest load current; 0 for the no-load case, where all of the current "
                            "flows through the Zener.",
                    .min = 0,
                    .max = 2000,
                    .step = 0.1,
                    .default_value = 0}),
      number_input({.key = "load_current_max_ma",
                    .label = "Maximum load current",
                    .unit = "mA",
                    .help = "Highest load current; at least the minimum.",
                    .min = 0,
                    .max = 2000,
                    .step = 0.1,
                    .default_value = 20}),
      number_input({.key = "zener_min_current_ma",
                    .label = "Minimum Zener current I_Z(min)",
                    .unit = "mA",
                    .help = "Smallest current that keeps the Zener in breakdown, above its knee "
                            "current I_ZK (the data sheet's I_ZK, or about 10 % of the test "
                            "current I_ZT).",
                    .min = 0.1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 5}),
  };
  t.outputs = {
      number_output({.key = "series_resistor_ohm",
                     .label = "Series resistor R_S (maximum value)",
                     .unit = "Ω",
                     .precision = 2}),
      number_output({.key = "zener_current_max_ma",
                     .label = "Maximum Zener current (highest input, lowest load)",
                     .unit = "mA",
                     .precision = 3}),
      number_output({.key = "zener_power_mw",
                     .label = "Maximum Zener power V_Z·I_Z(max)",
                     .unit = "mW",
                     .precision = 3}),
      number_output({.key = "resistor_power_mw",
                     .label = "Maximum resistor power (V_in(max) − V_Z)²/R_S",
                     .unit = "mW",
                     .precision = 3,
                     .small_values_in = "resistor_power_uw"}),
      number_output({.key = "input_current_max_ma",
                     .label = "Maximum input current (V_in(max) − V_Z)/R_S",
                     .unit = "mA",
                     .precision = 3}),
      number_output({.key = "resistor_power_uw",
                     .label = "Maximum resistor power in µW (small powers)",
                     .unit = "µW",
                     .precision = 1}),
  };
  t.references = {
      "R. S. Sedha, \"A Textbook of Applied Electronics\", S. Chand & Company, 2008, ch. 20 "
      "\"Regulated Power Supplies\", Example 20.10, p. 472: R_S(max) = (V_S(min) − V_Z)/"
      "(I_Z(min) + I_L(max)), I_Z(max) = (V_S(max) − V_Z)/R_S − I_L(min), P_Z(max) = V_Z·I_Z(max)",
      "A. P. Malvino, D. J. Bates, \"Electronic Principles\", 7th ed., Tata McGraw-Hill, 2006, "
      "ch. 5, Example 5-11, p. 157 (critical series resistance R_S(max) = (V_S(min) − V_Z)/"
      "I_L(max), the case I_Z(min) = 0)",
      "B. Kumar, S. B. Jain, \"Electronic Devices and Circuits\", PHI Learning, 2007, ch. 3, "
      "Examples 3.15–3.16, pp. 137–138 (R_S = (V_min − V_Z)/(I_L(max) + I_Z(min)); maximum "
      "Zener current and power at the highest input with the load removed)",
  };
  t.examples = {
      {.title = "10 V Zener from 13–16 V, 10–85 mA load, I_Z(min) 15 mA",
       .request_json = R"({"vin_min_v":13,"vin_max_v":16,"zener_voltage_v":10,)"
                       R"("load_current_min_ma":10,"load_current_max_ma":85,)"
                       R"("zener_min_current_ma":15})",
       .expected_json = R"({"series_resistor_ohm":30,"zener_current_max_ma":190,)"
                        R"("zener_power_mw":1900})",
       .tolerance_pct = 0.01,
       .source =
           "R. S. Sedha, \"A Textbook of Applied Electronics\", S. Chand 2008, Example 20.10, "
           "p. 472: R_S(max) = 30 Ω, P_Z(max) = 1.9 W (I_Z(max) = 6 V/30 Ω − 10 mA = "
           "190 mA), as transcribed in the FOSSEE Python Textbook Companion "
           "(github.com/FOSSEE/Python-Textbook-Companions, A_Textbook_of_Applied_Electronics"
           "_by_R_S_Sedha/chapter20_5.ipynb)"},
      {.title = "7.2 V Zener from 20 V, up to 100 mA load, I_Z(min) 10 mA",
       .request_json = R"({"vin_min_v":20,"vin_max_v":20,"zener_voltage_v":7.2,)"
                       R"("load_current_min_ma":0,"load_current_max_ma":100,)"
                       R"("zener_min_current_ma":10})",
       .expected_json = R"({"series_resistor_ohm":116.36,"zener_current_max_ma":110})",
       .tolerance_pct = 0.01,
       .source = "B. Kumar, S. B. Jain, \"Electronic Devices and Circuits\", PHI Learning 2007, "
                 "Example 3.16, p. 138: R_S = (20 − 7.2)/(100 mA + 10 mA) = 116.36 Ω, maximum "
                 "Zener current "
                 "110 mA with the load removed (I_L(min) = 0), as transcribed in the FOSSEE "
                 "Python Textbook Companion (github.com/FOSSEE/Python-Textbook-Companions, "
                 "Electronic_Devices_And_Circuits_by_B._Kumar_And_S._B._Jain/Ch3_2.ipynb)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double vin_min = in.number("vin_min_v");
  const double vin_max = in.number("vin_max_v");
  const double vz = in.number("zener_voltage_v");
  const double il_min = in.number("load_current_min_ma") / 1e3;
  const double il_max = in.number("load_current_max_ma") / 1e3;
  const double iz_min = in.number("zener_min_current_ma") / 1e3;

  if (vin_max < vin_min) {
    return ToolError{"vin_max_v", "vin_max_v of " + format_shortest(vin_max) +
                                      " V is below vin_min_v of " + format_shortest(vin_min) +
                                      " V; enter the input range lowest first"};
  }
  if (il_min > il_max) {
    return ToolError{"load_current_min_ma",
                     "load_current_min_ma of " + format_shortest(il_min * 1e3) +
                         " mA is above load_current_max_ma of " + format_shortest(il_max * 1e3) +
                         " mA; enter the load range lowest first"};
  }
  const double headroom = vin_min - vz;
  if (headroom < kMinHeadroomV) {
    std::string msg = "vin_min_v of " + format_shortest(vin_min) + " V leaves ";
    append_fixed(msg, headroom, 3);
    msg +=
        " V over the Zener voltage, less than the 0.1 V a series resistor needs to set the "
        "current: the Zener drops out of regulation at the lowest input; raise vin_min_v or "
        "choose a lower zener_voltage_v";
    return ToolError{"vin_min_v", std::move(msg)};
  }
  // At the lowest input and the highest load the resistor must still pass the load current
  // plus the Zener's minimum current; a larger resistor would starve the Zener.
  const double resistor = headroom / (il_max + iz_min);
  if (resistor < kMinResistanceOhm) {
    std::string msg = "the series resistor would be ";
    append_fixed(msg, resistor, 3);
    msg +=
        " Ω, below 1 Ω: the load and Zener currents are too large for a shunt regulator at this "
        "headroom; use a series (transistor or IC) regulator, or raise vin_min_v";
    return ToolError{"load_current_max_ma", std::move(msg)};
  }
  // The worst case for the Zener is the highest input with the lowest load: all of the
  // resistor current the load does not take flows through the Zener.
  const double input_current_max = (vin_max - vz) / resistor;
  const double iz_max = input_current_max - il_min;
  const double resistor_power = (vin_max - vz) * input_current_max;
  Outputs out;
  out.set("series_resistor_ohm", resistor)
      .set("zener_current_max_ma", iz_max * 1e3)
      .set("zener_power_mw", vz * iz_max * 1e3)
      .set("resistor_power_mw", resistor_power * 1e3)
      .set("input_current_max_ma", input_current_max * 1e3)
      .set("resistor_power_uw", resistor_power * 1e6);
  return out;
}

}  // namespace

Tool make_zener_shunt_regulator() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
