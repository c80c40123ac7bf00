// Symmetric (centred) stripline characteristic impedance by Wheeler's thick-strip formula as
// given by Wadell; formula, bounds and sources: docs/tools/stripline-impedance.md.
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kMmPerInch;
using pcb::kSpeedOfLightMmPerPs;

// Wheeler (1978) as given by Wadell §3.5.1: accurate to 0.5 % for w/(b − t) < 10.
constexpr double kMaxWidthRatio = 10;
// Thickness correction fitted for t/b up to 0.25 (Wadell §3.5.1, Wheeler 1978).
constexpr double kMaxThicknessRatio = 0.25;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "stripline-impedance";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Stripline Impedance";
  t.description =
      "Characteristic impedance of a symmetric (centred) stripline — an inner-layer trace "
      "midway between two reference planes in one dielectric — by Wheeler's formula with its "
      "strip-thickness correction (accurate to about 0.5 % for w/(b − t) < 10), with the "
      "propagation delay and the capacitance and inductance per length.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "trace_width_mm",
                    .label = "Trace width (w)",
                    .unit = "mm",
                    .help = "Width of the trace. The formula holds up to w/(b − t) = 10; wider "
                            "traces are refused (422).",
                    .min = 0.01,
                    .max = 50,
                    .step = 0.01,
                    .default_value = 0.15}),
      number_input({.key = "plane_spacing_mm",
                    .label = "Plane spacing (b)",
                    .unit = "mm",
                    .help = "Total dielectric thickness between the two reference planes (the "
                            "trace sits midway), including the trace's own thickness.",
                    .min = 0.02,
                    .max = 50,
                    .step = 0.01,
                    .default_value = 0.5}),
      number_input({.key = "copper_thickness_um",
                    .label = "Copper thickness (t)",
                    .unit = "µm",
                    .help = "Finished trace thickness: 17.5 µm for ½ oz, 35 µm for 1 oz foil; 0 "
                            "for an ideal thin strip. At most a quarter of the plane spacing.",
                    .min = 0,
                    .max = 500,
                    .step = 1,
                    .default_value = 17.5}),
      number_input({.key = "dielectric_constant",
                    .label = "Relative permittivity εr",
                    .unit = "",
                    .help = "Dielectric constant (Dk) of the laminate around the trace at the "
                            "frequency of interest, e.g. about 4.0–4.5 for FR-4.",
                    .min = 1,
                    .max = 15,
                    .step = 0.01,
                    .default_value = 4.2}),
  };
  t.outputs = {
      number_output(
          {.key = "z0_ohm", .label = "Characteristic impedance Z0", .unit = "Ω", .precision = 2}),
      number_output({.key = "effective_dielectric_constant",
                     .label = "Effective permittivity εeff (= εr)",
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
      number_output({.key = "capacitance_pf_per_m",
                     .label = "Capacitance per length",
                     .unit = "pF/m",
                     .precision = 2}),
      number_output({.key = "inductance_nh_per_m",
                     .label = "Inductance per length",
                     .unit = "nH/m",
                     .precision = 1}),
  };
  t.references = {
      "H. A. Wheeler, \"Transmission-Line Properties of a Stripline Between Parallel Planes\", "
      "IEEE Trans. Microwave Theory Tech., vol. MTT-26, no. 11, pp. 866–876, Nov. 1978 "
      "(Z0 = 30/√εr·ln(1 + A(2A + √(4A² + 6.27))) with the thickness correction Δw)",
      "B. C. Wadell, \"Transmission Line Design Handbook\", Artech House, 1991, §3.5.1 "
      "(Wheeler's stripline equations and their 0.5 % accuracy for w/(b − t) < 10)",
      "S. B. Cohn, \"Characteristic Impedance of the Shielded-Strip Transmission Line\", IRE "
      "Trans. Microwave Theory Tech., vol. MTT-2, pp. 52–57, July 1954 (the exact zero-thickness "
      "solution Z0 = 30π/√εr·K(k)/K(k′), k = sech(πw/2b), that Wheeler's formula approaches)",
      "D. Kirkby, atlc (arbitrary transmission line calculator), finite-difference field "
      "solver, test suite tests/1a–1b and 3a–3b (reference values used as vectors)",
  };
  t.examples = {
      {.title = "Thin strip in air, w/b = 68/201 (atlc field-solver test case)",
       .request_json = R"({"trace_width_mm":0.68,"plane_spacing_mm":2.01,"copper_thickness_um":0,)"
                       R"("dielectric_constant":1})",
       .expected_json = R"({"z0_ohm":122.44})",
       .tolerance_pct = 0.5,
       .source = "atlc (D. Kirkby) test suite: tests/1a-create_bmp_for_symmetrical_stripline.bmp"
                 ".test builds a 950 × 201 box with a 68-wide thin strip centred in air, and "
                 "tests/1b-create_bmp_for_symmetrical_stripline.txt.test expects Zo = 122.44 Ω "
                 "(github.com/liyang/atlc); Cohn's exact K(k)/K(k′) gives 122.47 Ω"},
      {.title = "Thick square conductor in air: 20 × 20 in a box 100 high (atlc test case)",
       .request_json = R"({"trace_width_mm":0.2,"plane_spacing_mm":1,"copper_thickness_um":200,)"
                       R"("dielectric_constant":1})",
       .expected_json = R"({"inductance_nh_per_m":340.8})",
       .tolerance_pct = 1.5,
       .source = "atlc (D. Kirkby) test suite: tests/3a-create_bmp_for_rect_cen_in_rect.bmp.test "
                 "builds a 20 × 20 conductor centred in a 500 × 100 box (air), and "
                 "tests/3b-create_bmp_for_rect_cen_in_rect.txt.test expects L = 340.8 nH/m "
                 "(github.com/liyang/atlc); the 1.1 % difference is Wheeler's formula at t/b = 0.2 "
                 "plus the solver's 20-cell discretisation"},
  };
  return t;
}

// Wheeler's stripline impedance (Wadell §3.5.1, eqs. for the finite-thickness strip).
double wheeler_z0(double w, double b, double t, double er) {
  double dw = 0;
  if (t > 0) {
    const double m = 6 * (b - t) / (3 * b - t);
    const double x = t / (2 * b - t);
    dw = (t / std::numbers::pi) *
         (1 - 0.5 * std::log(x * x + std::pow(0.0796 * t / (w + 1.1 * t), m)));
  }
  const double a = 4 * (b - t) / (std::numbers::pi * (w + dw));
  return 30 / std::sqrt(er) * std::log(1 + a * (2 * a + std::sqrt(4 * a * a + 6.27)));
}

ComputeResult compute(const Inputs& in) {
  const double w = in.number("trace_width_mm");
  const double b = in.number("plane_spacing_mm");
  const double t_um = in.number("copper_thickness_um");
  const double t = t_um / 1000;
  const double er = in.number("dielectric_constant");
  if (t > kMaxThicknessRatio * b) {
    std::string msg = "copper_thickness_um of ";
    append_shortest(msg, t_um);
    msg += " µm is more than a quarter of plane_spacing_mm (";
    append_shortest(msg, b);
    msg +=
        " mm); Wheeler's thickness correction holds for t/b ≤ 0.25: use thinner copper or a "
        "larger plane spacing";
    return ToolError{"copper_thickness_um", std::move(msg)};
  }
  const double ratio = w / (b - t);
  if (ratio > kMaxWidthRatio) {
    std::string msg = "trace_width_mm of ";
    append_shortest(msg, w);
    msg += " mm gives w/(b − t) = ";
    append_fixed(msg, ratio, 2);
    msg += ", above the formula's range of 10; narrow the trace or increase plane_spacing_mm";
    return ToolError{"trace_width_mm", std::move(msg)};
  }
  const double z0 = wheeler_z0(w, b, t, er);
  const double delay_ps_per_mm = std::sqrt(er) / kSpeedOfLightMmPerPs;
  // Per metre: C = t_pd/Z0, L = t_pd·Z0 with t_pd in s/m (ps/mm = 1e-9 s/m).
  const double delay_s_per_m = delay_ps_per_mm * 1e-9;
  Outputs out;
  out.set("z0_ohm", z0)
      .set("effective_dielectric_constant", er)
      .set("propagation_delay_ps_per_mm", delay_ps_per_mm)
      .set("propagation_delay_ps_per_inch", delay_ps_per_mm * kMmPerInch)
      .set("capacitance_pf_per_m", delay_s_per_m / z0 * 1e12)
      .set("inductance_nh_per_m", delay_s_per_m * z0 * 1e9);
  return out;
}

}  // namespace

Tool make_stripline_impedance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
