// First-order RC low-pass / high-pass filter: cut-off frequency, time constant, and gain and
// phase at a frequency of interest. Formula, references and worked examples:
// docs/tools/rc-filter.md.
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "rc-filter";
  t.domain = "electronics";
  t.version = "1.1.0";
  t.name = "RC Filter";
  t.description =
      "First-order RC low-pass or high-pass filter: the −3 dB cut-off frequency and time "
      "constant, and the gain (attenuation) and phase shift at a frequency of interest.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "resistance_ohm",
                    .label = "Resistance R",
                    .unit = "Ω",
                    .help = "Series resistance, including the source's output resistance if it "
                            "is significant. The formulas assume the output drives a load much "
                            "lighter than R (low-pass) or C (high-pass); otherwise fold the load "
                            "into the network.",
                    .min = 1,
                    .max = 10000000,
                    .step = 1,
                    .default_value = 1000}),
      number_input({.key = "capacitance_nf",
                    .label = "Capacitance C",
                    .unit = "nF",
                    .help = "Capacitance in nanofarads: 0.001 nF = 1 pF, 1000 nF = 1 µF.",
                    .min = 0.001,
                    .max = 1000000,
                    .step = 0.001,
                    .default_value = 100}),
      choice_input({.key = "filter_type",
                    .label = "Filter type",
                    .help = "low-pass: series R, shunt C (output across C) — passes DC, "
                            "attenuates above the cut-off. high-pass: series C, shunt R (output "
                            "across R) — blocks DC, passes above it.",
                    .options = {"low-pass", "high-pass"},
                    .default_value = "low-pass"}),
      number_input({.key = "frequency_hz",
                    .label = "Frequency of interest",
                    .unit = "Hz",
                    .help = "Frequency at which to report the gain and phase, e.g. the noise or "
                            "signal frequency to reject or pass.",
                    .min = 0.001,
                    .max = 1e9,
                    .step = 1,
                    .default_value = 10000}),
  };
  // Each quantity spans many decades over the input bounds (τ from 1 ps to 10⁴ s, f/f_c from
  // 6e-15 to 6e13), so each coarse output names the output that keeps 3 significant digits
  // where it would not: a smaller unit, the reciprocal of a ratio, or the same gain on the
  // other (linear or logarithmic) scale. docs/tools/rc-filter.md, "Outputs".
  t.outputs = {
      number_output({.key = "cutoff_hz",
                     .label = "Cut-off frequency f_c (−3 dB)",
                     .unit = "Hz",
                     .precision = 4,
                     .small_values_in = "cutoff_uhz"}),
      number_output({.key = "cutoff_uhz",
                     .label = "Cut-off frequency f_c in µHz (for cut-offs below 0.01 Hz)",
                     .unit = "µHz",
                     .precision = 1}),
      number_output({.key = "time_constant_us",
                     .label = "Time constant τ = RC",
                     .unit = "µs",
                     .precision = 4,
                     .small_values_in = "time_constant_ps"}),
      number_output({.key = "time_constant_ps",
                     .label = "Time constant τ in ps (for τ below 10 ns)",
                     .unit = "ps",
                     .precision = 2}),
      number_output({.key = "frequency_ratio",
                     .label = "f / f_c",
                     .unit = "",
                     .precision = 4,
                     .small_values_in = "inverse_frequency_ratio"}),
      number_output({.key = "inverse_frequency_ratio",
                     .label = "f_c / f",
                     .unit = "",
                     .precision = 4,
                     .small_values_in = "frequency_ratio"}),
      number_output({.key = "gain_db",
                     .label = "Gain at f (negative = attenuation)",
                     .unit = "dB",
                     .precision = 2,
                     .small_values_in = "gain_ratio"}),
      number_output({.key = "gain_ratio",
                     .label = "Amplitude ratio |Vout/Vin| at f",
                     .unit = "",
                     .precision = 4,
                     .small_values_in = "gain_db"}),
      // Below 1° the phase in radians is ∓f/f_c (low-pass) or f_c/f (high-pass) to 0.01 %:
      // the ratio outputs carry it.
      number_output({.key = "phase_deg",
                     .label = "Phase of Vout relative to Vin at f",
                     .unit = "°",
                     .precision = 2,
                     .small_values_in = "frequency_ratio"}),
  };
  t.references = {
      "P. Horowitz, W. Hill, \"The Art of Electronics\", 3rd ed., Cambridge University Press, "
      "2015, §1.7 (impedance and reactance; RC high-pass and low-pass filters, f_3dB = "
      "1/(2πRC), and their phase shift)",
      "A. S. Sedra, K. C. Smith, \"Microelectronic Circuits\", Oxford University Press, "
      "appendix on single-time-constant (STC) circuits: |T| = 1/√(1 + (ω/ω0)²) low-pass, "
      "1/√(1 + (ω0/ω)²) high-pass",
  };
  t.examples = {
      {.title = "Passive low-pass: 4.7 kΩ, 47 nF",
       .request_json = R"({"resistance_ohm":4700,"capacitance_nf":47,"filter_type":"low-pass",)"
                       R"("frequency_hz":720})",
       .expected_json = R"({"cutoff_hz":720,"gain_db":-3.01,"phase_deg":-45})",
       .tolerance_pct = 0.1,
       .source = "Electronics Tutorials, \"Passive Low Pass Filter\" (electronics-tutorials.ws/"
                 "filter/filter_2.html), worked example: 4k7 Ω and 47 nF give fc ≈ 720 Hz, where "
                 "the output is −3 dB and lags by 45°"},
      {.title = "Passive high-pass: 240 kΩ, 82 pF",
       .request_json = R"({"resistance_ohm":240000,"capacitance_nf":0.082,)"
                       R"("filter_type":"high-pass","frequency_hz":8087})",
       .expected_json = R"({"cutoff_hz":8087,"phase_deg":45})",
       .tolerance_pct = 0.1,
       .source = "Electronics Tutorials, \"Passive High Pass Filter\" (electronics-tutorials.ws/"
                 "filter/filter_3.html), example: 82 pF in series with 240 kΩ gives fc = 8,087 Hz, "
                 "where the output leads by 45°"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double tau_s = in.number("resistance_ohm") * (in.number("capacitance_nf") * 1e-9);
  const double cutoff = 1 / (2 * std::numbers::pi * tau_s);
  const double x = in.number("frequency_hz") / cutoff;
  // H_lp = 1/(1 + jx), H_hp = jx/(1 + jx) = 1/(1 − j/x). Both are 1/(1 + j·u) up to the sign
  // of the phase, with u = x (low-pass) or 1/x (high-pass); log1p keeps the gain exact for
  // u ≪ 1, where 1 + u² would round to 1.
  const bool low_pass = in.enumeration("filter_type") == "low-pass";
  const double u = low_pass ? x : 1 / x;
  const double gain_db = -10 * std::log1p(u * u) / std::numbers::ln10;
  const double phase_deg = std::atan(u) * 180 / std::numbers::pi;
  Outputs out;
  out.set("cutoff_hz", cutoff)
      .set("cutoff_uhz", cutoff * 1e6)
      .set("time_constant_us", tau_s * 1e6)
      .set("time_constant_ps", tau_s * 1e12)
      .set("frequency_ratio", x)
      .set("inverse_frequency_ratio", 1 / x)
      .set("gain_db", gain_db)
      .set("gain_ratio", 1 / std::sqrt(1 + u * u))
      .set("phase_deg", low_pass ? -phase_deg : phase_deg);
  return out;
}

}  // namespace

Tool make_rc_filter() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
