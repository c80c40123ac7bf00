// Surface microstrip characteristic impedance and effective permittivity, quasi-static, by the
// Hammerstad–Jensen equations with their strip-thickness correction, as KiCad's pcb_calculator
// computes them (pcb_calculator/transline/microstrip.cpp); the model is in microstrip_model.hpp.
// Formula, references and verification vectors: docs/tools/microstrip-impedance.md.
#include <cmath>

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

using microstrip::kMaxWidthToHeight;
using microstrip::kMinWidthToHeight;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "microstrip-impedance";
  t.domain = "pcb-design";
  t.version = "2.0.0";
  t.name = "Microstrip Impedance";
  t.description =
      "Characteristic impedance, effective permittivity and propagation delay of a surface "
      "microstrip (an outer-layer trace over a reference plane, air above) from its width, "
      "dielectric height, copper thickness and the laminate's relative permittivity, by the "
      "Hammerstad–Jensen equations with their strip-thickness correction (the method of "
      "KiCad's pcb_calculator).";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "trace_width_mm",
                    .label = "Trace width (w)",
                    .unit = "mm",
                    .help = "Width of the trace. The equations hold for 0.01 ≤ w/h ≤ 100; "
                            "outside that range the request is refused (422).",
                    .min = 0.025,
                    .max = 10,
                    .step = 0.01,
                    .default_value = 0.3}),
      number_input({.key = "dielectric_height_mm",
                    .label = "Dielectric height (h)",
                    .unit = "mm",
                    .help = "Thickness of the dielectric between the trace and its reference "
                            "plane (the prepreg or core under an outer layer), not the whole "
                            "board.",
                    .min = 0.025,
                    .max = 5,
                    .step = 0.01,
                    .default_value = 0.2}),
      number_input({.key = "copper_thickness_um",
                    .label = "Copper thickness (t)",
                    .unit = "µm",
                    .help = "Finished thickness of the trace: 35 µm for 1 oz/ft² foil; outer "
                            "layers are often plated up to about 45–50 µm. At most the trace "
                            "width (422 otherwise).",
                    .min = 5,
                    .max = 210,
                    .step = 1,
                    .default_value = 35}),
      number_input({.key = "dielectric_constant",
                    .label = "Relative permittivity εr",
                    .unit = "",
                    .help = "Dielectric constant (Dk) of the laminate at the frequency of "
                            "interest, e.g. about 4.2–4.6 for FR-4 at 1 GHz, 3.0–3.7 for RF "
                            "laminates, 9.8 for alumina. No solder mask over the trace.",
                    .min = 1,
                    .max = 30,
                    .step = 0.01,
                    .default_value = 4.3}),
  };
  t.outputs = {
      number_output({.key = "z0_ohm",
                     .label = "Characteristic impedance Z0 (quasi-static)",
                     .unit = "Ω",
                     .precision = 3}),
      number_output({.key = "width_to_height",
                     .label = "Width-to-height ratio w/h",
                     .unit = "",
                     .precision = 4}),
      number_output({.key = "effective_dielectric_constant",
                     .label = "Effective permittivity εeff (quasi-static)",
                     .unit = "",
                     .precision = 3}),
      number_output({.key = "propagation_delay_ps_per_mm",
                     .label = "Propagation delay",
                     .unit = "ps/mm",
                     .precision = 3}),
      number_output({.key = "propagation_delay_ps_per_inch",
                     .label = "Propagation delay",
                     .unit = "ps/in",
                     .precision = 2}),
  };
  t.references = {
      "E. Hammerstad, Ø. Jensen, \"Accurate Models for Microstrip Computer-Aided Design\", "
      "IEEE MTT-S International Microwave Symposium Digest, 1980, pp. 407–409 (Z0 of the "
      "homogeneous strip, the filling factor, the strip-thickness width correction; accuracy "
      "0.2 % for 0.01 ≤ w/h ≤ 100, εr ≤ 128)",
      "KiCad pcb_calculator, pcb_calculator/transline/microstrip.cpp, MICROSTRIP::microstrip_Z0 "
      "(github.com/KiCad/kicad-source-mirror, commit 0b2d4d487964108acd8375de1d74e23c6b6a5604): "
      "the reference implementation followed here, including its thickness term of the filling "
      "factor",
      "D. M. Pozar, \"Microwave Engineering\", 4th ed., Wiley, 2012, chapter 3, microstrip lines, "
      "and Example 3.7 (a 50 Ω line on εr 2.20)",
      "BIPM, SI Brochure, 9th ed.: c = 299 792 458 m/s exactly",
  };
  t.examples = {
      {.title = "Pozar's 50 Ω line: w/h = 3.081 on a 1.27 mm substrate of εr 2.20",
       .request_json = R"({"trace_width_mm":3.913,"dielectric_height_mm":1.27,)"
                       R"("copper_thickness_um":5,"dielectric_constant":2.2})",
       .expected_json = R"({"z0_ohm":50,"effective_dielectric_constant":1.87})",
       .tolerance_pct = 1,
       .source = "D. M. Pozar, \"Microwave Engineering\", 4th ed., Wiley, 2012, Example 3.7: a "
                 "50 Ω line on d = 0.127 cm, εr = 2.20 has W/d = 3.081 and εe = 1.87 (Pozar's "
                 "closed-form design equations, zero strip thickness; within 1 % of these)"},
      {.title = "50 Ω line on 0.020 in Rogers RO4003 (εr 3.38), 1 oz copper",
       .request_json = R"({"trace_width_mm":1.15,"dielectric_height_mm":0.508,)"
                       R"("copper_thickness_um":35,"dielectric_constant":3.38})",
       .expected_json = R"({"z0_ohm":50})",
       .tolerance_pct = 1,
       .source = "S. Bragg (KA9MVA), DARTS \"Microstrip Facts & Figures\", "
                 "http://www.hamhud.net/darts/microstrip.htm (1998): Rogers RO-4003, 0.020 in "
                 "thick, εr 3.38, 50-ohm line 0.115 cm wide (copper thickness not stated: 1 % "
                 "covers 17–35 µm)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double w = in.number("trace_width_mm");
  const double h = in.number("dielectric_height_mm");
  const double t = in.number("copper_thickness_um") / 1000.0;  // mm, like w and h
  const double er = in.number("dielectric_constant");
  const double u = w / h;
  if (u < kMinWidthToHeight || u > kMaxWidthToHeight) {
    std::string msg = "trace_width_mm of ";
    append_shortest(msg, w);
    msg += " mm over dielectric_height_mm of ";
    append_shortest(msg, h);
    msg += " mm gives w/h = ";
    append_fixed(msg, u, 4);
    msg +=
        ", outside the range of the Hammerstad–Jensen equations (0.01 ≤ w/h ≤ 100); use a "
        "field solver for such a geometry";
    return ToolError{"trace_width_mm", std::move(msg)};
  }
  if (t > w) {
    std::string msg = "copper_thickness_um of ";
    append_shortest(msg, in.number("copper_thickness_um"));
    msg += " µm is more than the trace width of ";
    append_shortest(msg, w);
    msg +=
        " mm: an etched trace is at least as wide as it is thick, and the strip-thickness "
        "correction does not cover a thicker one; check the width and the copper thickness";
    return ToolError{"copper_thickness_um", std::move(msg)};
  }
  // KiCad's MICROSTRIP::microstrip_Z0 without a cover (its default cover height is effectively
  // infinite, so the cover factor is 1).
  const microstrip::SingleLine line = microstrip::single_line(w, h, t, er);
  // t_pd = √εeff / c.
  const double delay_ps_per_mm =
      std::sqrt(line.effective_dielectric_constant) / kSpeedOfLightMmPerPs;
  Outputs out;
  out.set("z0_ohm", line.z0_ohm)
      .set("width_to_height", u)
      .set("effective_dielectric_constant", line.effective_dielectric_constant)
      .set("propagation_delay_ps_per_mm", delay_ps_per_mm)
      .set("propagation_delay_ps_per_inch", delay_ps_per_mm * kMmPerInch);
  return out;
}

}  // namespace

Tool make_microstrip_impedance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
