// NE555 timer in monostable (one-shot) mode: output pulse width t_w = 1.1·R·C. Formula,
// bounds, references and worked examples: docs/tools/ne555-monostable.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The capacitor charges from 0 to the 2/3·VCC threshold: ln(3)·R·C = 1.0986·R·C, which the
// data sheets round up to 1.1·R·C to cover the threshold level and the discharge
// transistor's saturation voltage.
constexpr double kMonostableFactor = 1.1;
// The trigger comparator's storage time (up to 10 µs with TRIG grounded) makes shorter
// pulses unreliable: TI's 555 data sheets give 10 µs as the minimum pulse duration.
constexpr double kMinPulseS = 10e-6;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "ne555-monostable";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "NE555 Monostable Pulse Width";
  t.description =
      "NE555 timer wired as a one-shot (monostable): the width of the output pulse that a "
      "trigger starts, t_w = 1.1·R·C.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "resistance_ohm",
                    .label = "Timing resistor R",
                    .unit = "Ω",
                    .help = "Resistor from VCC to the joined DISCH and THRES pins (R_A in the data "
                            "sheets): 1 kΩ to 10 MΩ. Above about 3 MΩ at a 5 V supply the "
                            "threshold input current starts to lengthen the pulse.",
                    .min = 1000,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 100000}),
      number_input({.key = "capacitance_uf",
                    .label = "Timing capacitor C",
                    .unit = "µF",
                    .help = "Capacitor from DISCH/THRES to ground, in microfarads: 0.001 µF = "
                            "1 nF. For long delays use a low-leakage capacitor: its leakage must "
                            "stay far below the charging current VCC/R.",
                    .min = 0.001,
                    .max = 1000,
                    .step = 0.001,
                    .default_value = 10}),
  };
  t.outputs = {
      number_output({.key = "pulse_width_s",
                     .label = "Pulse width t_w = 1.1·R·C",
                     .unit = "s",
                     .precision = 4,
                     .small_values_in = "pulse_width_ms"}),
      number_output(
          {.key = "pulse_width_ms", .label = "Pulse width t_w", .unit = "ms", .precision = 4}),
  };
  t.references = {
      "Texas Instruments, \"xx555 Precision Timers\" (NA555, NE555, SA555, SE555), data sheet "
      "SLFS022, §6.3.1 Monostable Operation: output pulse duration t_w ≈ 1.1·R_A·C",
      "Texas Instruments, TLC555-Q1 timer data sheet SLFS078C, section \"Monostable "
      "Operation\": t_w = 1.1·R_A·C \"because of the threshold level and saturation voltage of "
      "Q1\"; the comparator storage time, up to 10 µs, limits the minimum monostable pulse "
      "duration to 10 µs",
  };
  t.examples = {
      {.title = "500 kΩ and 10 µF: 5.5 s",
       .request_json = R"({"resistance_ohm":500000,"capacitance_uf":10})",
       .expected_json = R"({"pulse_width_s":5.5})",
       .tolerance_pct = 0,
       .source = "Dummies.com, \"Electronics Components: Calculate the Time Interval for a "
                 "Monostable Circuit\", https://www.dummies.com/programming/electronics/components/"
                 "electronics-components-calculate-the-time-interval-for-a-monostable-circuit/: "
                 "R1 = 500 kΩ, C1 = 10 µF give T = 5.5 s"},
      {.title = "100 kΩ and 10 µF: 1.1 s",
       .request_json = R"({"resistance_ohm":100000,"capacitance_uf":10})",
       .expected_json = R"({"pulse_width_s":1.1,"pulse_width_ms":1100})",
       .tolerance_pct = 0,
       .source = "The Prime Calculator, \"555 Timer Monostable Mode — Formula\", worked example "
                 "(https://theprimecalculator.com/pt/electronics/monostable-555-timer/formula): "
                 "R = 100k, C = 10 µF give T = 1.1 s = 1100 ms"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double pulse_s =
      kMonostableFactor * in.number("resistance_ohm") * in.number("capacitance_uf") * 1e-6;
  if (pulse_s < kMinPulseS) {
    std::string msg = "the pulse would be ";
    append_fixed(msg, pulse_s * 1e6, 3);
    msg +=
        " µs, shorter than the 10 µs the 555's trigger comparator needs (its storage time is "
        "up to 10 µs); make R·C at least 9.1 µs, e.g. a larger capacitance_uf";
    return ToolError{"capacitance_uf", std::move(msg)};
  }
  Outputs out;
  out.set("pulse_width_s", pulse_s).set("pulse_width_ms", pulse_s * 1e3);
  return out;
}

}  // namespace

Tool make_ne555_monostable() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
