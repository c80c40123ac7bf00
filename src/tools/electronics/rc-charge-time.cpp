// A capacitor charging from a supply, or discharging to 0 V, through a resistor: the time
// constant, the time to reach a target voltage and the voltage after a given time. Formula,
// bounds, references and worked examples: docs/tools/rc-charge-time.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The window, in time constants after the start, where the ideal exponential says something
// a real RC circuit does: before 0.001·τ the capacitor has covered under 0.1 % of its swing,
// less than its ESR step and the source's edge; after 10·τ it is within 0.005 % (e^−10) of its
// final voltage, below the dielectric absorption and leakage of real capacitors.
constexpr double kMinTau = 0.001;
constexpr double kMaxTau = 10;
// Slack on the window's ends, so that an end entered exactly (t = 10·RC) is not refused for
// a rounding error in t/τ.
constexpr double kWindowSlack = 1e-9;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "rc-charge-time";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "RC Charge and Discharge Time";
  t.description =
      "A capacitor charging toward a supply, or discharging to 0 V, through a resistor: the "
      "time constant RC, the time to reach a target voltage, and the voltage after a given "
      "time.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "mode",
                    .label = "Mode",
                    .help = "charge: C charges from initial_v toward supply_v through R. "
                            "discharge: C, charged to supply_v, discharges through R to 0 V.",
                    .options = {"charge", "discharge"},
                    .default_value = "charge"}),
      number_input({.key = "resistance_ohm",
                    .label = "Resistance R",
                    .unit = "Ω",
                    .help = "Total series resistance, including the source's output resistance "
                            "and any significant ESR.",
                    .min = 10,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 10000}),
      number_input({.key = "capacitance_uf",
                    .label = "Capacitance C",
                    .unit = "µF",
                    .help = "In microfarads: 0.001 µF = 1 nF, 100000 µF = 0.1 F.",
                    .min = 0.001,
                    .max = 100000,
                    .step = 0.001,
                    .default_value = 100}),
      number_input({.key = "supply_v",
                    .label = "Supply / starting voltage",
                    .unit = "V",
                    .help = "charge: the supply voltage behind R, which C approaches but never "
                            "reaches. discharge: the voltage C starts from.",
                    .min = 0.1,
                    .max = 100000,
                    .step = 0.1,
                    .default_value = 5}),
      number_input({.key = "initial_v",
                    .label = "Initial capacitor voltage (charge)",
                    .unit = "V",
                    .help = "charge only: the voltage already on C at t = 0, below supply_v "
                            "(0 for an empty capacitor). Not used when discharging.",
                    .min = 0,
                    .max = 100000,
                    .step = 0.1,
                    .default_value = 0,
                    .required = false}),
      number_input({.key = "target_v",
                    .label = "Target voltage",
                    .unit = "V",
                    .help = "The voltage whose time to reach is reported: charge, between "
                            "initial_v and supply_v; discharge, between 0 and supply_v.",
                    .min = 0.001,
                    .max = 100000,
                    .step = 0.001,
                    .default_value = 3.3}),
      number_input({.key = "time_ms",
                    .label = "Elapsed time t",
                    .unit = "ms",
                    .help = "The time after the start at which to report the capacitor voltage, "
                            "between 0.001 and 10 time constants.",
                    .min = 0.000001,
                    .max = 10000000000,
                    .step = 0.000001,
                    .default_value = 1000}),
  };
  t.outputs = {
      number_output({.key = "time_constant_ms",
                     .label = "Time constant τ = R·C",
                     .unit = "ms",
                     .precision = 4,
                     .small_values_in = "time_constant_us"}),
      number_output({.key = "time_constant_us",
                     .label = "Time constant τ, in µs",
                     .unit = "µs",
                     .precision = 4}),
      number_output({.key = "time_to_target_ms",
                     .label = "Time to reach the target voltage",
                     .unit = "ms",
                     .precision = 4,
                     .small_values_in = "time_to_target_tau"}),
      number_output({.key = "time_to_target_tau",
                     .label = "Time to reach the target, in time constants",
                     .unit = "τ",
                     .precision = 5}),
      number_output({.key = "voltage_at_time_v",
                     .label = "Capacitor voltage at t",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "voltage_at_time_mv"}),
      number_output({.key = "voltage_at_time_mv",
                     .label = "Capacitor voltage at t, in mV",
                     .unit = "mV",
                     .precision = 5}),
      number_output(
          {.key = "elapsed_tau", .label = "t in time constants", .unit = "τ", .precision = 5}),
  };
  t.references = {
      "S. J. Ling, J. Sanny, W. Moebs, \"University Physics Volume 2\", OpenStax, 2016, §10.5 "
      "RC Circuits: charging V_C(t) = ε(1 − e^(−t/τ)), discharging V_C(t) = V_0·e^(−t/τ), "
      "τ = RC; Examples 10.8 (relaxation oscillator) and 10.9 (intermittent wipers)",
      "P. P. Urone, R. Hinrichs, \"College Physics 2e\", OpenStax, 2022, §21.6 DC Circuits "
      "Containing Resistors and Capacitors: τ = RC, after one τ a charging capacitor reaches "
      "0.632 of its final voltage and a discharging one falls to 0.368; Example 21.7 (heart "
      "defibrillator)",
  };
  t.examples = {
      {.title = "Relaxation oscillator: 101 Ω, 50 mF charged by 100 V to 80 V",
       .request_json = R"({"mode":"charge","resistance_ohm":101,"capacitance_uf":50000,)"
                       R"("supply_v":100,"target_v":80,"time_ms":8130})",
       .expected_json = R"({"time_constant_ms":5050,"time_to_target_ms":8130})",
       .tolerance_pct = 0.1,
       .source = "OpenStax University Physics Volume 2, §10.5, Example 10.8 \"The Relaxation "
                 "Oscillator\": τ = (101 Ω)(50 × 10⁻³ F) = 5.05 s and the lamp flashes at 80 V "
                 "after t = −5.05 s · ln(1 − 80 V/100 V) = 8.13 s"},
      {.title = "Intermittent wipers: 10 kΩ, 10 mF charged by 12 V to 10 V",
       .request_json = R"({"mode":"charge","resistance_ohm":10000,"capacitance_uf":10000,)"
                       R"("supply_v":12,"target_v":10,"time_ms":100000})",
       .expected_json = R"({"time_to_target_ms":179180})",
       .tolerance_pct = 0.01,
       .source = "OpenStax University Physics Volume 2, §10.5, Example 10.9 \"Intermittent "
                 "Windshield Wipers\": at the rheostat's maximum, 10 kΩ with 10.00 mF reaches "
                 "10 V of 12 V after t = −RC·ln(1 − 10 V/12 V) = 179.18 s"},
      {.title = "Defibrillator: 8.00 µF through 1.00 kΩ from 10.0 kV",
       .request_json = R"({"mode":"discharge","resistance_ohm":1000,"capacitance_uf":8,)"
                       R"("supply_v":10000,"target_v":500,"time_ms":24})",
       .expected_json = R"({"time_constant_ms":8,"time_to_target_ms":24,"voltage_at_time_v":498})",
       .tolerance_pct = 0.2,
       .source = "OpenStax College Physics 2e, §21.6, Example 21.7 \"Calculating Time: RC "
                 "Circuit in a Heart Defibrillator\": τ = 8.00 ms; the voltage falls from "
                 "10.0 kV to 498 V, below 500 V, at t = 24.0 ms (three steps of ×0.368)"},
  };
  return t;
}

std::string ms_text(double s) {
  std::string text;
  append_fixed(text, s * 1e3, 6);
  return text + " ms";
}

ComputeResult compute(const Inputs& in) {
  const bool charging = in.enumeration("mode") == "charge";
  const double supply = in.number("supply_v");
  const double initial = in.number("initial_v");
  const double target = in.number("target_v");
  const double tau_s = in.number("resistance_ohm") * in.number("capacitance_uf") * 1e-6;
  const double t_s = in.number("time_ms") * 1e-3;

  // V(t) = V_end + (V_start − V_end)·e^(−t/τ).
  const double v_start = charging ? initial : supply;
  const double v_end = charging ? supply : 0.0;
  if (charging && initial >= supply)
    return ToolError{"initial_v",
                     "the capacitor already holds initial_v ≥ supply_v, so it does not charge; "
                     "enter an initial voltage below the supply (or choose discharge)"};
  if (charging && target >= supply)
    return ToolError{"target_v",
                     "a charging capacitor approaches supply_v but never reaches it: a target "
                     "at or above the supply is never reached; enter a target below supply_v"};
  if (charging && target <= initial)
    return ToolError{"target_v",
                     "the capacitor starts at initial_v, already at or above target_v; enter a "
                     "target between initial_v and supply_v"};
  if (!charging && target >= supply)
    return ToolError{"target_v",
                     "a discharging capacitor starts at supply_v and only falls: a target at or "
                     "above it is already passed at t = 0; enter a target below supply_v"};
  // The fraction of the swing the target lies at: the time to it is −τ·ln(1 − p).
  const double p = (target - v_start) / (v_end - v_start);
  const double to_target = -std::log1p(-p);  // in time constants
  if (to_target < kMinTau * (1 - kWindowSlack)) {
    std::string msg =
        "target_v is within 0.1 % of the swing from the starting voltage: it is reached after "
        "less than 0.001 τ (" +
        ms_text(kMinTau * tau_s) +
        "), where the capacitor's ESR and the source's edge dominate; move the target further "
        "from the start";
    return ToolError{"target_v", std::move(msg)};
  }
  if (to_target > kMaxTau * (1 + kWindowSlack)) {
    std::string msg =
        "target_v is within 0.005 % of the final voltage: it is reached only after more than "
        "10 τ (" +
        ms_text(kMaxTau * tau_s) +
        "), past where leakage and dielectric absorption of a real capacitor dominate; move the "
        "target further from the final voltage";
    return ToolError{"target_v", std::move(msg)};
  }
  const double elapsed = t_s / tau_s;
  if (elapsed < kMinTau * (1 - kWindowSlack) || elapsed > kMaxTau * (1 + kWindowSlack)) {
    std::string msg = "time_ms must lie between 0.001 τ and 10 τ (" + ms_text(kMinTau * tau_s) +
                      " to " + ms_text(kMaxTau * tau_s) +
                      "): earlier the capacitor has hardly moved, later it has settled within "
                      "0.005 % of its final voltage";
    return ToolError{"time_ms", std::move(msg)};
  }
  const double v_at = v_end + (v_start - v_end) * std::exp(-elapsed);
  Outputs out;
  out.set("time_constant_ms", tau_s * 1e3)
      .set("time_constant_us", tau_s * 1e6)
      .set("time_to_target_ms", to_target * tau_s * 1e3)
      .set("time_to_target_tau", to_target)
      .set("voltage_at_time_v", v_at)
      .set("voltage_at_time_mv", v_at * 1e3)
      .set("elapsed_tau", elapsed);
  return out;
}

}  // namespace

Tool make_rc_charge_time() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
