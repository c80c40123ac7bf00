// RMS, average, rectified average, form factor and crest factor of common periodic waveforms
// from their peak amplitude, with a DC offset and, for a pulse train, a duty cycle. Formulas,
// bounds, references and worked examples: docs/tools/waveform-rms.md.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using std::numbers::pi;

// One period of the waveform normalised to a peak of 1: the mean of w and of w², and the
// range of w.
struct Shape {
  double mean, mean_square, lowest, highest;
};

// (1/π)·∫₀^π |a·sin θ + d| dθ: a half sine of peak a (> 0) shifted by d. The integrand changes
// sign where sin θ = −d/a, which only happens for −a < d < 0.
double half_sine_abs_mean(double a, double d) {
  if (d >= 0) return 2 * a / pi + d;
  if (d <= -a) return -d - 2 * a / pi;
  const double alpha = std::asin(-d / a);
  return (4 * a * std::cos(alpha) + pi * d - 4 * d * alpha - 2 * a) / pi;
}

// Mean of |a·w + d| over one period.
double rectified_mean(const std::string& waveform, double a, double d, double duty) {
  if (waveform == "sine") {
    if (std::fabs(d) >= a) return std::fabs(d);
    const double s = d / a;
    return a * 2 / pi * (std::sqrt(1 - s * s) + s * std::asin(s));
  }
  if (waveform == "square") return std::max(a, std::fabs(d));
  if (waveform == "triangle" || waveform == "sawtooth") {
    // w is spread uniformly over [−1, 1].
    if (std::fabs(d) >= a) return std::fabs(d);
    return (a * a + d * d) / (2 * a);
  }
  if (waveform == "pulse") return duty * std::fabs(a + d) + (1 - duty) * std::fabs(d);
  if (waveform == "half-wave-rectified-sine") return (half_sine_abs_mean(a, d) + std::fabs(d)) / 2;
  return half_sine_abs_mean(a, d);  // full-wave-rectified-sine
}

Shape shape(const std::string& waveform, double duty) {
  if (waveform == "sine") return {0, 0.5, -1, 1};
  if (waveform == "square") return {0, 1, -1, 1};
  if (waveform == "triangle" || waveform == "sawtooth") return {0, 1.0 / 3, -1, 1};
  if (waveform == "pulse") return {duty, duty, 0, 1};
  if (waveform == "half-wave-rectified-sine") return {1 / pi, 0.25, 0, 1};
  return {2 / pi, 0.5, 0, 1};  // full-wave-rectified-sine
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "waveform-rms";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Waveform RMS and Average";
  t.description =
      "RMS, average (DC), rectified average, form factor and crest factor of a sine, square, "
      "triangle, sawtooth, pulse train or rectified sine, from its peak amplitude, a DC offset "
      "and, for a pulse train, the duty cycle.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "waveform",
                    .label = "Waveform",
                    .help = "sine, square, triangle and sawtooth swing from −peak to +peak; "
                            "pulse (a pulse train: peak for the duty cycle, 0 otherwise), "
                            "half-wave-rectified-sine and full-wave-rectified-sine swing from 0 "
                            "to +peak.",
                    .options = {"sine", "square", "triangle", "sawtooth", "pulse",
                                "half-wave-rectified-sine", "full-wave-rectified-sine"},
                    .default_value = "sine"}),
      number_input({.key = "peak_v",
                    .label = "Peak amplitude",
                    .unit = "V",
                    .help = "Peak value of the waveform before the offset is added (half the "
                            "peak-to-peak for sine, square, triangle and sawtooth). The results "
                            "scale with it, so amperes or millivolts work as well.",
                    .min = 0.01,
                    .max = 1000000,
                    .step = 0.01,
                    .default_value = 1}),
      number_input({.key = "offset_v",
                    .label = "DC offset",
                    .unit = "V",
                    .help = "DC level added to the whole waveform (negative allowed); 0 for none.",
                    .min = -1000000,
                    .max = 1000000,
                    .step = 0.001,
                    .default_value = 0,
                    .required = false}),
      number_input({.key = "duty_cycle_pct",
                    .label = "Duty cycle (pulse only)",
                    .unit = "%",
                    .help = "Pulse train only: the share of each period at the peak, 1 to 99 % "
                            "(50 % is a 0-to-peak square wave). Ignored by the other waveforms.",
                    .min = 1,
                    .max = 99,
                    .step = 0.1,
                    .default_value = 50,
                    .required = false}),
  };
  t.outputs = {
      number_output(
          {.key = "rms_v", .label = "RMS (true RMS, AC + DC)", .unit = "V", .precision = 6}),
      number_output({.key = "average_v",
                     .label = "Average (DC value)",
                     .unit = "V",
                     .precision = 6,
                     .small_values_in = "average_uv"}),
      number_output({.key = "average_uv",
                     .label = "Average (DC value), in µV",
                     .unit = "µV",
                     .precision = 3}),
      number_output({.key = "rectified_average_v",
                     .label = "Rectified average, mean of |v|",
                     .unit = "V",
                     .precision = 6}),
      number_output({.key = "ac_rms_v",
                     .label = "AC RMS (AC-coupled, DC removed)",
                     .unit = "V",
                     .precision = 6}),
      number_output({.key = "peak_magnitude_v",
                     .label = "Largest |v| over the period",
                     .unit = "V",
                     .precision = 6}),
      number_output({.key = "form_factor",
                     .label = "Form factor RMS / rectified average",
                     .unit = "",
                     .precision = 4}),
      number_output({.key = "crest_factor",
                     .label = "Crest factor largest |v| / RMS",
                     .unit = "",
                     .precision = 4}),
  };
  t.references = {
      "T. R. Kuphaldt, \"Lessons In Electric Circuits\", Volume II – AC, chapter 1 \"Basic AC "
      "Theory\", section \"Measurements of AC magnitude\": conversion factors for sine (RMS "
      "0.707, average 0.637 of peak), square (RMS = average = peak) and triangle waves (RMS "
      "0.577, average 0.5 of peak), crest factor = peak/RMS, form factor = RMS/average",
      "P. P. Urone, R. Hinrichs, \"College Physics 2e\", OpenStax, 2022, §20.5 Alternating "
      "Current versus Direct Current: V_rms = V_0/√2 for a sine",
      "Mastering Electronics Design, \"How to Derive the RMS Value of Pulse and Square "
      "Waveforms\" (masteringelectronicsdesign.com): the RMS of a pulse waveform from the RMS "
      "definition, as a function of the duty cycle t1/T; a bipolar ±A square wave has RMS A at "
      "any duty cycle",
      "Redcrab Software, \"RMS value of a rectangular pulse voltage\" "
      "(redcrab-software.com/en/Calculator/Electrics/Rectangular-Pulse-RMS-Value): U_eff = "
      "√(t_i/T)·U_s, U_m = U_s·t_i/T",
  };
  t.examples = {
      {.title = "Sine, peak 1",
       .request_json = R"({"waveform":"sine","peak_v":1})",
       .expected_json = R"({"rms_v":0.707,"rectified_average_v":0.637,"form_factor":1.11})",
       .tolerance_pct = 0.1,
       .source = "T. R. Kuphaldt, \"Lessons In Electric Circuits\" Vol. II, ch. 1, "
                 "\"Measurements of AC magnitude\", figure \"Conversion factors for common "
                 "waveforms\" (sine: RMS = 0.707 (Peak), AVG = 0.637 (Peak)) and text (form "
                 "factor 1.11)"},
      {.title = "Square, peak 1",
       .request_json = R"({"waveform":"square","peak_v":1})",
       .expected_json = R"({"rms_v":1,"rectified_average_v":1,"form_factor":1,)"
                        R"("crest_factor":1})",
       .tolerance_pct = 0,
       .source = "T. R. Kuphaldt, \"Lessons In Electric Circuits\" Vol. II, ch. 1, "
                 "\"Measurements of AC magnitude\": square wave RMS = Peak, AVG = Peak; "
                 "\"square-shaped waveforms always have crest and form factors equal to 1\""},
      {.title = "Triangle, peak 1",
       .request_json = R"({"waveform":"triangle","peak_v":1})",
       .expected_json = R"({"rms_v":0.577,"rectified_average_v":0.5,"form_factor":1.15})",
       .tolerance_pct = 0.5,
       .source = "T. R. Kuphaldt, \"Lessons In Electric Circuits\" Vol. II, ch. 1, "
                 "\"Measurements of AC magnitude\": triangle RMS = 0.577 (Peak), AVG = 0.5 "
                 "(Peak), form factor 1.15 (0.577/0.5)"},
      {.title = "Sawtooth, peak 1",
       .request_json = R"({"waveform":"sawtooth","peak_v":1})",
       .expected_json = R"({"rms_v":0.577,"form_factor":1.15})",
       .tolerance_pct = 0.5,
       .source = "T. R. Kuphaldt, \"Lessons In Electric Circuits\" Vol. II, ch. 1, "
                 "\"Measurements of AC magnitude\": \"triangle- and sawtooth-shaped waveforms "
                 "have RMS values of 0.577 ... and form factors of 1.15\""},
      {.title = "120 V RMS mains peaks at 170 V",
       .request_json = R"({"waveform":"sine","peak_v":170})",
       .expected_json = R"({"rms_v":120})",
       .tolerance_pct = 0.2,
       .source = "OpenStax College Physics 2e, §20.5, Example 20.9 \"Peak Voltage and Power for "
                 "AC\": V_0 = √2·V_rms = 1.414 (120 V) = 170 V"},
      {.title = "Pulse train, 10 V at 20 % duty",
       .request_json = R"({"waveform":"pulse","peak_v":10,"duty_cycle_pct":20})",
       .expected_json = R"({"rms_v":4.47,"average_v":2})",
       .tolerance_pct = 0.2,
       .source = "Redcrab Software, \"RMS value of a rectangular pulse voltage\" calculator, "
                 "example 2 (https://redcrab-software.com/en/Calculator/Electrics/"
                 "Rectangular-Pulse-RMS-Value): Us = 10 V, ti/T = 20 ms/100 ms give Ueff = "
                 "4.47 V and Um = 2.0 V"},
      {.title = "Pulse train, 5 V at 30 % duty (PWM)",
       .request_json = R"({"waveform":"pulse","peak_v":5,"duty_cycle_pct":30})",
       .expected_json = R"({"rms_v":2.74,"average_v":1.5})",
       .tolerance_pct = 0.2,
       .source = "Redcrab Software, \"RMS value of a rectangular pulse voltage\" calculator, "
                 "example 3 (same page): Us = 5 V, ti = 3 ms, T = 10 ms give Ueff = 2.74 V and "
                 "Um = 1.5 V"},
      {.title = "Half-wave rectified sine, peak 1",
       .request_json = R"({"waveform":"half-wave-rectified-sine","peak_v":1})",
       .expected_json = R"({"rms_v":0.5,"average_v":0.318,"crest_factor":2})",
       .tolerance_pct = 0.2,
       .source = "Utilities Bunker, \"RMS vs peak\" (https://utilitiesbunker.com/kb/rms-vs-peak), "
                 "table \"Common waveforms\": half-wave rectified V_RMS/V_peak 0.500, "
                 "V_avg/V_peak 0.318, crest factor 2.000"},
      {.title = "Full-wave rectified sine, peak 1",
       .request_json = R"({"waveform":"full-wave-rectified-sine","peak_v":1})",
       .expected_json = R"({"rms_v":0.707,"average_v":0.637,"crest_factor":1.414})",
       .tolerance_pct = 0.1,
       .source = "Utilities Bunker, \"RMS vs peak\" (https://utilitiesbunker.com/kb/rms-vs-peak), "
                 "table \"Common waveforms\": full-wave rectified V_RMS/V_peak 0.707, "
                 "V_avg/V_peak 0.637, crest factor 1.414"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const std::string& waveform = in.enumeration("waveform");
  const double a = in.number("peak_v");
  const double d = in.number("offset_v");
  const double duty = in.number("duty_cycle_pct") / 100;
  const Shape s = shape(waveform, duty);
  const double average = a * s.mean + d;
  // mean((a·w + d)²) = a²·var(w) + average²: two non-negative terms, no cancellation.
  const double ac_rms = a * std::sqrt(std::max(0.0, s.mean_square - s.mean * s.mean));
  const double rms = std::hypot(ac_rms, average);
  const double rectified = rectified_mean(waveform, a, d, duty);
  const double peak = std::max(std::fabs(a * s.highest + d), std::fabs(a * s.lowest + d));
  Outputs out;
  out.set("rms_v", rms)
      .set("average_v", average)
      .set("average_uv", average * 1e6)
      .set("rectified_average_v", rectified)
      .set("ac_rms_v", ac_rms)
      .set("peak_magnitude_v", peak)
      .set("form_factor", rms / rectified)
      .set("crest_factor", peak / rms);
  return out;
}

}  // namespace

Tool make_waveform_rms() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
