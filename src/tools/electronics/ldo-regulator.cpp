// Linear (LDO) regulator: dropout check, dissipation, efficiency and junction temperature.
// Formula, bounds, references and worked examples: docs/tools/ldo-regulator.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kKelvinOffset = 273.15;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "ldo-regulator";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "LDO Regulator Dissipation and Junction Temperature";
  t.description =
      "Linear (low-dropout) regulator at one operating point: checks that the input covers the "
      "output plus the dropout voltage, then gives the power the regulator dissipates "
      "((V_in − V_out)·I_out + V_in·I_GND), its efficiency and its junction temperature "
      "T_A + P·θJA against the rated maximum.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "vin_v",
                    .label = "Input voltage V_in",
                    .unit = "V",
                    .help = "Input voltage; enter the maximum for the worst-case dissipation and "
                            "the minimum to check dropout.",
                    .min = 1,
                    .max = 60,
                    .step = 0.1,
                    .default_value = 5}),
      number_input({.key = "vout_v",
                    .label = "Output voltage V_out",
                    .unit = "V",
                    .help = "Regulated output voltage.",
                    .min = 0.5,
                    .max = 50,
                    .step = 0.1,
                    .default_value = 3.3}),
      number_input({.key = "iout_ma",
                    .label = "Output current I_out",
                    .unit = "mA",
                    .help = "Load current.",
                    .min = 1,
                    .max = 10000,
                    .step = 1,
                    .default_value = 200}),
      number_input({.key = "ground_current_ma",
                    .label = "Ground (quiescent) current I_GND",
                    .unit = "mA",
                    .help = "Current the regulator itself draws to ground at this load, from the "
                            "data sheet (it rises with load in bipolar LDOs); 0 to neglect it.",
                    .min = 0,
                    .max = 100,
                    .step = 0.01,
                    .default_value = 1}),
      number_input({.key = "dropout_v",
                    .label = "Dropout voltage V_DO",
                    .unit = "V",
                    .help = "Data sheet's maximum dropout voltage at this load current and "
                            "temperature; V_in must be at least V_out + V_DO.",
                    .min = 0.01,
                    .max = 5,
                    .step = 0.01,
                    .default_value = 0.3}),
      number_input({.key = "theta_ja_c_per_w",
                    .label = "Thermal resistance θJA",
                    .unit = "°C/W",
                    .help = "Junction-to-ambient thermal resistance of the package as mounted "
                            "(data sheet value, or the board's own estimate).",
                    .min = 1,
                    .max = 500,
                    .step = 1,
                    .default_value = 60}),
      number_input({.key = "ambient_temp_c",
                    .label = "Ambient temperature T_A",
                    .unit = "°C",
                    .help = "Worst-case air temperature around the regulator.",
                    .min = -40,
                    .max = 125,
                    .step = 1,
                    .default_value = 25}),
      number_input({.key = "max_junction_temp_c",
                    .label = "Maximum junction temperature T_J(max)",
                    .unit = "°C",
                    .help = "Rated maximum operating junction temperature (often 125 °C or "
                            "150 °C).",
                    .min = 85,
                    .max = 200,
                    .step = 1,
                    .default_value = 125}),
  };
  t.outputs = {
      number_output({.key = "power_dissipation_w",
                     .label = "Power dissipated P_D",
                     .unit = "W",
                     .precision = 3,
                     .small_values_in = "power_dissipation_mw"}),
      number_output({.key = "efficiency_pct",
                     .label = "Efficiency V_out·I_out/(V_in·(I_out + I_GND))",
                     .unit = "%",
                     .precision = 2,
                     .small_values_in = "efficiency_ppm"}),
      number_output({.key = "junction_temp_c",
                     .label = "Junction temperature T_J = T_A + P_D·θJA",
                     .unit = "°C",
                     .precision = 1,
                     .small_values_in = "junction_temp_k"}),
      text_output({.key = "thermal_status",
                   .label = "Junction temperature against T_J(max)",
                   .options = {"ok", "over maximum"}}),
      number_output({.key = "power_dissipation_mw",
                     .label = "Power dissipated in mW (small powers)",
                     .unit = "mW",
                     .precision = 4}),
      number_output({.key = "efficiency_ppm",
                     .label = "Efficiency in parts per million (very low efficiencies)",
                     .unit = "ppm",
                     .precision = 1}),
      number_output({.key = "junction_temp_k",
                     .label = "Junction temperature in kelvin (near 0 °C)",
                     .unit = "K",
                     .precision = 1}),
  };
  t.references = {
      "B. S. Lee, \"Technical Review of Low Dropout Voltage Regulator Operation and "
      "Performance\", Texas Instruments application report SLVA072, August 1999 (dropout, "
      "ground current, efficiency I_out·V_out/((I_out + I_q)·V_in), power dissipation)",
      "Analog Devices, ADP3331 data sheet, \"Calculating Junction Temperature\", eq. 8–11: "
      "P_D = (V_in − V_out)·I_LOAD + V_in·I_GND, ΔT_JA = P_D·θJA",
      "Texas Instruments, SPRA953C \"Semiconductor and IC Package Thermal Metrics\", 2016 "
      "(T_J = T_A + P·θJA; θJA depends on the board)",
  };
  t.examples = {
      {.title = "ADP3331: 4.2 V to 3.0 V at 200 mA, 4 mA ground current, θJA 165 °C/W",
       .request_json = R"({"vin_v":4.2,"vout_v":3,"iout_ma":200,"ground_current_ma":4,)"
                       R"("dropout_v":0.2,"theta_ja_c_per_w":165,"ambient_temp_c":82.6,)"
                       R"("max_junction_temp_c":125})",
       .expected_json = R"({"power_dissipation_w":0.257,"junction_temp_c":125})",
       .tolerance_pct = 0.2,
       .source = "Analog Devices, ADP3331 data sheet (rev. A), p. 8, \"Calculating Junction "
                 "Temperature\", eq. 9–11: P_D = (4.2 V − 3.0 V)·200 mA + 4.2 V·4 mA = 257 mW, "
                 "ΔT_JA = 0.257 W × 165 °C/W = 42.4 °C, so 125 °C is reached at T_A(max) = "
                 "82.6 °C (read at datasheetq.com, ADP3331ART page 8)"},
      {.title = "ADP3307: 5.5 V to 3.3 V at 100 mA, 2 mA ground current",
       .request_json = R"({"vin_v":5.5,"vout_v":3.3,"iout_ma":100,"ground_current_ma":2,)"
                       R"("dropout_v":0.2,"theta_ja_c_per_w":165,"ambient_temp_c":25,)"
                       R"("max_junction_temp_c":125})",
       .expected_json = R"({"power_dissipation_w":0.231})",
       .tolerance_pct = 0.1,
       .source = "Analog Devices, ADP3307 data sheet (rev. 0), p. 7, \"Calculating Junction "
                 "Temperature\": P_D = (5.5 − 3.3)·0.1 + 5.5 × 2 mA = 0.231 W (read at "
                 "hkdtupc.cn, ADP3307ART-3.3 datasheet page 7)"},
      {.title = "TC1071: 3.3 V to 2.6865 V at 98 mA, ground current neglected",
       .request_json = R"({"vin_v":3.3,"vout_v":2.6865,"iout_ma":98,"ground_current_ma":0,)"
                       R"("dropout_v":0.1,"theta_ja_c_per_w":220,"ambient_temp_c":55,)"
                       R"("max_junction_temp_c":125})",
       .expected_json = R"({"power_dissipation_w":0.060})",
       .tolerance_pct = 1,
       .source = "TelCom Semiconductor, TC1071 data sheet TC1071-01 (6/13/97), p. 5, thermal "
                 "example: V_INMAX = 3.0 V + 10 %, V_OUTMIN = 2.7 V − 0.5 %, I_LOAD = 98 mA give "
                 "P_D ≈ 60 mW (the printed multiplier \"40 × 10⁻³\" is a typo: 60 mW is 0.6135 V × "
                 "98 mA) (read at datasheetandpdf.com, TC1070 page 11)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double vin = in.number("vin_v");
  const double vout = in.number("vout_v");
  const double iout = in.number("iout_ma") / 1e3;
  const double ignd = in.number("ground_current_ma") / 1e3;
  const double dropout = in.number("dropout_v");
  const double theta = in.number("theta_ja_c_per_w");
  const double ambient = in.number("ambient_temp_c");
  const double tj_max = in.number("max_junction_temp_c");

  if (vin < vout + dropout) {
    std::string msg = "vin_v of " + format_shortest(vin) + " V is below V_out + V_DO = ";
    append_fixed(msg, vout + dropout, 3);
    msg +=
        " V: the regulator is in dropout and the output falls out of regulation; raise vin_v "
        "or use a regulator with a lower dropout voltage";
    return ToolError{"vin_v", std::move(msg)};
  }
  // The pass element drops V_in − V_out at the load current; the ground current flows from
  // the input to ground through the whole input voltage (SLVA072; ADP3331 eq. 8).
  const double power = (vin - vout) * iout + vin * ignd;
  const double efficiency = vout * iout / (vin * (iout + ignd));
  const double junction = ambient + power * theta;
  Outputs out;
  out.set("power_dissipation_w", power)
      .set("efficiency_pct", efficiency * 100)
      .set("junction_temp_c", junction)
      .set("thermal_status", junction > tj_max ? "over maximum" : "ok")
      .set("power_dissipation_mw", power * 1e3)
      .set("efficiency_ppm", efficiency * 1e6)
      .set("junction_temp_k", junction + kKelvinOffset);
  return out;
}

}  // namespace

Tool make_ldo_regulator() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
