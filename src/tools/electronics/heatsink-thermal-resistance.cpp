// Heatsink needed by a power device: the sink-to-ambient thermal resistance θSA that keeps
// the junction at its limit, θSA = (T_J − T_A)/P − θJC − θCS, with the case and heatsink
// temperatures it implies. Formula, bounds, references and worked examples:
// docs/tools/heatsink-thermal-resistance.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kKelvinOffset = 273.15;
// The best air-cooled heatsinks (large extrusions or bonded-fin sinks with forced air) reach
// about 0.1 °C/W; a smaller requirement calls for liquid cooling or a different design.
constexpr double kMinThetaSa = 0.1;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "heatsink-thermal-resistance";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Heatsink Thermal Resistance";
  t.description =
      "The heatsink a power device needs: the largest sink-to-ambient thermal resistance θSA "
      "that keeps the junction at its target temperature for a dissipated power, from the "
      "junction-to-case and case-to-sink (interface) resistances, with the total allowed θJA "
      "and the case and heatsink temperatures that result.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "max_junction_temp_c",
                    .label = "Junction temperature limit T_J",
                    .unit = "°C",
                    .help = "Highest junction temperature to allow: the data sheet's T_J(max), or "
                            "less for margin (e.g. 80 % of it).",
                    .min = 50,
                    .max = 200,
                    .step = 1,
                    .default_value = 125}),
      number_input({.key = "ambient_temp_c",
                    .label = "Ambient temperature T_A",
                    .unit = "°C",
                    .help = "Worst-case air temperature at the heatsink, inside the enclosure; "
                            "below the junction limit.",
                    .min = -40,
                    .max = 125,
                    .step = 1,
                    .default_value = 40}),
      number_input({.key = "power_w",
                    .label = "Dissipated power P",
                    .unit = "W",
                    .help = "Power the device dissipates as heat (conduction plus switching "
                            "losses), averaged over a period much shorter than the heatsink's "
                            "thermal time constant.",
                    .min = 0.01,
                    .max = 2000,
                    .step = 0.1,
                    .default_value = 10}),
      number_input({.key = "theta_jc_c_per_w",
                    .label = "Junction-to-case θJC",
                    .unit = "°C/W",
                    .help = "Junction-to-case thermal resistance from the device data sheet.",
                    .min = 0,
                    .max = 50,
                    .step = 0.01,
                    .default_value = 1.5}),
      number_input({.key = "theta_cs_c_per_w",
                    .label = "Case-to-sink θCS",
                    .unit = "°C/W",
                    .help = "Interface resistance between case and heatsink: about 0.1–0.5 °C/W "
                            "with thermal grease or a pad, 0.5–1.5 °C/W with a mica insulator; 0 "
                            "if already included.",
                    .min = 0,
                    .max = 10,
                    .step = 0.01,
                    .default_value = 0.5}),
  };
  t.outputs = {
      number_output({.key = "theta_sa_c_per_w",
                     .label = "Required heatsink θSA (maximum)",
                     .unit = "°C/W",
                     .precision = 3}),
      number_output({.key = "theta_ja_max_c_per_w",
                     .label = "Total allowed θJA = (T_J − T_A)/P",
                     .unit = "°C/W",
                     .precision = 3}),
      number_output({.key = "case_temp_c",
                     .label = "Case temperature T_J − P·θJC",
                     .unit = "°C",
                     .precision = 1,
                     .small_values_in = "case_temp_k"}),
      number_output({.key = "heatsink_temp_c",
                     .label = "Heatsink temperature T_A + P·θSA",
                     .unit = "°C",
                     .precision = 1,
                     .small_values_in = "heatsink_temp_k"}),
      number_output({.key = "case_temp_k",
                     .label = "Case temperature in kelvin (near 0 °C)",
                     .unit = "K",
                     .precision = 1}),
      number_output({.key = "heatsink_temp_k",
                     .label = "Heatsink temperature in kelvin (near 0 °C)",
                     .unit = "K",
                     .precision = 1}),
  };
  t.references = {
      "S. Franco, \"Design with Operational Amplifiers and Analog Integrated Circuits\", 3rd ed., "
      "McGraw-Hill, 2002, ch. 11 (voltage references and regulators), Example 11.15, p. 532: "
      "θJA(max) = (T_J(max) − T_A(max))/P, θSA = θJA(max) − θJC − θCS",
      "R. L. Boylestad, L. Nashelsky, \"Electronic Devices and Circuit Theory\", 10th ed., "
      "Pearson, 2009, ch. 12 \"Power Amplifiers\", heat sinking, Example 12.18: "
      "P_D = (T_J − T_A)/(θJC + θCS + θSA)",
      "Texas Instruments, SPRA953C \"Semiconductor and IC Package Thermal Metrics\", 2016 "
      "(θJC, θJA and the series thermal-resistance model)",
  };
  t.examples = {
      {.title = "Regulator from 12 V to 5 V at 0.8 A, 60 °C ambient, θJC 5, θCS 0.6",
       .request_json = R"({"max_junction_temp_c":125,"ambient_temp_c":60,"power_w":5.6,)"
                       R"("theta_jc_c_per_w":5,"theta_cs_c_per_w":0.6})",
       .expected_json = R"({"theta_sa_c_per_w":6.0})",
       .tolerance_pct = 0.2,
       .source = "S. Franco, \"Design with Operational Amplifiers and Analog Integrated "
                 "Circuits\", 3rd ed., Example 11.15, p. 532: T_A(max) = 60 °C, I_o(max) = "
                 "0.8 A, V_I(max) = 12 V, V_o = 5 V (so P = 7 V × 0.8 A = 5.6 W), T_J(max) = "
                 "125 °C, θJC = 5 °C/W, θCS = 0.6 °C/W give θSA ≈ 6 °C/W, as transcribed in the "
                 "FOSSEE Python Textbook Companion (github.com/FOSSEE/Python-Textbook-Companions, "
                 "Design_With_Operational_Amplifiers_And_Analog_Integrated_Circuits_3rd_Edition"
                 "_by_Sergio_Franco/chapter11_6.ipynb)"},
      {.title = "Power transistor: 1.5 °C/W heatsink allows 61.54 W at T_J 200 °C, T_A 40 °C",
       .request_json = R"({"max_junction_temp_c":200,"ambient_temp_c":40,"power_w":61.54,)"
                       R"("theta_jc_c_per_w":0.5,"theta_cs_c_per_w":0.6})",
       .expected_json = R"({"theta_sa_c_per_w":1.5,"theta_ja_max_c_per_w":2.6})",
       .tolerance_pct = 0.01,
       .source = "R. L. Boylestad, L. Nashelsky, \"Electronic Devices and Circuit Theory\", 10th "
                 "ed., Example 12.18: θSA = 1.5 °C/W, θJC = 0.5 °C/W, θCS = 0.6 °C/W, T_J = "
                 "200 °C, T_A = 40 °C give P_D = 160/2.6 = 61.54 W; this vector runs it backwards, "
                 "from that power to the heatsink, as transcribed in the FOSSEE Python Textbook "
                 "Companion (Electronic_Devices_and_Circuit_Theory_by_R_L_Boylestad_and_Louis"
                 "_Nashlesky/Chapter12.ipynb)"},
      {.title = "Power device: 5 °C/W heatsink allows 15.48 W at T_J 150 °C, T_A 30 °C",
       .request_json = R"({"max_junction_temp_c":150,"ambient_temp_c":30,"power_w":15.48,)"
                       R"("theta_jc_c_per_w":1.75,"theta_cs_c_per_w":1})",
       .expected_json = R"({"theta_sa_c_per_w":5})",
       .tolerance_pct = 0.05,
       .source = "D. A. Neamen, \"Electronic Circuit Analysis and Design\", 2nd ed., McGraw-Hill, "
                 "2001, Example 8.1: θdev-case = 1.75 °C/W, θcase-snk = 1 °C/W, θsnk-amb = "
                 "5 °C/W, T_amb = 30 °C, T_j,max = 150 °C give P_D,max = 15.48 W with the "
                 "heat sink; run backwards here, as transcribed in the FOSSEE Python Textbook "
                 "Companion (Electronic_Circuit_Analysis_And_Design_by_D._A._Neamen/"
                 "Chapter8_1_2.ipynb)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double tj = in.number("max_junction_temp_c");
  const double ta = in.number("ambient_temp_c");
  const double power = in.number("power_w");
  const double theta_jc = in.number("theta_jc_c_per_w");
  const double theta_cs = in.number("theta_cs_c_per_w");

  if (ta >= tj) {
    return ToolError{"ambient_temp_c", "ambient_temp_c of " + format_shortest(ta) +
                                           " °C is not below the junction limit of " +
                                           format_shortest(tj) +
                                           " °C: no heatsink can cool below ambient; lower "
                                           "ambient_temp_c or raise max_junction_temp_c"};
  }
  // The heat flows through θJC, θCS and θSA in series (Franco Ex. 11.15, Boylestad Ex. 12.18):
  // the temperature budget divided by the power is the total the path may have.
  const double theta_total = (tj - ta) / power;
  const double theta_sa = theta_total - theta_jc - theta_cs;
  if (theta_sa < kMinThetaSa) {
    std::string msg = "at power_w of " + format_shortest(power) + " W the path may have only ";
    append_fixed(msg, theta_total, 3);
    msg += " °C/W, which leaves ";
    append_fixed(msg, theta_sa, 3);
    msg +=
        " °C/W for the heatsink after θJC and θCS: below 0.1 °C/W no air-cooled heatsink can do "
        "it; lower the power, the ambient or the interface resistance, or share the heat "
        "between several devices";
    return ToolError{"power_w", std::move(msg)};
  }
  const double case_temp = tj - power * theta_jc;
  const double sink_temp = ta + power * theta_sa;
  Outputs out;
  out.set("theta_sa_c_per_w", theta_sa)
      .set("theta_ja_max_c_per_w", theta_total)
      .set("case_temp_c", case_temp)
      .set("heatsink_temp_c", sink_temp)
      .set("case_temp_k", case_temp + kKelvinOffset)
      .set("heatsink_temp_k", sink_temp + kKelvinOffset);
  return out;
}

}  // namespace

Tool make_heatsink_thermal_resistance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
