// Inverting and non-inverting op-amp amplifiers: closed-loop gain in V/V and dB, the output
// for an input voltage (clipped at the output swing limits, with a saturation flag) and the
// input impedance. Formula, bounds, references and worked examples: docs/tools/op-amp-gain.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The ideal gain equations assume the loop gain A_OL/(1 + Rf/Rg) is large: the relative gain
// error is about (1 + Rf/Rg)/A_OL. With the 100 dB (1e5) open-loop gain of a general-purpose
// op amp, Rf/Rg up to 1000 keeps it near 1 %.
constexpr double kMaxRatio = 1000;
// Below an inverting gain of 0.01 V/V (−40 dB) the stage is an attenuator whose output is
// comparable to the op amp's own offset; use a resistive divider instead.
constexpr double kMinInvertingRatio = 0.01;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "op-amp-gain";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Op-Amp Amplifier Gain";
  t.description =
      "Inverting or non-inverting op-amp amplifier from its two resistors: closed-loop gain in "
      "V/V and dB, the output voltage for an input (clipped at the supply rails, with a "
      "saturation flag) and the input impedance the source sees.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "configuration",
                    .label = "Configuration",
                    .help = "inverting: input through Rg into the − input, + input grounded, "
                            "gain −Rf/Rg. non-inverting: input on the + input, Rg from the − "
                            "input to ground, gain 1 + Rf/Rg.",
                    .options = {"inverting", "non-inverting"},
                    .default_value = "non-inverting"}),
      number_input({.key = "rf_ohm",
                    .label = "Feedback resistor Rf",
                    .unit = "Ω",
                    .help = "Resistor from the output to the − input. 0 makes a non-inverting "
                            "stage a voltage follower. Rf/Rg at most 1000.",
                    .min = 0,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "rg_ohm",
                    .label = "Gain resistor Rg",
                    .unit = "Ω",
                    .help = "Inverting: the input resistor, from the signal to the − input. "
                            "Non-inverting: from the − input to ground.",
                    .min = 10,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1000}),
      number_input({.key = "vin_v",
                    .label = "Input voltage V_in",
                    .unit = "V",
                    .help = "Input voltage relative to ground (a DC level or an instantaneous "
                            "value). Non-inverting: it must lie between the supply rails.",
                    .min = -1000,
                    .max = 1000,
                    .step = 0.001,
                    .default_value = 0.1}),
      number_input({.key = "supply_pos_v",
                    .label = "Positive supply V+",
                    .unit = "V",
                    .help = "Positive supply rail, e.g. 15 for ±15 V or 5 for a single 5 V "
                            "supply.",
                    .min = 0.5,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 15}),
      number_input({.key = "supply_neg_v",
                    .label = "Negative supply V−",
                    .unit = "V",
                    .help = "Negative supply rail, e.g. −15 for ±15 V; 0 for a single supply.",
                    .min = -1000,
                    .max = 0,
                    .step = 0.1,
                    .default_value = -15}),
      number_input({.key = "swing_headroom_v",
                    .label = "Output swing headroom",
                    .unit = "V",
                    .help = "How far from each rail the output saturates, from the op amp's data "
                            "sheet (output voltage swing): 0 for an ideal rail-to-rail output, "
                            "about 1.5 for a TL07x or LM741 on ±15 V.",
                    .min = 0,
                    .max = 10,
                    .step = 0.01,
                    .default_value = 0,
                    .required = false}),
      number_input({.key = "opamp_input_resistance_mohm",
                    .label = "Op amp input resistance",
                    .unit = "MΩ",
                    .help = "The op amp's input resistance from its data sheet, which is the "
                            "input impedance of a non-inverting stage: about 1000000 MΩ (1 TΩ) "
                            "for JFET or CMOS inputs, 2 MΩ for an LM741. Unused when inverting.",
                    .min = 0.1,
                    .max = 10000000,
                    .step = 0.1,
                    .default_value = 1000000,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "gain_vv",
                     .label = "Closed-loop gain V_out/V_in",
                     .unit = "V/V",
                     .precision = 4}),
      number_output({.key = "gain_db",
                     .label = "Gain magnitude 20·log10|G|",
                     .unit = "dB",
                     .precision = 2,
                     .small_values_in = "gain_vv"}),
      number_output({.key = "vout_v",
                     .label = "Output voltage (clipped at the swing limits)",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "vout_uv"}),
      number_output(
          {.key = "vout_uv", .label = "Output voltage, in µV", .unit = "µV", .precision = 4}),
      text_output({.key = "output_state",
                   .label = "Output state",
                   .options = {"linear", "saturated-high", "saturated-low"}}),
      number_output({.key = "input_impedance_kohm",
                     .label = "Input impedance seen by the source",
                     .unit = "kΩ",
                     .precision = 4}),
  };
  t.references = {
      "R. Mancini (ed.), \"Op Amps for Everyone\", Texas Instruments SLOD006B, 2002, chapter 3 "
      "\"Development of the Ideal Op Amp Equations\", sections on the non-inverting op amp "
      "(V_OUT = V_IN·(R_F + R_G)/R_G) and the inverting op amp (V_OUT = −V_IN·R_F/R_G, input "
      "impedance R_G)",
      "W. Kester, \"Ideal Voltage Feedback (VFB) Op Amp\", Analog Devices tutorial MT-032, 2009: "
      "inverting gain −R2/R1, non-inverting gain 1 + R2/R1, noise gain 1 + R2/R1",
      "W. Kester, \"Voltage Feedback Op Amp Gain and Bandwidth\", Analog Devices tutorial "
      "MT-033, 2009: the closed-loop gain error grows with the noise gain over the open-loop "
      "gain",
  };
  t.examples = {
      {.title = "Inverting, RI = 10 kΩ, RF = 36 kΩ: ±0.5 V to ±1.8 V on ±12 V",
       .request_json = R"({"configuration":"inverting","rf_ohm":36000,"rg_ohm":10000,)"
                       R"("vin_v":0.5,"supply_pos_v":12,"supply_neg_v":-12})",
       .expected_json = R"({"vout_v":-1.8,"output_state":"linear"})",
       .tolerance_pct = 0,
       .source = "Texas Instruments, TS321 data sheet SLOS489D, §8.2.1 Design Requirements "
                 "(\"this application scales a signal of ±0.5 V to ±1.8 V\", supply ±12 V) and "
                 "the same inverting-amplifier application in the TL08x data sheet SLOS081N, "
                 "§8.2.1.2 (\"10 kΩ for RI which means 36 kΩ will be used for RF\")"},
      {.title = "Non-inverting, R1 = 1 kΩ, R2 = 10 kΩ: 0.1 V to 1.1 V",
       .request_json = R"({"configuration":"non-inverting","rf_ohm":10000,"rg_ohm":1000,)"
                       R"("vin_v":0.1,"supply_pos_v":15,"supply_neg_v":-15})",
       .expected_json = R"({"vout_v":1.1})",
       .tolerance_pct = 0,
       .source = "MathWorks, Simscape example \"Op-Amp Circuit - Noninverting Amplifier\" "
                 "(https://uk.mathworks.com/help/simscape/ug/op-amp-circuit-noninverting-"
                 "amplifier.html): gain 1 + R2/R1 with R1 = 1 kΩ, R2 = 10 kΩ amplifies 0.1 V to "
                 "1.1 V (peak-to-peak; the stage is linear)"},
      {.title = "Inverting, gain −2 V/V: 7 V to −14 V on ±15 V",
       .request_json = R"({"configuration":"inverting","rf_ohm":20000,"rg_ohm":10000,)"
                       R"("vin_v":7,"supply_pos_v":15,"supply_neg_v":-15})",
       .expected_json = R"({"gain_vv":-2,"vout_v":-14,"output_state":"linear"})",
       .tolerance_pct = 0,
       .source = "JuliaHub Dyad ElectricalComponents, test circuit \"AmplifierWithOpAmpDetailed\" "
                 "(https://help.juliahub.com/electricalcomponents/stable/tests/"
                 "AmplifierWithOpAmpDetailed): Rin = 10 kΩ, Rf = 20 kΩ on ±15 V, ideal gain −2; "
                 "Texas Instruments, \"Inverting Amplifier Circuit\", SBOA270, Design Goals: "
                 "gain −2 V/V takes Vi ±7 V to Vo ∓14 V on ±15 V supplies"},
  };
  return t;
}

std::string volts(double v) {
  return format_shortest(v) + " V";
}

ComputeResult compute(const Inputs& in) {
  const bool inverting = in.enumeration("configuration") == "inverting";
  const double rf = in.number("rf_ohm");
  const double rg = in.number("rg_ohm");
  const double vin = in.number("vin_v");
  const double vpos = in.number("supply_pos_v");
  const double vneg = in.number("supply_neg_v");
  const double headroom = in.number("swing_headroom_v");
  const double ratio = rf / rg;
  if (ratio > kMaxRatio) {
    std::string msg = "Rf/Rg = ";
    append_fixed(msg, ratio, 1);
    msg +=
        " is above 1000: at such gains an op amp's finite open-loop gain (about 100 dB) makes "
        "the ideal formula wrong by more than 1 %; lower rf_ohm or split the gain over two "
        "stages";
    return ToolError{"rf_ohm", std::move(msg)};
  }
  if (inverting && ratio < kMinInvertingRatio) {
    std::string msg = "Rf/Rg = ";
    append_fixed(msg, ratio, 6);
    msg +=
        " gives an inverting gain below 0.01 V/V (−40 dB), an attenuation the op amp's offset "
        "and noise would swamp; raise rf_ohm to at least Rg/100 or attenuate with a divider";
    return ToolError{"rf_ohm", std::move(msg)};
  }
  const double high = vpos - headroom;
  const double low = vneg + headroom;
  if (high <= low) {
    std::string msg =
        "a headroom of " + volts(headroom) + " from each rail leaves no output swing ";
    msg += "between " + volts(vneg) + " and " + volts(vpos) +
           "; lower swing_headroom_v or widen the supplies";
    return ToolError{"swing_headroom_v", std::move(msg)};
  }
  if (!inverting && (vin > vpos || vin < vneg)) {
    std::string msg =
        "a non-inverting stage takes V_in on its + input, which must stay between "
        "the rails " +
        volts(vneg) + " and " + volts(vpos) + "; " + volts(vin) + " is outside them";
    return ToolError{"vin_v", std::move(msg)};
  }
  const double gain = inverting ? -ratio : 1 + ratio;
  const double ideal = gain * vin;
  double vout = ideal;
  const char* state = "linear";
  if (ideal > high) {
    vout = high;
    state = "saturated-high";
  } else if (ideal < low) {
    vout = low;
    state = "saturated-low";
  }
  const double zin_kohm = inverting ? rg / 1000 : in.number("opamp_input_resistance_mohm") * 1000;
  Outputs out;
  out.set("gain_vv", gain)
      .set("gain_db", 20 * std::log10(std::fabs(gain)))
      .set("vout_v", vout)
      .set("vout_uv", vout * 1e6)
      .set("output_state", state)
      .set("input_impedance_kohm", zin_kohm);
  return out;
}

}  // namespace

Tool make_op_amp_gain() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
