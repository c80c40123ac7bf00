// Signal propagation delay on a PCB line and the length difference that uses up a skew
// budget. Formula, bounds and sources: docs/tools/propagation-delay.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/pcb-design/microstrip_model.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kMmPerInch;
using pcb::kSpeedOfLightMmPerPs;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "propagation-delay";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Propagation Delay and Length Matching";
  t.description =
      "Signal propagation delay per length on a PCB trace from the effective permittivity "
      "(stripline: εeff = εr; surface microstrip: εeff from the trace geometry by the "
      "Hammerstad–Jensen model, as in KiCad's pcb_calculator; or an εeff you give), the delay "
      "of a trace of given length, and the length difference that produces a given skew — for "
      "length matching of buses and differential pairs.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "line_type",
                    .label = "Line type",
                    .help = "stripline: inner layer between planes in one dielectric, εeff = εr. "
                            "microstrip: outer layer with air above; εeff is computed from the "
                            "trace width, dielectric height and copper thickness below. "
                            "effective: the permittivity you enter is already εeff (e.g. from a "
                            "field solver or an impedance tool).",
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
      number_input({.key = "trace_width_mm",
                    .label = "Trace width (w), microstrip",
                    .unit = "mm",
                    .help = "Microstrip only (ignored otherwise): width of the trace. The model "
                            "holds for 0.01 ≤ w/h ≤ 100.",
                    .min = 0.01,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 0.35,
                    .required = false}),
      number_input({.key = "dielectric_height_mm",
                    .label = "Dielectric height (h), microstrip",
                    .unit = "mm",
                    .help = "Microstrip only (ignored otherwise): dielectric thickness between "
                            "the trace and its reference plane, not the whole board.",
                    .min = 0.02,
                    .max = 10,
                    .step = 0.01,
                    .default_value = 0.2,
                    .required = false}),
      number_input({.key = "copper_thickness_um",
                    .label = "Copper thickness (t), microstrip",
                    .unit = "µm",
                    .help = "Microstrip only (ignored otherwise): finished trace thickness (35 "
                            "µm for 1 oz foil, often 45–50 µm on plated outer layers); 0 for an "
                            "ideal thin strip. At most h/2.",
                    .min = 0,
                    .max = 200,
                    .step = 1,
                    .default_value = 35,
                    .required = false}),
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
      "E. Hammerstad, Ø. Jensen, \"Accurate Models for Microstrip Computer-Aided Design\", IEEE "
      "MTT-S International Microwave Symposium Digest, 1980, pp. 407–409: microstrip εeff "
      "(eqs. 1–5, within 0.2 % for 0.01 ≤ w/h ≤ 100, εr ≤ 128) and its strip-thickness "
      "correction (eqs. 6–9)",
      "KiCad pcb_calculator, common/transline_calculations/microstrip.cpp, microstrip_Z0() (the "
      "same equations with the thickness filling-factor term; github.com/KiCad/"
      "kicad-source-mirror)",
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
      {.title = "Microstrip, w = 15 mil over h = 10 mil of εr 4.8, thin strip (ADS LineCalc)",
       .request_json = R"({"line_type":"microstrip","dielectric_constant":4.8,)"
                       R"("trace_width_mm":0.381,"dielectric_height_mm":0.254,)"
                       R"("copper_thickness_um":0,"length_mm":100,"skew_budget_ps":10})",
       .expected_json = R"({"effective_dielectric_constant":3.528954191309})",
       .tolerance_pct = 0.01,
       .source = "Agilent ADS LineCalc output at 0.001 Hz recorded in wcalc's test data, "
                 "libwcalc/coupled_microstrip.data: the 15 mil pair at s = 10000 mil (uncoupled, "
                 "a single line) \"Linecalc gives ZE=55.36404049887 ZO=55.36402450307 … "
                 "KE=3.528957114459 KO=3.528954191309\", github.com/dmcmahill/wcalc"},
      {.title = "Microstrip, w = h = 0.6 mm, εr 9.9, 25 µm copper (ADS LineCalc at 1 GHz)",
       .request_json = R"({"line_type":"microstrip","dielectric_constant":9.9,)"
                       R"("trace_width_mm":0.6,"dielectric_height_mm":0.6,)"
                       R"("copper_thickness_um":25,"length_mm":100,"skew_budget_ps":10})",
       .expected_json = R"({"effective_dielectric_constant":6.490417898558})",
       .tolerance_pct = 1.5,
       .source = "Agilent ADS LineCalc output recorded in wcalc's test data, "
                 "stdio-wcalc/microstrip.dat (\"w=0.6mm, L=100mm, H=0.6mm, Tmet=0.025mm … Line "
                 "Calc gives Z0=48.08720336054 … K_EFF=6.490417898558\", εr 9.9, 1 GHz), "
                 "github.com/dmcmahill/wcalc. Tolerance: LineCalc's 1 GHz value includes "
                 "+0.2 % of dispersion, and LineCalc leaves out the thickness filling-factor "
                 "term KiCad's model subtracts (−1.2 % here); see the docs page"},
  };
  return t;
}

ComputeResult width_ratio_error(double w, double h) {
  std::string msg = "trace_width_mm of ";
  append_shortest(msg, w);
  msg += " mm over dielectric_height_mm of ";
  append_shortest(msg, h);
  msg += " mm gives w/h = ";
  append_fixed(msg, w / h, 4);
  msg +=
      ", outside the Hammerstad–Jensen microstrip model's range 0.01–100; change the width or "
      "the height, or give a field solver's εeff with line type 'effective'";
  return ToolError{"trace_width_mm", std::move(msg)};
}

ComputeResult compute(const Inputs& in) {
  const std::string& type = in.enumeration("line_type");
  const double er = in.number("dielectric_constant");
  double e_eff = er;
  if (type == "microstrip") {
    const double w = in.number("trace_width_mm");
    const double h = in.number("dielectric_height_mm");
    const double t_um = in.number("copper_thickness_um");
    const double u = w / h;
    if (u < microstrip::kMinWidthToHeight || u > microstrip::kMaxWidthToHeight)
      return width_ratio_error(w, h);
    if (t_um / 1000 > h / 2) {
      std::string msg = "copper_thickness_um of ";
      append_shortest(msg, t_um);
      msg +=
          " µm is more than half of dielectric_height_mm; the strip-thickness corrections hold "
          "for thin strips (t ≤ h/2): use thinner copper, or give a field solver's εeff with "
          "line type 'effective'";
      return ToolError{"copper_thickness_um", std::move(msg)};
    }
    e_eff = microstrip::single_line(w, h, t_um / 1000, er).effective_dielectric_constant;
  }
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
