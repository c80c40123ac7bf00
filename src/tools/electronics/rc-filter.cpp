// First-order RC low-pass / high-pass filter: cut-off frequency, time constant, and gain and
// phase at a frequency of interest (issue 10). Formula, references and worked examples:
// docs/tools/rc-filter.md.
#include <cmath>
#include <numbers>

#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "rc-filter";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "RC Filter";
  t.description =
      "First-order RC low-pass or high-pass filter: the −3 dB cut-off frequency and time "
      "constant, and the gain (attenuation) and phase shift at a frequency of interest.";
  t.standard = std::nullopt;
  auto number = [](std::string key, std::string label, std::string unit, std::string help,
                   double min, double max, double step, double def) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Number;
    in.unit = std::move(unit);
    in.help = std::move(help);
    in.min = min;
    in.max = max;
    in.step = step;
    in.default_value = def;
    return in;
  };
  InputDescriptor type;
  type.key = "filter_type";
  type.label = "Filter type";
  type.type = InputType::Enum;
  type.help =
      "low-pass: series R, shunt C (output across C) — passes DC, attenuates above the "
      "cut-off. high-pass: series C, shunt R (output across R) — blocks DC, passes above it.";
  type.default_value = std::string("low-pass");
  type.options = {"low-pass", "high-pass"};
  t.inputs = {
      number("resistance_ohm", "Resistance R", "Ω",
             "Series resistance, including the source's output resistance if it is "
             "significant.",
             1, 10000000, 1, 1000),
      number("capacitance_nf", "Capacitance C", "nF",
             "Capacitance in nanofarads: 0.001 nF = 1 pF, 1000 nF = 1 µF.", 0.001, 1000000, 0.001,
             100),
      type,
      number("frequency_hz", "Frequency of interest", "Hz",
             "Frequency at which to report the gain and phase, e.g. the noise or signal "
             "frequency to reject or pass.",
             0.001, 1e9, 1, 10000),
  };
  auto out = [](std::string key, std::string label, std::string unit, int precision) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::Number;
    o.unit = std::move(unit);
    o.precision = precision;
    return o;
  };
  t.outputs = {
      out("cutoff_hz", "Cut-off frequency f_c (−3 dB)", "Hz", 4),
      out("time_constant_us", "Time constant τ = RC", "µs", 4),
      out("frequency_ratio", "f / f_c", "", 4),
      out("gain_db", "Gain at f (negative = attenuation)", "dB", 2),
      out("gain_ratio", "Amplitude ratio |Vout/Vin| at f", "", 4),
      out("phase_deg", "Phase of Vout relative to Vin at f", "°", 2),
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
      {"Defaults: 1 kΩ, 100 nF low-pass, at 10 kHz",
       R"({"resistance_ohm":1000,"capacitance_nf":100,"filter_type":"low-pass",)"
       R"("frequency_hz":10000})"},
      {"Audio coupling high-pass: 10 kΩ, 1 µF, at 20 Hz",
       R"({"resistance_ohm":10000,"capacitance_nf":1000,"filter_type":"high-pass",)"
       R"("frequency_hz":20})"},
      {"ADC anti-alias low-pass: 100 Ω, 10 nF, at 1 MHz",
       R"({"resistance_ohm":100,"capacitance_nf":10,"filter_type":"low-pass",)"
       R"("frequency_hz":1000000})"},
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
      .set("time_constant_us", tau_s * 1e6)
      .set("frequency_ratio", x)
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
