// LC resonance: resonant frequency, characteristic impedance (the reactance of L and of C at
// resonance) and, with a series resistance, the quality factor, −3 dB bandwidth and damping.
// Formula, bounds, references and worked examples: docs/tools/lc-resonance.md.
#include <cmath>
#include <numbers>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Q bounds for a series resistance: below 0.01 the resistance swamps both reactances (an RL or
// RC network, not a resonator); above 10000 the resistance entered is below the losses of any
// lumped inductor and capacitor (air-core coils reach a few hundred).
constexpr double kMinQ = 0.01;
constexpr double kMaxQ = 10000;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "lc-resonance";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "LC Resonance";
  t.description =
      "Resonant frequency of an inductor and a capacitor, their characteristic impedance (the "
      "reactance of each at resonance) and, with a series resistance, the quality factor Q, "
      "the −3 dB bandwidth and the damping.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "inductance_uh",
                    .label = "Inductance L",
                    .unit = "µH",
                    .help = "In microhenries: 0.001 µH = 1 nH, 1000 µH = 1 mH, 10000000 µH = "
                            "10 H.",
                    .min = 0.001,
                    .max = 10000000,
                    .step = 0.001,
                    .default_value = 100}),
      number_input({.key = "capacitance_nf",
                    .label = "Capacitance C",
                    .unit = "nF",
                    .help = "In nanofarads: 0.001 nF = 1 pF, 1000 nF = 1 µF, 1000000 nF = "
                            "1000 µF.",
                    .min = 0.001,
                    .max = 1000000,
                    .step = 0.001,
                    .default_value = 100}),
      number_input({.key = "series_resistance_ohm",
                    .label = "Series resistance R (optional)",
                    .unit = "Ω",
                    .help = "Total resistance in series with L and C (the coil's ESR, a "
                            "resistor, the source). Leave 0 for an ideal lossless circuit: Q and "
                            "bandwidth are then reported as 0.",
                    .min = 0,
                    .max = 1000000,
                    .step = 0.001,
                    .default_value = 0,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "resonant_frequency_hz",
                     .label = "Resonant frequency f0 = 1/(2π√(LC))",
                     .unit = "Hz",
                     .precision = 2}),
      number_output({.key = "angular_frequency_rad_s",
                     .label = "Angular resonant frequency ω0 = 1/√(LC)",
                     .unit = "rad/s",
                     .precision = 1}),
      number_output({.key = "characteristic_impedance_ohm",
                     .label = "Characteristic impedance √(L/C) = X_L = X_C at f0",
                     .unit = "Ω",
                     .precision = 5}),
      number_output({.key = "quality_factor",
                     .label = "Quality factor Q = √(L/C)/R (0 when R = 0)",
                     .unit = "",
                     .precision = 4}),
      number_output({.key = "bandwidth_hz",
                     .label = "−3 dB bandwidth R/(2πL) = f0/Q (0 when R = 0)",
                     .unit = "Hz",
                     .precision = 6}),
      text_output({.key = "damping",
                   .label = "Damping of the series RLC",
                   .options = {"lossless", "underdamped", "critically-damped", "overdamped"}}),
  };
  t.references = {
      "S. J. Ling, J. Sanny, W. Moebs, \"University Physics Volume 2\", OpenStax, 2016, §14.5 "
      "Oscillations in an LC Circuit (ω = 1/√(LC)) and §15.5 Resonance in an AC Circuit: "
      "f0 = 1/(2π√(LC)), Q = ω0·L/R, bandwidth Δω = ω0/Q = R/L",
      "P. P. Urone, R. Hinrichs, \"College Physics 2e\", OpenStax, 2022, §23.11 Reactance, "
      "Inductive and Capacitive (X_L = 2πfL, X_C = 1/(2πfC)) and §23.12 RLC Series AC Circuits "
      "(resonant frequency f0 = 1/(2π√(LC)))",
  };
  t.examples = {
      {.title = "Series RLC: 0.200 Ω, 4.00 mH, 2.00 µF",
       .request_json =
           R"({"inductance_uh":4000,"capacitance_nf":2000,"series_resistance_ohm":0.2})",
       .expected_json = R"({"angular_frequency_rad_s":11200,"quality_factor":224})",
       .tolerance_pct = 0.2,
       .source = "OpenStax University Physics Volume 2, §15.5, Example 15.5 \"Power Transfer in "
                 "an RLC Series Circuit at Resonance\": ω0 = 1.12 × 10⁴ rad/s and Q = 224"},
      {.title = "3.00 mH and 5.00 µF resonate at 1.30 kHz",
       .request_json = R"({"inductance_uh":3000,"capacitance_nf":5000,"series_resistance_ohm":40})",
       .expected_json = R"({"resonant_frequency_hz":1300})",
       .tolerance_pct = 0.1,
       .source = "OpenStax College Physics 2e, §23.12, Example 23.13 \"Calculating Resonant "
                 "Frequency and Current\" (40.0 Ω, 3.00 mH, 5.00 µF): f0 = 1.30 kHz"},
      {.title = "3.00 mH and 800 µF resonate at 103 Hz",
       .request_json =
           R"({"inductance_uh":3000,"capacitance_nf":800000,"series_resistance_ohm":4})",
       .expected_json = R"({"resonant_frequency_hz":103})",
       .tolerance_pct = 0.3,
       .source = "OpenStax University Physics Volume 2, §15.5, Example 15.4 \"Resonance in an "
                 "RLC Series Circuit\" (4.00 Ω, 3.00 × 10⁻³ H, 8.00 × 10⁻⁴ F): f0 = "
                 "1.03 × 10² Hz"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double l_h = in.number("inductance_uh") * 1e-6;
  const double c_f = in.number("capacitance_nf") * 1e-9;
  const double r = in.number("series_resistance_ohm");
  const double omega0 = 1 / std::sqrt(l_h * c_f);
  const double z0 = std::sqrt(l_h / c_f);
  double q = 0;
  double bandwidth = 0;
  const char* damping = "lossless";
  if (r > 0) {
    q = z0 / r;
    if (q < kMinQ || q > kMaxQ) {
      std::string msg = "Q = √(L/C)/R would be ";
      append_fixed(msg, q, q < 1 ? 6 : 1);
      msg += q < kMinQ ? ", below 0.01: the resistance swamps both reactances and the circuit "
                         "no longer resonates; lower series_resistance_ohm"
                       : ", above 10000, beyond the losses of real inductors and capacitors; "
                         "enter their ESR as series_resistance_ohm (or 0 for an ideal circuit)";
      return ToolError{"series_resistance_ohm", std::move(msg)};
    }
    // The half-power frequencies of a series RLC are ω = ±R/(2L) + √((R/(2L))² + ω0²): they
    // are exactly R/L apart at any Q.
    bandwidth = r / (2 * std::numbers::pi * l_h);
    // Critical damping, R = 2·√(L/C), within rounding of the inputs.
    const double from_critical = q - 0.5;
    damping = std::fabs(from_critical) <= 1e-9 ? "critically-damped"
                                               : (from_critical > 0 ? "underdamped" : "overdamped");
  }
  Outputs out;
  out.set("resonant_frequency_hz", omega0 / (2 * std::numbers::pi))
      .set("angular_frequency_rad_s", omega0)
      .set("characteristic_impedance_ohm", z0)
      .set("quality_factor", q)
      .set("bandwidth_hz", bandwidth)
      .set("damping", damping);
  return out;
}

}  // namespace

Tool make_lc_resonance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
