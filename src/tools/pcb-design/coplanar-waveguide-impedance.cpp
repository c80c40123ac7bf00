// Coplanar waveguide (a trace between two ground pours on its own layer), with or without a
// ground plane under the substrate: quasi-static impedance and effective permittivity by
// conformal mapping with a strip-thickness correction, as KiCad's pcb_calculator and AppCAD
// compute them. Formula, bounds and sources: docs/tools/coplanar-waveguide-impedance.md.
#include <cmath>
#include <numbers>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kFreeSpaceImpedance;
using pcb::kSpeedOfLightMmPerPs;

constexpr double kPi = std::numbers::pi;
// Over a bottom plane, a strip more than 20 times wider than the dielectric is thick is a
// microstrip (the plane holds roughly 85–90 % of the capacitance), and tanh(πw/4h) of
// the mapping reaches 1 in double precision a little beyond.
constexpr double kMaxGroundedWidthRatio = 20;
// The thickness correction is for copper thin next to the gap; see the docs page for how it
// compares with AppCAD and a 2-D field solution up to t/s = 0.2.
constexpr double kMaxThicknessToGap = 0.25;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "coplanar-waveguide-impedance";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Coplanar Waveguide Impedance";
  t.description =
      "Characteristic impedance, effective permittivity and propagation delay of a coplanar "
      "waveguide — a trace between two ground pours on the same layer — with a ground plane "
      "under the dielectric (grounded CPW, the usual PCB case) or without, by quasi-static "
      "conformal mapping (Ghione–Naldi) with the strip-thickness correction of Gupta et al., as "
      "Agilent AppCAD and KiCad's pcb_calculator compute them.";
  t.standard = std::nullopt;
  t.inputs = {
      flag_input({.key = "bottom_ground",
                  .label = "Ground plane under the dielectric",
                  .help = "On: grounded (conductor-backed) CPW, a ground plane at the dielectric "
                          "height below the trace, as on a multilayer board. Off: nothing but "
                          "air below the substrate. Either way the ground pours beside the "
                          "trace are taken as wide (several gaps) and well stitched.",
                  .default_value = true}),
      number_input({.key = "trace_width_mm",
                    .label = "Trace width (w)",
                    .unit = "mm",
                    .help = "Width of the signal trace. With a bottom ground plane, at most 20 "
                            "times the dielectric height.",
                    .min = 0.01,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 0.3}),
      number_input({.key = "gap_mm",
                    .label = "Gap to the coplanar ground (s)",
                    .unit = "mm",
                    .help = "Edge-to-edge clearance between the trace and each ground pour "
                            "(the same on both sides).",
                    .min = 0.01,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 0.15}),
      number_input({.key = "dielectric_height_mm",
                    .label = "Dielectric height (h)",
                    .unit = "mm",
                    .help = "Dielectric thickness under the trace: to the ground plane for a "
                            "grounded CPW, the whole substrate otherwise.",
                    .min = 0.02,
                    .max = 10,
                    .step = 0.01,
                    .default_value = 0.2}),
      number_input({.key = "copper_thickness_um",
                    .label = "Copper thickness (t)",
                    .unit = "µm",
                    .help = "Finished thickness of the trace and the pours (35 µm for 1 oz "
                            "foil); 0 for an ideal thin strip. At most a quarter of the gap.",
                    .min = 0,
                    .max = 200,
                    .step = 1,
                    .default_value = 35}),
      number_input({.key = "dielectric_constant",
                    .label = "Relative permittivity εr",
                    .unit = "",
                    .help = "Dielectric constant (Dk) of the laminate, e.g. about 4.2–4.6 for "
                            "FR-4.",
                    .min = 1,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 4.3}),
  };
  t.outputs = {
      number_output(
          {.key = "z0_ohm", .label = "Characteristic impedance Z0", .unit = "Ω", .precision = 2}),
      number_output({.key = "effective_dielectric_constant",
                     .label = "Effective permittivity εeff",
                     .unit = "",
                     .precision = 3}),
      number_output({.key = "propagation_delay_ps_per_mm",
                     .label = "Propagation delay",
                     .unit = "ps/mm",
                     .precision = 3}),
  };
  t.references = {
      "G. Ghione, C. U. Naldi, \"Analytical Formulas for Coplanar Lines in Hybrid and Monolithic "
      "MICs\", Electronics Letters, vol. 20, no. 4, pp. 179–181, Feb. 1984, eqs. 1 and 3a "
      "(CPW on a substrate of finite height)",
      "G. Ghione, C. U. Naldi, \"Parameters of Coplanar Waveguides with Lower Common Planes\", "
      "Electronics Letters, vol. 19, no. 18, pp. 734–735, Sept. 1983, eq. 8 (grounded CPW)",
      "K. C. Gupta, R. Garg, I. Bahl, P. Bhartia, \"Microstrip Lines and Slotlines\", 2nd ed., "
      "Artech House, 1996, eqs. 7.98–7.100 (strip-thickness correction)",
      "C. P. Wen, \"Coplanar Waveguide: A Surface Strip Transmission Line Suitable for "
      "Nonreciprocal Gyromagnetic Device Applications\", IEEE Trans. MTT-17, no. 12, "
      "pp. 1087–1090, Dec. 1969",
      "KiCad pcb_calculator, common/transline_calculations/coplanar.cpp (the same equations; "
      "github.com/KiCad/kicad-source-mirror)",
  };
  t.examples = {
      {.title = "10 mil trace, 5 mil gaps, 25 mil of εr 4.8, no bottom plane (AppCAD)",
       .request_json = R"({"bottom_ground":false,"trace_width_mm":0.254,"gap_mm":0.127,)"
                       R"("dielectric_height_mm":0.635,"copper_thickness_um":0,)"
                       R"("dielectric_constant":4.8})",
       .expected_json = R"({"z0_ohm":71.4,"effective_dielectric_constant":2.85})",
       .tolerance_pct = 0.2,
       .source = "Agilent AppCAD v3.0.2 output recorded in wcalc's test data, "
                 "benchmarks/freefem/coplanar.dat and stdio-wcalc/coplanar.dat (\"10 mil width, 5 "
                 "mil gap, 25 mil substrate. Er = 4.8 … no ground plane, Z0 = 71.4 Ohms, Keff = "
                 "2.85\", metal 1e-6 mil), github.com/dmcmahill/wcalc"},
      {.title = "The same line over a bottom ground plane (AppCAD)",
       .request_json = R"({"bottom_ground":true,"trace_width_mm":0.254,"gap_mm":0.127,)"
                       R"("dielectric_height_mm":0.635,"copper_thickness_um":0,)"
                       R"("dielectric_constant":4.8})",
       .expected_json = R"({"z0_ohm":68.3,"effective_dielectric_constant":2.95})",
       .tolerance_pct = 0.2,
       .source = "Agilent AppCAD v3.0.2 output recorded in wcalc's test data, "
                 "benchmarks/freefem/coplanar.dat (\"with ground plane, Z0 = 68.3 Ohms, Keff = "
                 "2.95\", metal 1e-6 mil), github.com/dmcmahill/wcalc"},
      {.title = "In air (εr 1), 1 mil (25.4 µm) copper, no bottom plane (AppCAD)",
       .request_json = R"({"bottom_ground":false,"trace_width_mm":0.254,"gap_mm":0.127,)"
                       R"("dielectric_height_mm":0.635,"copper_thickness_um":25.4,)"
                       R"("dielectric_constant":1})",
       .expected_json = R"({"z0_ohm":95.5})",
       .tolerance_pct = 0.2,
       .source = "Agilent AppCAD v3.0.2 output recorded in wcalc's test data, "
                 "benchmarks/freefem/coplanar.dat (\"Er = 1.0 … metal thickness … 1.0 mil … no "
                 "ground plane, Z0 = 95.5 Ohms\"), github.com/dmcmahill/wcalc"},
      {.title = "In air (εr 1), 0.5 mil (12.7 µm) copper, bottom plane (AppCAD)",
       .request_json = R"({"bottom_ground":true,"trace_width_mm":0.254,"gap_mm":0.127,)"
                       R"("dielectric_height_mm":0.635,"copper_thickness_um":12.7,)"
                       R"("dielectric_constant":1})",
       .expected_json = R"({"z0_ohm":110.5})",
       .tolerance_pct = 0.2,
       .source = "Agilent AppCAD v3.0.2 output recorded in wcalc's test data, "
                 "benchmarks/freefem/coplanar.dat (\"Er = 1.0 … with ground plane, Z0 = 110.5 "
                 "Ohms\" at 0.5 mil metal), github.com/dmcmahill/wcalc"},
  };
  return t;
}

// The arithmetic-geometric mean of 1 and x (0 ≤ x ≤ 1).
double agm1(double x) {
  double a = 1, b = x;
  for (int i = 0; i < 64 && a - b > 1e-15 * a; ++i) {
    const double next = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = next;
  }
  return a;
}

// K(k)/K'(k), the ratio of complete elliptic integrals of the first kind of modulus k and of
// the complementary modulus k' = √(1 − k²), given both (k' is passed so that it keeps its
// precision when k is close to 1): K(k) = π/(2·agm(1, k')), K'(k) = π/(2·agm(1, k)).
double elliptic_ratio(double k, double k_complement) {
  return agm1(k) / agm1(k_complement);
}

// K/K' of the plain coplanar modulus k = w/(w + 2s).
double coplanar_ratio(double w, double s) {
  return elliptic_ratio(w / (w + 2 * s), 2 * std::sqrt(s * (w + s)) / (w + 2 * s));
}

// 1 − e^(−2x), accurate for small x.
double one_minus_exp2(double x) {
  return -std::expm1(-2 * x);
}

// Ghione–Naldi grounded CPW (1983, eq. 8): k3 = tanh(a)/tanh(b), a = πw/4h, b = π(w + 2s)/4h.
double grounded_ratio(double a, double b) {
  const double ea = std::exp(-2 * a), eb = std::exp(-2 * b);
  const double tanh_a = one_minus_exp2(a) / (1 + ea), tanh_b = one_minus_exp2(b) / (1 + eb);
  // 1 − k3² = (tanh²b − tanh²a)/tanh²b, with tanh²b − tanh²a written without cancellation.
  const double diff = 4 * ea * one_minus_exp2(b - a) * one_minus_exp2(b + a) /
                      ((1 + ea) * (1 + ea) * (1 + eb) * (1 + eb));
  return elliptic_ratio(tanh_a / tanh_b, std::sqrt(diff) / tanh_b);
}

// Ghione–Naldi CPW on a substrate of height h with air below (1984, eq. 3a):
// k2 = sinh(a)/sinh(b).
double substrate_ratio(double a, double b) {
  const double k = std::exp(-(b - a)) * std::expm1(-2 * a) / std::expm1(-2 * b);
  const double one_minus_k2 =
      one_minus_exp2(b - a) * one_minus_exp2(b + a) / (one_minus_exp2(b) * one_minus_exp2(b));
  return elliptic_ratio(k, std::sqrt(one_minus_k2));
}

struct Line {
  double z0, e_eff;
};

// w, s, h and t in mm; t may be 0. The callers have checked the bounds (t ≤ s/4, the widened
// strip leaves a gap, w/h ≤ 20 over a plane).
Line coplanar_waveguide(bool grounded, double w, double s, double h, double t, double er) {
  const double q1 = coplanar_ratio(w, s);
  const double a = kPi / 4 * w / h, b = kPi / 4 * (w + 2 * s) / h;
  // Gupta et al.: a strip of thickness t acts as a thin one widened by d, the gaps narrowed by d.
  const double d = t > 0 ? 1.25 * t / kPi * (1 + std::log(4 * kPi * w / t)) : 0;
  const double qe = t > 0 ? coplanar_ratio(w + d, s - d) : q1;
  double e_eff, z_air;  // z_air: the impedance with the dielectric replaced by air
  if (grounded) {
    const double q3 = grounded_ratio(a, b);
    e_eff = 1 + (er - 1) * q3 / (qe + q3);
    z_air = kFreeSpaceImpedance / (2 * (qe + q3));
  } else {
    e_eff = 1 + (er - 1) / 2 * substrate_ratio(a, b) / q1;
    z_air = kFreeSpaceImpedance / (4 * qe);
  }
  if (t > 0) {
    // Gupta et al.: the part of the field in the air-filled gaps between the thick edges.
    const double x = 0.7 * t / s;
    e_eff -= x * (e_eff - 1) / (q1 + x);
  }
  return {z_air / std::sqrt(e_eff), e_eff};
}

ComputeResult compute(const Inputs& in) {
  const bool grounded = in.boolean("bottom_ground");
  const double w = in.number("trace_width_mm");
  const double s = in.number("gap_mm");
  const double h = in.number("dielectric_height_mm");
  const double t_um = in.number("copper_thickness_um");
  const double t = t_um / 1000;
  const double er = in.number("dielectric_constant");
  if (grounded && w / h > kMaxGroundedWidthRatio) {
    std::string msg = "trace_width_mm of ";
    append_shortest(msg, w);
    msg += " mm is ";
    append_fixed(msg, w / h, 1);
    msg +=
        " times dielectric_height_mm; over a bottom ground plane the model holds up to w/h = "
        "20 (a wider strip is a microstrip): use a thicker dielectric, a narrower trace, or a "
        "microstrip tool";
    return ToolError{"trace_width_mm", std::move(msg)};
  }
  if (t > kMaxThicknessToGap * s) {
    std::string msg = "copper_thickness_um of ";
    append_shortest(msg, t_um);
    msg += " µm is more than a quarter of gap_mm (";
    append_shortest(msg, s);
    msg +=
        " mm); the strip-thickness correction is for copper thin next to the gap: widen the "
        "gap, or use a field solver";
    return ToolError{"copper_thickness_um", std::move(msg)};
  }
  if (t > 0 && 1.25 * t / kPi * (1 + std::log(4 * kPi * w / t)) >= s) {
    std::string msg = "copper_thickness_um of ";
    append_shortest(msg, t_um);
    msg +=
        " µm on a trace this much wider than its gap widens the strip, in the thickness "
        "correction, across the whole gap: widen gap_mm, or use a field solver";
    return ToolError{"copper_thickness_um", std::move(msg)};
  }
  const Line line = coplanar_waveguide(grounded, w, s, h, t, er);
  Outputs out;
  out.set("z0_ohm", line.z0)
      .set("effective_dielectric_constant", line.e_eff)
      .set("propagation_delay_ps_per_mm", std::sqrt(line.e_eff) / kSpeedOfLightMmPerPs);
  return out;
}

}  // namespace

Tool make_coplanar_waveguide_impedance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
