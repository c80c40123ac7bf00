// Boost (step-up) converter power stage after TI SLVA372: duty cycle, inductor current and
// ripple, inductance, peak switch current, maximum output current for a switch current limit,
// and minimum output capacitance in continuous conduction. Formula, bounds, references and
// worked examples: docs/tools/boost-converter.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/electronics/power_stage.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Below an ideal duty cycle of 1 % (V_out within about 1 % of V_in) the switch would be on for
// less than 1 % of the period, shorter than any controller's minimum on-time: the converter
// stops regulating and lets the input through its diode instead.
constexpr double kMinIdealDuty = 0.01;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "boost-converter";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Boost Converter Power Stage";
  t.description =
      "Power stage of a step-up (boost) converter in continuous conduction, after TI SLVA372: "
      "duty cycle with the converter's efficiency, average inductor current and its ripple, the "
      "inductance that gives it, peak switch current, the output current a switch current limit "
      "allows, and the minimum output capacitance for an output ripple.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "vin_v",
                    .label = "Input voltage V_in",
                    .unit = "V",
                    .help = "Input voltage. Enter the minimum input voltage: it gives the highest "
                            "duty cycle and switch current.",
                    .min = 0.5,
                    .max = 60,
                    .step = 0.1,
                    .default_value = 5}),
      number_input({.key = "vout_v",
                    .label = "Output voltage V_out",
                    .unit = "V",
                    .help = "Regulated output voltage; it must be at least about 1 % above V_in (a "
                            "boost only steps up).",
                    .min = 1,
                    .max = 100,
                    .step = 0.1,
                    .default_value = 12}),
      number_input({.key = "iout_a",
                    .label = "Output current I_out",
                    .unit = "A",
                    .help = "Maximum load current.",
                    .min = 0.01,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 0.5}),
      power_stage::switching_frequency_input(1000),
      number_input({.key = "efficiency_pct",
                    .label = "Efficiency η",
                    .unit = "%",
                    .help = "Estimated efficiency at this operating point, from the data sheet's "
                            "efficiency curve (80–95 % is typical); 100 % gives the ideal duty "
                            "cycle 1 − V_in/V_out.",
                    .min = 50,
                    .max = 100,
                    .step = 1,
                    .default_value = 85}),
      number_input({.key = "ripple_current_pct",
                    .label = "Inductor ripple current",
                    .unit = "% of inductor current",
                    .help = "Peak-to-peak inductor ripple as a percentage of the average inductor "
                            "(input) current; 20–40 % is the usual choice.",
                    .min = 5,
                    .max = 100,
                    .step = 1,
                    .default_value = 30}),
      number_input({.key = "output_ripple_mv",
                    .label = "Output voltage ripple ΔV_out",
                    .unit = "mV",
                    .help = "Allowed peak-to-peak output voltage ripple from the capacitance (the "
                            "capacitor's ESR adds its own share).",
                    .min = 1,
                    .max = 1000,
                    .step = 1,
                    .default_value = 50}),
      number_input({.key = "switch_current_limit_a",
                    .label = "Switch current limit I_LIM(min)",
                    .unit = "A",
                    .help = "Minimum switch current limit from the converter IC's data sheet; the "
                            "peak switch current must stay below it.",
                    .min = 0.01,
                    .max = 100,
                    .step = 0.01,
                    .default_value = 2}),
  };
  t.outputs = {
      number_output({.key = "duty_cycle_pct",
                     .label = "Duty cycle D = 1 − V_in·η/V_out",
                     .unit = "%",
                     .precision = 1,
                     .small_values_in = "duty_cycle"}),
      number_output({.key = "inductor_current_a",
                     .label = "Average inductor (input) current V_out·I_out/(V_in·η)",
                     .unit = "A",
                     .precision = 3,
                     .small_values_in = "inductor_current_ma"}),
      power_stage::output(power_stage::Output::RippleCurrentA),
      power_stage::output(power_stage::Output::InductanceUh),
      power_stage::output(power_stage::Output::PeakSwitchCurrentA),
      number_output({.key = "max_output_current_a",
                     .label = "Maximum output current at the switch current limit",
                     .unit = "A",
                     .precision = 3,
                     .small_values_in = "max_output_current_ma"}),
      power_stage::output(power_stage::Output::MinOutputCapacitanceUf),
      power_stage::output(power_stage::Output::DutyCycle),
      number_output({.key = "inductor_current_ma",
                     .label = "Average inductor current in mA (small currents)",
                     .unit = "mA",
                     .precision = 2}),
      power_stage::output(power_stage::Output::RippleCurrentMa),
      power_stage::output(power_stage::Output::InductanceNh),
      power_stage::output(power_stage::Output::PeakSwitchCurrentMa),
      number_output({.key = "max_output_current_ma",
                     .label = "Maximum output current in mA (small currents)",
                     .unit = "mA",
                     .precision = 2}),
      power_stage::output(power_stage::Output::MinOutputCapacitancePf),
  };
  t.references = {
      "B. Hauke, \"Basic Calculation of a Boost Converter's Power Stage\", Texas Instruments "
      "application report SLVA372D, November 2009, revised November 2022: eq. 1 (D = 1 − "
      "V_in·η/V_out), maximum output current (I_LIM(min) − ΔI_L/2)·(1 − D), maximum switch "
      "current ΔI_L/2 + I_out/(1 − D), inductor selection "
      "L = V_in·(V_out − V_in)/(ΔI_L·f_s·V_out), output capacitor selection "
      "C_out(min) = I_out·D/(f_s·ΔV_out)",
      "Texas Instruments, TPS61175 data sheet SLVS892B, February 2012, \"Selecting the "
      "inductor\", eq. 4–5: ripple as 20–40 % of the average inductor current "
      "I_IN(AVG) = V_out·I_out/(V_in·η)",
      "R. W. Erickson, D. Maksimović, \"Fundamentals of Power Electronics\", 2nd ed., Kluwer, "
      "2001, §2.3 (boost converter: M(D) = 1/(1 − D), inductor current ripple V_in·D·T_s/L, "
      "output ripple I_out·D·T_s/C)",
  };
  t.examples = {
      {.title = "Li-ion 2.7 V to 5 V USB at 2 A, 1 MHz, 90 % efficiency, 30 % ripple",
       .request_json = R"({"vin_v":2.7,"vout_v":5,"iout_a":2,"switching_frequency_khz":1000,)"
                       R"("efficiency_pct":90,"ripple_current_pct":30,"output_ripple_mv":50,)"
                       R"("switch_current_limit_a":8})",
       .expected_json = R"({"inductor_current_a":4.1,"ripple_current_a":1.23,"inductance_uh":1.0})",
       .tolerance_pct = 1,
       .source = "RF Tools, \"Boost Converter Design Calculator\" "
                 "(rftools.io/calculators/power/boost-converter), \"Worked Example\", steps 2–3: "
                 "I_in = 10 W/(0.9 × 2.7 V) = 4.1 A, ΔI_L = 0.3 × 4.1 = 1.23 A, L = 1.0 µH (its "
                 "step-1 duty cycle is the ideal 1 − V_in/V_out, so it is not compared)"},
      {.title = "Ideal 5 V to 12 V, 50 kHz, 0.5 A ripple",
       .request_json = R"({"vin_v":5,"vout_v":12,"iout_a":1,"switching_frequency_khz":50,)"
                       R"("efficiency_pct":100,"ripple_current_pct":20.833333333333332,)"
                       R"("output_ripple_mv":50,"switch_current_limit_a":5})",
       .expected_json = R"({"duty_cycle_pct":58.33,"ripple_current_a":0.5,"inductance_uh":116.7})",
       .tolerance_pct = 0.05,
       .source =
           "Ekostra, \"Boost Converter Calculator\" (ekostra.com/boost-converter-calculator), "
           "\"Example Calculation\": 5 V in, 12 V out, 50 kHz, ripple current 0.5 A give "
           "D = 0.5833 (58.33 %) and L = 116.7 µH. The source gives the ripple in amperes; "
           "with I_out = 1 A the inductor current is 2.4 A, so 0.5 A is 20.8333 % of it"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const auto [vin, vout, iout, fs_hz, eta, ripple_frac, dv_out] = power_stage::read_inputs(in);
  const double limit = in.number("switch_current_limit_a");

  if (vout <= vin) {
    return ToolError{"vout_v", "vout_v of " + format_shortest(vout) + " V is not above vin_v of " +
                                   format_shortest(vin) +
                                   " V: a boost converter only steps up; raise vout_v or use a "
                                   "buck converter"};
  }
  const double ideal_duty = 1 - vin / vout;
  if (ideal_duty < kMinIdealDuty) {
    std::string msg =
        "vout_v of " + format_shortest(vout) + " V is within 1 % of vin_v (ideal duty cycle ";
    append_fixed(msg, ideal_duty * 100, 3);
    msg +=
        " %): the switch would be on for less than 1 % of each period, shorter than any "
        "controller's minimum on-time; raise vout_v to at least ";
    append_fixed(msg, vin / (1 - kMinIdealDuty), 3);
    msg += " V";
    return ToolError{"vout_v", std::move(msg)};
  }
  // SLVA372 eq. 1: the efficiency raises the duty cycle to cover the losses. η ≤ 1 and
  // V_out > V_in keep 0 < D < 1.
  const double duty = 1 - vin * eta / vout;
  // The inductor carries the input current, P_out/(η·V_in) = I_out/(1 − D).
  const double inductor_current = iout / (1 - duty);
  const double ripple = ripple_frac * inductor_current;
  const double inductance = vin * (vout - vin) / (ripple * fs_hz * vout);
  const double peak = inductor_current + ripple / 2;
  const double max_iout = (limit - ripple / 2) * (1 - duty);
  if (max_iout < iout) {
    std::string msg = "switch_current_limit_a of " + format_shortest(limit) +
                      " A is below the peak switch current of ";
    append_fixed(msg, peak, 3);
    msg += " A, so the converter can deliver only ";
    append_fixed(msg, max_iout > 0 ? max_iout : 0, 3);
    msg +=
        " A: choose a converter with a higher current limit, allow more inductance (less "
        "ripple) or lower iout_a";
    return ToolError{"switch_current_limit_a", std::move(msg)};
  }
  const double cout = iout * duty / (fs_hz * dv_out);
  Outputs out;
  out.set("duty_cycle_pct", duty * 100)
      .set("inductor_current_a", inductor_current)
      .set("ripple_current_a", ripple)
      .set("inductance_uh", inductance * 1e6)
      .set("peak_switch_current_a", peak)
      .set("max_output_current_a", max_iout)
      .set("min_output_capacitance_uf", cout * 1e6)
      .set("duty_cycle", duty)
      .set("inductor_current_ma", inductor_current * 1e3)
      .set("ripple_current_ma", ripple * 1e3)
      .set("inductance_nh", inductance * 1e9)
      .set("peak_switch_current_ma", peak * 1e3)
      .set("max_output_current_ma", max_iout * 1e3)
      .set("min_output_capacitance_pf", cout * 1e12);
  return out;
}

}  // namespace

Tool make_boost_converter() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
