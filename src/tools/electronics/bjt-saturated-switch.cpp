// Saturated NPN switch: base current and base resistor for a forced β, the overdrive it gives
// over the transistor's minimum h_FE, and the powers in the resistor and the transistor.
// Formula, bounds, references and worked examples: docs/tools/bjt-saturated-switch.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Standard resistor ranges start at 1 Ω; below it the driver's own output resistance, not the
// resistor, would set the base current.
constexpr double kMinResistanceOhm = 1;
// Below 0.1 V across the base resistor the base current would be set by the spread of
// V_BE(sat) (±0.1 V over temperature and parts) rather than by the resistor.
constexpr double kMinHeadroomV = 0.1;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "bjt-saturated-switch";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "BJT Saturated Switch Base Resistor";
  t.description =
      "Base drive of an NPN transistor used as a saturated low-side switch: the base current "
      "for a forced β (I_C/I_B), the base resistor from the drive voltage, the overdrive over "
      "the minimum h_FE, and the power in the base resistor and in the transistor.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "collector_current_ma",
                    .label = "Collector (load) current I_C",
                    .unit = "mA",
                    .help = "Load current when the switch is on: (V_CC − V_CE(sat))/R_load for a "
                            "resistive load or the coil current of a relay.",
                    .min = 1,
                    .max = 5000,
                    .step = 1,
                    .default_value = 100}),
      number_input({.key = "drive_voltage_v",
                    .label = "Drive voltage V_in (high)",
                    .unit = "V",
                    .help = "High level of the driving signal, e.g. a logic output's V_OH at its "
                            "load current. It must exceed V_BE(sat) by at least 0.1 V.",
                    .min = 0.6,
                    .max = 50,
                    .step = 0.1,
                    .default_value = 5}),
      number_input({.key = "vbe_sat_v",
                    .label = "Base-emitter voltage V_BE(sat)",
                    .unit = "V",
                    .help = "Base-emitter voltage in saturation at this collector current, from "
                            "the data sheet (0.7 V is the usual estimate; up to about 1.2 V at "
                            "high current).",
                    .min = 0.5,
                    .max = 2,
                    .step = 0.01,
                    .default_value = 0.7}),
      number_input({.key = "vce_sat_v",
                    .label = "Collector-emitter voltage V_CE(sat)",
                    .unit = "V",
                    .help = "Saturation voltage at this collector current and forced β, from the "
                            "data sheet (0.1–0.4 V typical); 0 to neglect it.",
                    .min = 0,
                    .max = 2,
                    .step = 0.01,
                    .default_value = 0.2}),
      number_input({.key = "hfe_min",
                    .label = "Minimum current gain h_FE(min)",
                    .unit = "",
                    .help = "Data sheet's minimum DC current gain at this collector current and "
                            "the lowest operating temperature.",
                    .min = 5,
                    .max = 1000,
                    .step = 1,
                    .default_value = 100}),
      number_input({.key = "forced_beta",
                    .label = "Forced β = I_C/I_B",
                    .unit = "",
                    .help = "Ratio of collector to base current to drive: 10 is the usual choice "
                            "for hard saturation; at most h_FE(min), or the transistor does not "
                            "saturate.",
                    .min = 5,
                    .max = 1000,
                    .step = 1,
                    .default_value = 10}),
  };
  t.outputs = {
      number_output({.key = "base_current_ma",
                     .label = "Base current I_B = I_C/β_forced",
                     .unit = "mA",
                     .precision = 3,
                     .small_values_in = "base_current_ua"}),
      number_output({.key = "base_resistor_ohm",
                     .label = "Base resistor R_B = (V_in − V_BE(sat))/I_B (maximum)",
                     .unit = "Ω",
                     .precision = 2}),
      number_output({.key = "overdrive_factor",
                     .label = "Overdrive h_FE(min)/β_forced",
                     .unit = "",
                     .precision = 2}),
      number_output({.key = "resistor_power_mw",
                     .label = "Base resistor power",
                     .unit = "mW",
                     .precision = 3,
                     .small_values_in = "resistor_power_uw"}),
      number_output({.key = "transistor_power_mw",
                     .label = "Transistor power V_CE(sat)·I_C + V_BE(sat)·I_B",
                     .unit = "mW",
                     .precision = 3,
                     .small_values_in = "transistor_power_uw"}),
      number_output({.key = "base_current_ua",
                     .label = "Base current in µA (small currents)",
                     .unit = "µA",
                     .precision = 2}),
      number_output({.key = "resistor_power_uw",
                     .label = "Base resistor power in µW (small powers)",
                     .unit = "µW",
                     .precision = 3}),
      number_output({.key = "transistor_power_uw",
                     .label = "Transistor power in µW (small powers)",
                     .unit = "µW",
                     .precision = 3}),
  };
  t.references = {
      "T. L. Floyd, \"Electronic Devices\", 7th ed., Pearson, 2009, ch. 4, \"The BJT as a "
      "Switch\", Example 4-9, p. 132: I_C(sat) = V_CC/R_C, I_B(min) = I_C(sat)/β_DC, "
      "R_B(max) = (V_IN − V_BE)/I_B(min)",
      "P. Horowitz, W. Hill, \"The Art of Electronics\", 3rd ed., Cambridge University Press, "
      "2015, §2.2.1 \"Transistor switch\": drive the base with several times I_C/h_FE (a forced "
      "β of about 10) so the transistor saturates despite h_FE spread",
      "ON Semiconductor, 2N3903/2N3904 data sheet, \"ON Characteristics\": h_FE(min), "
      "V_CE(sat) and V_BE(sat) specified at I_C/I_B = 10",
  };
  t.examples = {
      {.title = "Floyd Example 4-9: 10 mA collector, β 200, 5 V drive",
       .request_json = R"({"collector_current_ma":10,"drive_voltage_v":5,"vbe_sat_v":0.7,)"
                       R"("vce_sat_v":0,"hfe_min":200,"forced_beta":200})",
       .expected_json = R"({"base_current_ma":0.05,"base_resistor_ohm":86000})",
       .tolerance_pct = 0.01,
       .source = "T. L. Floyd, \"Electronic Devices\", 7th ed., Example 4-9, p. 132: V_CC = "
                 "10 V, R_C = 1.0 kΩ (V_CE(sat) neglected, I_C(sat) = 10 mA), β_DC = 200 give "
                 "I_B(min) = 50 µA and R_B(max) = (5 V − 0.7 V)/50 µA = 86 kΩ, as transcribed in "
                 "the FOSSEE Python Textbook Companion (github.com/FOSSEE/Python-Textbook-"
                 "Companions, Electronic_Devices_by_Thomas_L._Floyd/Chapter4.ipynb)"},
      {.title = "12 V relay coil (133 mA) from a 5 V output, h_FE(min) 30",
       .request_json = R"({"collector_current_ma":133,"drive_voltage_v":5,"vbe_sat_v":0.95,)"
                       R"("vce_sat_v":0.2,"hfe_min":30,"forced_beta":30})",
       .expected_json = R"({"base_current_ma":4.43,"base_resistor_ohm":913})",
       .tolerance_pct = 0.2,
       .source = "Electrical Engineering Stack Exchange, \"Need help calculating resistance for "
                 "transistor base\", accepted answer (mirrored at newbedev.com/need-help-"
                 "calculating-resistance-for-transistor-base): I_C = 133 mA, h_FE = 30 (2N3904 "
                 "minimum), V_BE,SAT = 0.95 V give I_B = 4.43 mA and R_B = (5 − 0.95)/4.43 mA = "
                 "913 Ω"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double ic = in.number("collector_current_ma") / 1e3;
  const double vdrive = in.number("drive_voltage_v");
  const double vbe = in.number("vbe_sat_v");
  const double vce = in.number("vce_sat_v");
  const double hfe = in.number("hfe_min");
  const double beta = in.number("forced_beta");

  if (beta > hfe) {
    return ToolError{"forced_beta",
                     "forced_beta of " + format_shortest(beta) + " is above hfe_min of " +
                         format_shortest(hfe) +
                         ": a transistor with the minimum gain would need less base current than "
                         "that and stay in its active region, not saturate; lower forced_beta to "
                         "at most hfe_min (10 is the usual choice)"};
  }
  const double headroom = vdrive - vbe;
  if (headroom < kMinHeadroomV) {
    std::string msg = "drive_voltage_v of " + format_shortest(vdrive) + " V leaves ";
    append_fixed(msg, headroom, 3);
    msg +=
        " V over V_BE(sat), less than the 0.1 V a base resistor needs to set the base current; "
        "raise drive_voltage_v (or add a driver stage)";
    return ToolError{"drive_voltage_v", std::move(msg)};
  }
  // Forcing β below h_FE(min) drives more base current than the worst transistor needs, so
  // every part saturates (Floyd ch. 4; Horowitz & Hill §2.2.1).
  const double ib = ic / beta;
  const double resistor = headroom / ib;
  if (resistor < kMinResistanceOhm) {
    std::string msg = "the base resistor would be ";
    append_fixed(msg, resistor, 3);
    msg +=
        " Ω, below 1 Ω: the drive voltage leaves too little headroom for this base current; raise "
        "drive_voltage_v, raise forced_beta towards hfe_min, or use a Darlington or a MOSFET";
    return ToolError{"drive_voltage_v", std::move(msg)};
  }
  const double resistor_power = headroom * ib;
  const double transistor_power = vce * ic + vbe * ib;
  Outputs out;
  out.set("base_current_ma", ib * 1e3)
      .set("base_resistor_ohm", resistor)
      .set("overdrive_factor", hfe / beta)
      .set("resistor_power_mw", resistor_power * 1e3)
      .set("transistor_power_mw", transistor_power * 1e3)
      .set("base_current_ua", ib * 1e6)
      .set("resistor_power_uw", resistor_power * 1e6)
      .set("transistor_power_uw", transistor_power * 1e6);
  return out;
}

}  // namespace

Tool make_bjt_saturated_switch() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
