// Buck (step-down) converter power stage after TI SLVA477B: duty cycle, inductor ripple,
// inductance, peak switch current and minimum output capacitance in continuous conduction.
// Formula, bounds, references and worked examples: docs/tools/buck-converter.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/electronics/power_stage.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Above this duty cycle the switch would be off for less than 1 % of the period: shorter
// than the minimum off-time of any practical controller (bootstrap refresh, current sense
// blanking), and the inductor volt-seconds that the ripple formula sizes shrink to nothing.
constexpr double kMaxDuty = 0.99;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "buck-converter";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Buck Converter Power Stage";
  t.description =
      "Power stage of a step-down (buck) converter in continuous conduction, after TI SLVA477B: "
      "duty cycle with the converter's efficiency, inductor ripple current, the inductance that "
      "gives it, peak switch current and the minimum output capacitance for an output ripple.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "vin_v",
                    .label = "Input voltage V_in",
                    .unit = "V",
                    .help = "Input voltage. Enter the maximum input voltage: it gives the largest "
                            "ripple current and so the inductance and capacitance that cover the "
                            "whole input range.",
                    .min = 1,
                    .max = 100,
                    .step = 0.1,
                    .default_value = 12}),
      number_input({.key = "vout_v",
                    .label = "Output voltage V_out",
                    .unit = "V",
                    .help =
                        "Regulated output voltage. It must stay below V_in × efficiency (a buck "
                        "only steps down), with a duty cycle of at most 99 %.",
                    .min = 0.5,
                    .max = 60,
                    .step = 0.1,
                    .default_value = 3.3}),
      number_input({.key = "iout_a",
                    .label = "Output current I_out",
                    .unit = "A",
                    .help = "Maximum load current.",
                    .min = 0.01,
                    .max = 50,
                    .step = 0.01,
                    .default_value = 2}),
      power_stage::switching_frequency_input(500),
      number_input({.key = "efficiency_pct",
                    .label = "Efficiency η",
                    .unit = "%",
                    .help = "Estimated efficiency at this operating point, from the data sheet's "
                            "efficiency curve (80–95 % is typical); 100 % gives the ideal duty "
                            "cycle V_out/V_in.",
                    .min = 50,
                    .max = 100,
                    .step = 1,
                    .default_value = 90}),
      number_input({.key = "ripple_current_pct",
                    .label = "Inductor ripple current",
                    .unit = "% of I_out",
                    .help = "Peak-to-peak inductor ripple as a percentage of the output current; "
                            "20–40 % is the usual choice.",
                    .min = 5,
                    .max = 100,
                    .step = 1,
                    .default_value = 30}),
      number_input({.key = "output_ripple_mv",
                    .label = "Output voltage ripple ΔV_out",
                    .unit = "mV",
                    .help = "Allowed peak-to-peak output voltage ripple from the capacitance (the "
                            "capacitor's ESR adds ΔI_L × ESR on top).",
                    .min = 1,
                    .max = 1000,
                    .step = 1,
                    .default_value = 20}),
  };
  t.outputs = {
      number_output({.key = "duty_cycle_pct",
                     .label = "Duty cycle D = V_out/(V_in·η)",
                     .unit = "%",
                     .precision = 1,
                     .small_values_in = "duty_cycle"}),
      power_stage::output(power_stage::Output::RippleCurrentA),
      power_stage::output(power_stage::Output::InductanceUh),
      power_stage::output(power_stage::Output::PeakSwitchCurrentA),
      power_stage::output(power_stage::Output::MinOutputCapacitanceUf),
      power_stage::output(power_stage::Output::DutyCycle),
      power_stage::output(power_stage::Output::RippleCurrentMa),
      power_stage::output(power_stage::Output::InductanceNh),
      power_stage::output(power_stage::Output::PeakSwitchCurrentMa),
      power_stage::output(power_stage::Output::MinOutputCapacitancePf),
  };
  t.references = {
      "B. Hauke, \"Basic Calculation of a Buck Converter's Power Stage\", Texas Instruments "
      "application report SLVA477B, December 2011, revised August 2015: eq. 1 "
      "(D = V_out/(V_in·η)), inductor selection (L = V_out·(V_in − V_out)/(ΔI_L·f_s·V_in)), "
      "maximum switch current (I_out + ΔI_L/2), output capacitor selection "
      "(C_out(min) = ΔI_L/(8·f_s·ΔV_out))",
      "Texas Instruments, TPS54290/TPS54291/TPS54292 data sheet SLUS973, October 2009, design "
      "example 1, equations 16–21 (duty cycle, 30 % ripple, minimum inductance)",
      "R. W. Erickson, D. Maksimović, \"Fundamentals of Power Electronics\", 2nd ed., Kluwer, "
      "2001, §2.2 (inductor volt-second balance and the small-ripple approximation of the buck "
      "converter) and §2.5 (output ripple of the two-pole L-C filter, ΔI_L/(8·f_s·C))",
  };
  t.examples = {
      {.title = "TPS54291 design example 1, channel 1: 14 V to 3.3 V at 1.5 A, 600 kHz",
       .request_json = R"({"vin_v":14,"vout_v":3.3,"iout_a":1.5,"switching_frequency_khz":600,)"
                       R"("efficiency_pct":100,"ripple_current_pct":30,"output_ripple_mv":50})",
       .expected_json = R"({"duty_cycle_pct":23.6,"ripple_current_a":0.450,"inductance_uh":9.35})",
       .tolerance_pct = 0.5,
       .source = "Texas Instruments, TPS54290/1/2 data sheet SLUS973 (October 2009), p. 21, "
                 "\"Step by Step Design Procedure\", equations 17, 18 and 20: D_MIN1 = 3.3/14 = "
                 "0.236, I_LRIP1 = 0.30 × 1.5 A = 0.450 A, L_MIN1 = 9.35 µH at 600 kHz (TI "
                 "multiplies by the rounded D, hence 9.35 against the exact 9.34)"},
      {.title = "TPS54291 design example 1, channel 2: 14 V to 1.2 V at 2.5 A, 600 kHz",
       .request_json = R"({"vin_v":14,"vout_v":1.2,"iout_a":2.5,"switching_frequency_khz":600,)"
                       R"("efficiency_pct":100,"ripple_current_pct":30,"output_ripple_mv":24})",
       .expected_json = R"({"duty_cycle_pct":8.6,"ripple_current_a":0.750,"inductance_uh":2.45})",
       .tolerance_pct = 0.6,
       .source = "Texas Instruments, TPS54290/1/2 data sheet SLUS973 (October 2009), p. 21, "
                 "equations 17, 19 and 21: D_MIN2 = 1.2/14 = 0.086, I_LRIP2 = 0.30 × 2.5 A = "
                 "0.750 A, L_MIN2 = 2.45 µH (computed with D rounded to 0.086; the exact value is "
                 "2.44 µH)"},
      {.title = "12 V to 5 V at 2 A, 400 kHz, 88 % efficiency, 50 mV ripple",
       .request_json = R"({"vin_v":12,"vout_v":5,"iout_a":2,"switching_frequency_khz":400,)"
                       R"("efficiency_pct":88,"ripple_current_pct":30,"output_ripple_mv":50})",
       .expected_json = R"({"duty_cycle_pct":47.3,"ripple_current_a":0.6,)"
                        R"("peak_switch_current_a":2.3,"min_output_capacitance_uf":3.75})",
       .tolerance_pct = 0.2,
       .source = "RF Tools, \"Buck Converter Design Guide: Inductor, Capacitor, and Efficiency\" "
                 "(rftools.io/blog/buck-converter-design-guide, February 2026), \"Worked "
                 "Example: 12V → 5V at 2A\", steps 1, 2, 4 and 5: D = 5/(12 × 0.88) = 0.473, "
                 "ΔI_L = 0.6 A, C = 0.6/(8 × 400 kHz × 0.05 V) = 3.75 µF, I_peak = 2.3 A (its "
                 "step-3 inductance uses V_out·(1 − D) with the efficiency-corrected D, a "
                 "different estimate, so it is not compared)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const auto [vin, vout, iout, fs_hz, eta, ripple_frac, dv_out] = power_stage::read_inputs(in);

  // SLVA477B eq. 1: the efficiency raises the duty cycle to cover the losses.
  const double duty = vout / (vin * eta);
  if (duty >= 1) {
    std::string msg = "vout_v of " + format_shortest(vout) + " V is not below vin_v × efficiency (";
    append_fixed(msg, vin * eta, 3);
    msg += " V): a buck converter only steps down; lower vout_v or raise vin_v";
    return ToolError{"vout_v", std::move(msg)};
  }
  if (duty > kMaxDuty) {
    std::string msg = "vout_v of " + format_shortest(vout) + " V needs a duty cycle of ";
    append_fixed(msg, duty * 100, 2);
    msg +=
        " %, above 99 %: the switch would be off for less than 1 % of each period, shorter "
        "than any controller's minimum off-time; lower vout_v to at most ";
    append_fixed(msg, kMaxDuty * vin * eta, 3);
    msg += " V or raise vin_v";
    return ToolError{"vout_v", std::move(msg)};
  }
  // SLVA477B inductor selection: the ripple is chosen as a fraction of the output current.
  const double ripple = ripple_frac * iout;
  const double inductance = vout * (vin - vout) / (ripple * fs_hz * vin);
  const double peak = iout + ripple / 2;
  // SLVA477B output capacitor selection: the capacitive part of the output ripple.
  const double cout = ripple / (8 * fs_hz * dv_out);
  Outputs out;
  out.set("duty_cycle_pct", duty * 100)
      .set("ripple_current_a", ripple)
      .set("inductance_uh", inductance * 1e6)
      .set("peak_switch_current_a", peak)
      .set("min_output_capacitance_uf", cout * 1e6)
      .set("duty_cycle", duty)
      .set("ripple_current_ma", ripple * 1e3)
      .set("inductance_nh", inductance * 1e9)
      .set("peak_switch_current_ma", peak * 1e3)
      .set("min_output_capacitance_pf", cout * 1e12);
  return out;
}

}  // namespace

Tool make_buck_converter() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
