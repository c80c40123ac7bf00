// Signal propagation delay on a PCB line and the length difference that uses up a skew
// budget. Formula, bounds and sources: docs/tools/propagation-delay.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kSpeedOfLightMmPerPs = 0.299792458;  // c, exact (SI), in mm/ps
constexpr double kMmPerInch = 25.4;
// Surface microstrip estimate εeff = 0.475·εr + 0.67 (Motorola MECL System Design Handbook).
constexpr double kMicrostripSlope = 0.475;
constexpr double kMicrostripOffset = 0.67;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "propagation-delay";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Propagation Delay and Length Matching";
  t.description =
      "Signal propagation delay per length on a PCB trace from the effective permittivity "
      "(stripline: εeff = εr; surface microstrip: the MECL estimate 0.475·εr + 0.67; or an εeff "
      "you give), the delay of a trace of given length, and the length difference that "
      "produces a given skew — for length matching of buses and differential pairs.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "line_type",
                    .label = "Line type",
                    .help = "stripline: inner layer between planes, εeff = εr. microstrip: outer "
                            "layer with air above, εeff estimated as 0.475·εr + 0.67 (FR-4-class "
                            "laminates; use an impedance tool's εeff for a precise value). "
                            "effective: the permittivity you enter is already εeff.",
                    .options = {"stripline", "microstrip", "effective"},
                    .default_value = "stripline"}),
      number_input({.key = "dielectric_constant",
                    .label = "Relative permittivity εr (or εeff)",
                    .unit = "",
                    .help = "The laminate's Dk, e.g. about 4.0–4.5 for FR-4; for line type "
                            "'effective', the effective permittivity itself.",
                    .min = 1,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 4.3}),
      number_input({.key = "length_mm",
                    .label = "Trace length",
                    .unit = "mm",
                    .help = "Routed length of the trace whose delay you want.",
                    .min = 0.1,
                    .max = 10000,
                    .step = 0.1,
                    .default_value = 100}),
      number_input({.key = "skew_budget_ps",
                    .label = "Skew budget",
                    .unit = "ps",
                    .help = "Largest allowed arrival-time difference between the matched "
                            "signals (e.g. a fraction of the unit interval or of the setup/hold "
                            "margin).",
                    .min = 0.1,
                    .max = 100000,
                    .step = 0.1,
                    .default_value = 10}),
  };
  t.outputs = {
      number_output({.key = "effective_dielectric_constant",
                     .label = "Effective permittivity εeff",
                     .unit = "",
                     .precision = 3}),
      number_output(
          {.key = "delay_ps_per_mm", .label = "Delay per length", .unit = "ps/mm", .precision = 3}),
      number_output({.key = "delay_ps_per_inch",
                     .label = "Delay per length",
                     .unit = "ps/in",
                     .precision = 2}),
      number_output({.key = "velocity_factor",
                     .label = "Velocity as a fraction of c",
                     .unit = "",
                     .precision = 4}),
      number_output(
          {.key = "delay_ps", .label = "Delay of the trace", .unit = "ps", .precision = 3}),
      number_output({.key = "skew_length_mm",
                     .label = "Length difference equal to the skew budget",
                     .unit = "mm",
                     .precision = 3,
                     .small_values_in = "skew_length_um"}),
      number_output({.key = "skew_length_um",
                     .label = "Length difference equal to the skew budget",
                     .unit = "µm",
                     .precision = 2}),
  };
  t.references = {
      "H. W. Johnson, M. Graham, \"High-Speed Digital Design: A Handbook of Black Magic\", "
      "Prentice Hall, 1993, ch. 5 (propagation delay t_pd = √εeff / c for stripline and "
      "microstrip)",
      "W. R. Blood, \"MECL System Design Handbook\", 4th ed., Motorola, 1988, ch. 3: stripline "
      "t_pd = 1.017·√εr ns/ft, microstrip t_pd = 1.017·√(0.475·εr + 0.67) ns/ft",
      "Intel, \"AN 958: Board Design Guidelines\", 2023, \"Stripline Layout Propagation "
      "Delay\": t_pd(stripline) = 85·√εr ps per inch; about 180 ps/in in FR-4",
      "BIPM, SI Brochure, 9th ed.: c = 299 792 458 m/s exactly",
  };
  t.examples = {
      {.title = "FR-4 stripline (εr 4.5)",
       .request_json = R"({"line_type":"stripline","dielectric_constant":4.5,"length_mm":25.4,)"
                       R"("skew_budget_ps":10})",
       .expected_json = R"({"delay_ps_per_inch":180})",
       .tolerance_pct = 0.5,
       .source = "Henry Ott, \"PCB Design Rules of Thumb\" (hottconsultants.com/techtips/"
                 "rulesofthumb.html): FR-4 \"typically 4.5\"; typical propagation delay \"180 pS / "
                 "in for Stripline\" (Intel AN 958, \"Determine the Delay\", gives the same "
                 "180 ps/in for stripline in FR-4)"},
      {.title = "Stripline in air (εr 1): Intel's 85 ps/in constant",
       .request_json = R"({"line_type":"stripline","dielectric_constant":1,"length_mm":25.4,)"
                       R"("skew_budget_ps":10})",
       .expected_json = R"({"delay_ps_per_inch":85})",
       .tolerance_pct = 0.5,
       .source = "Intel, AN 958: Board Design Guidelines (ID 683073, 2023), \"Stripline Layout "
                 "Propagation Delay\": t_PD(stripline) = 85·√εr ps per inch, i.e. 85 ps/in at "
                 "εr = 1 (intel.com/content/www/us/en/docs/programmable/683073/current/"
                 "stripline-layout-propagation-delay.html)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const std::string& type = in.enumeration("line_type");
  const double er = in.number("dielectric_constant");
  double e_eff = er;
  if (type == "microstrip") e_eff = kMicrostripSlope * er + kMicrostripOffset;
  const double delay_ps_per_mm = std::sqrt(e_eff) / kSpeedOfLightMmPerPs;
  const double skew_mm = in.number("skew_budget_ps") / delay_ps_per_mm;
  Outputs out;
  out.set("effective_dielectric_constant", e_eff)
      .set("delay_ps_per_mm", delay_ps_per_mm)
      .set("delay_ps_per_inch", delay_ps_per_mm * kMmPerInch)
      .set("velocity_factor", 1 / std::sqrt(e_eff))
      .set("delay_ps", delay_ps_per_mm * in.number("length_mm"))
      .set("skew_length_mm", skew_mm)
      .set("skew_length_um", skew_mm * 1000);
  return out;
}

}  // namespace

Tool make_propagation_delay() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
