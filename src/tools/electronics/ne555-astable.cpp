// NE555 timer in astable (free-running) mode: high time, low time, period, frequency and duty
// cycle from R1, R2 and C. Formula, bounds, references and worked examples:
// docs/tools/ne555-astable.md.
#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The capacitor swings between the trigger (VCC/3) and threshold (2·VCC/3) levels: each half
// cycle lasts ln(2)·R·C, which the NE555 data sheets print as 0.693·R·C.
constexpr double kLn2AsPrinted = 0.693;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "ne555-astable";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "NE555 Astable Oscillator";
  t.description =
      "NE555 timer wired as a free-running (astable) oscillator: output high time, low time, "
      "period, frequency and duty cycle from the timing resistors R1, R2 and capacitor C.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "r1_ohm",
                    .label = "Resistor R1 (VCC to DISCH)",
                    .unit = "Ω",
                    .help = "Resistor from VCC to the DISCH pin (R_A in the data sheets). At "
                            "least 1 kΩ, which limits the discharge transistor's current. Keep "
                            "R1 + R2 within 20 MΩ at a 15 V supply (less at 5 V) so the "
                            "threshold input current stays negligible.",
                    .min = 1000,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "r2_ohm",
                    .label = "Resistor R2 (DISCH to THRES/TRIG)",
                    .unit = "Ω",
                    .help = "Resistor from DISCH to the joined THRES and TRIG pins (R_B); the "
                            "capacitor discharges through it alone. At least 1 kΩ.",
                    .min = 1000,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "capacitance_uf",
                    .label = "Timing capacitor C",
                    .unit = "µF",
                    .help = "Capacitor from THRES/TRIG to ground, in microfarads: 0.001 µF = 1 nF. "
                            "Up to 100 µF; larger electrolytics leak more than the charging "
                            "current of megohm resistors.",
                    .min = 0.001,
                    .max = 100,
                    .step = 0.001,
                    .default_value = 1}),
  };
  t.outputs = {
      number_output({.key = "frequency_hz", .label = "Frequency f", .unit = "Hz", .precision = 6}),
      number_output(
          {.key = "period_ms", .label = "Period T = t_H + t_L", .unit = "ms", .precision = 6}),
      number_output({.key = "high_time_ms",
                     .label = "Output high time t_H = 0.693·(R1 + R2)·C",
                     .unit = "ms",
                     .precision = 6}),
      number_output({.key = "low_time_ms",
                     .label = "Output low time t_L = 0.693·R2·C",
                     .unit = "ms",
                     .precision = 6}),
      number_output({.key = "duty_cycle_pct",
                     .label = "Duty cycle t_H / T (always above 50 %)",
                     .unit = "%",
                     .precision = 3}),
  };
  t.references = {
      "Texas Instruments, \"xx555 Precision Timers\" (NA555, NE555, SA555, SE555), data sheet "
      "SLFS022, §6.3.2 Astable Operation: t_H = 0.693·(R_A + R_B)·C, t_L = 0.693·R_B·C, "
      "f ≈ 1.44/((R_A + 2·R_B)·C); electrical characteristics, note on the threshold current "
      "that limits R_A + R_B",
      "STMicroelectronics, \"NE555, SA555, SE555 General-purpose single bipolar timers\", data "
      "sheet Doc ID 2182 Rev 6, Application information, Figures 15–16 (astable operation): "
      "t1 = 0.693·(R1 + R2)·C1, t2 = 0.693·R2·C1, T = 0.693·(R1 + 2·R2)·C1, f = 1.44/((R1 + "
      "2·R2)·C1), duty cycle (R1 + R2)/(R1 + 2·R2)",
      "Intersil, CA555/CA555C/LM555/LM555C/NE555 timer data sheet, Electrical Specifications "
      "note 3: the threshold current determines R1 + R2 of the astable circuit (Figure 4), at "
      "most 20 MΩ in total",
  };
  t.examples = {
      {.title = "R1 = R2 = 10 kΩ, C = 1 µF",
       .request_json = R"({"r1_ohm":10000,"r2_ohm":10000,"capacitance_uf":1})",
       .expected_json = R"({"frequency_hz":48.09,"period_ms":20.794,"high_time_ms":13.863,)"
                        R"("low_time_ms":6.931,"duty_cycle_pct":66.7})",
       .tolerance_pct = 0.1,
       .source = "Circflow 555 timer calculator, worked answer \"555 astable: R1=10kΩ, R2=10kΩ, "
                 "C=1µF\" at https://circflow.com/timer-555/10k-10k-1u (48.09 Hz, period "
                 "20.794 ms, t_high 13.863 ms, t_low 6.931 ms, duty 66.7 %; it uses ln 2 = "
                 "0.693147 where the data sheet prints 0.693, a 0.02 % difference)"},
      {.title = "R1 = 1 kΩ, R2 = 10 kΩ, C = 100 nF",
       .request_json = R"({"r1_ohm":1000,"r2_ohm":10000,"capacitance_uf":0.1})",
       .expected_json = R"({"frequency_hz":686.998,"period_ms":1.456,"high_time_ms":0.762462,)"
                        R"("low_time_ms":0.693147,"duty_cycle_pct":52.4})",
       .tolerance_pct = 0.1,
       .source = "Circflow 555 timer calculator, worked answer at "
                 "https://circflow.com/timer-555/1k-10k-100n (686.998 Hz, period 1.456 ms, "
                 "t_high 762.462 µs, t_low 693.147 µs, duty 52.4 %; ln 2 = 0.693147 there, "
                 "0.693 here)"},
      {.title = "R1 = 10 kΩ, R2 = 68 kΩ, C = 10 µF (about 1 Hz)",
       .request_json = R"({"r1_ohm":10000,"r2_ohm":68000,"capacitance_uf":10})",
       .expected_json = R"({"frequency_hz":0.988,"period_ms":1012,"high_time_ms":540.655,)"
                        R"("low_time_ms":471.34,"duty_cycle_pct":53.4})",
       .tolerance_pct = 0.1,
       .source = "Circflow 555 timer calculator, worked answer at "
                 "https://circflow.com/timer-555/10k-68k-10u (0.988 Hz, period 1.012 s, t_high "
                 "540.655 ms, t_low 471.34 ms, duty 53.4 %)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double r1 = in.number("r1_ohm");
  const double r2 = in.number("r2_ohm");
  const double c_f = in.number("capacitance_uf") * 1e-6;
  const double high_s = kLn2AsPrinted * (r1 + r2) * c_f;
  const double low_s = kLn2AsPrinted * r2 * c_f;
  const double period_s = high_s + low_s;
  Outputs out;
  out.set("frequency_hz", 1 / period_s)
      .set("period_ms", period_s * 1e3)
      .set("high_time_ms", high_s * 1e3)
      .set("low_time_ms", low_s * 1e3)
      .set("duty_cycle_pct", 100 * (r1 + r2) / (r1 + 2 * r2));
  return out;
}

}  // namespace

Tool make_ne555_astable() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
