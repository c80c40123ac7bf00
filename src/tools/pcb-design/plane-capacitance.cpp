// Parallel-plate capacitance between a power and a ground plane, per area and in total, with
// the pair's spreading inductance per square. Formula, bounds and sources:
// docs/tools/plane-capacitance.md.
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kEpsilon0 = 8.8541878128e-12;  // F/m, CODATA 2018
constexpr double kMu0 = 1.25663706212e-6;       // H/m, CODATA 2018
constexpr double kCm2PerIn2 = 6.4516;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "plane-capacitance";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Power–Ground Plane Capacitance";
  t.description =
      "Capacitance between two overlapping PCB planes (power and ground) as a parallel-plate "
      "capacitor C = ε0·εr·A/d, per area and for the overlap, and the plane pair's spreading "
      "inductance per square µ0·d — for embedded (buried) capacitance and PDN estimates. "
      "Fringing is neglected (overlap much wider than the dielectric).";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "overlap_length_mm",
                    .label = "Overlap length",
                    .unit = "mm",
                    .help = "Length of the area where the two planes overlap.",
                    .min = 1,
                    .max = 1000,
                    .step = 1,
                    .default_value = 100}),
      number_input({.key = "overlap_width_mm",
                    .label = "Overlap width",
                    .unit = "mm",
                    .help = "Width of the overlap area (subtract large cut-outs from the area "
                            "yourself).",
                    .min = 1,
                    .max = 1000,
                    .step = 1,
                    .default_value = 100}),
      number_input({.key = "dielectric_thickness_um",
                    .label = "Dielectric thickness (d)",
                    .unit = "µm",
                    .help = "Thickness of the dielectric between the planes: e.g. 100 µm "
                            "(4 mil) prepreg, 8–25 µm for embedded-capacitance laminates. At "
                            "most 3000 µm.",
                    .min = 1,
                    .max = 3000,
                    .step = 1,
                    .default_value = 100}),
      number_input({.key = "dielectric_constant",
                    .label = "Relative permittivity εr",
                    .unit = "",
                    .help = "Dk of the dielectric between the planes: about 4–4.5 for FR-4, up to "
                            "about 30 for ceramic-filled embedded-capacitance materials.",
                    .min = 1,
                    .max = 100,
                    .step = 0.01,
                    .default_value = 4.3}),
  };
  t.outputs = {
      number_output({.key = "capacitance_nf",
                     .label = "Capacitance of the overlap",
                     .unit = "nF",
                     .precision = 3,
                     .small_values_in = "capacitance_pf"}),
      number_output({.key = "capacitance_pf",
                     .label = "Capacitance of the overlap",
                     .unit = "pF",
                     .precision = 4,
                     .small_values_in = "capacitance_ff"}),
      number_output({.key = "capacitance_ff",
                     .label = "Capacitance of the overlap",
                     .unit = "fF",
                     .precision = 3}),
      number_output({.key = "capacitance_pf_per_cm2",
                     .label = "Capacitance per area",
                     .unit = "pF/cm²",
                     .precision = 3}),
      number_output({.key = "capacitance_pf_per_in2",
                     .label = "Capacitance per area",
                     .unit = "pF/in²",
                     .precision = 2}),
      number_output({.key = "spreading_inductance_nh_per_square",
                     .label = "Spreading inductance per square (µ0·d)",
                     .unit = "nH/sq",
                     .precision = 4,
                     .small_values_in = "spreading_inductance_ph_per_square"}),
      number_output({.key = "spreading_inductance_ph_per_square",
                     .label = "Spreading inductance per square (µ0·d)",
                     .unit = "pH/sq",
                     .precision = 3}),
  };
  t.references = {
      "D. K. Cheng, \"Field and Wave Electromagnetics\", 2nd ed., Addison-Wesley, 1989, chapter "
      "on electrostatics: capacitance of a parallel-plate capacitor C = εA/d, fringing "
      "neglected",
      "L. D. Smith, E. Bogatin, \"Principles of Power Integrity for PDN Design\", Prentice Hall, "
      "2017: plane-pair capacitance per area ε0·εr/d and spreading inductance per square µ0·d",
      "SI-LIST, R. Anderson (Sun Microsystems), 9 June 2000 (qsl.net/wb6tpu/si-list5/0476.html): "
      "C = εr·ε0/t, \"about 225 pF/sq inch for 4 mil FR4\" and \"about .13 nH/square for planes "
      "separated by 4 mils\"",
      "CODATA 2018: ε0 = 8.8541878128e-12 F/m, µ0 = 1.25663706212e-6 H/m",
  };
  t.examples = {
      {.title = "1 mm² pad on 10 mil (0.25 mm) alumina, εr 9.9",
       .request_json =
           R"({"overlap_length_mm":1,"overlap_width_mm":1,"dielectric_thickness_um":250,)"
           R"("dielectric_constant":9.9})",
       .expected_json = R"({"capacitance_pf":0.35})",
       .tolerance_pct = 1.5,
       .source =
           "VEE OS engineering library, ppCap (veeos.org/library/A/ppCap.htm): \"A 1mm square "
           "pad on 10 mil high density alumina has an equivalent capacitance of ppCap(1, "
           "0.25, 9.9) = 0.35 pF\" (C = ε0·εr·A/d)"},
      {.title = "Planes 4 mil apart: spreading inductance per square",
       .request_json = R"({"overlap_length_mm":100,"overlap_width_mm":150,)"
                       R"("dielectric_thickness_um":101.6,"dielectric_constant":4})",
       .expected_json = R"({"spreading_inductance_nh_per_square":0.13})",
       .tolerance_pct = 2,
       .source = "SI-LIST, R. Anderson, 9 June 2000 (qsl.net/wb6tpu/si-list5/0476.html): \"about "
                 ".13 nH/square for planes separated by 4 mils\" (µ0·d, independent of εr)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double area_m2 = in.number("overlap_length_mm") * in.number("overlap_width_mm") * 1e-6;
  const double d_m = in.number("dielectric_thickness_um") * 1e-6;
  const double er = in.number("dielectric_constant");
  const double c_per_m2 = kEpsilon0 * er / d_m;  // F/m²
  const double c_pf = c_per_m2 * area_m2 * 1e12;
  const double l_per_square_h = kMu0 * d_m;
  Outputs out;
  out.set("capacitance_nf", c_pf / 1000)
      .set("capacitance_pf", c_pf)
      .set("capacitance_ff", c_pf * 1000)
      .set("capacitance_pf_per_cm2", c_per_m2 * 1e-4 * 1e12)
      .set("capacitance_pf_per_in2", c_per_m2 * 1e-4 * kCm2PerIn2 * 1e12)
      .set("spreading_inductance_nh_per_square", l_per_square_h * 1e9)
      .set("spreading_inductance_ph_per_square", l_per_square_h * 1e12);
  return out;
}

}  // namespace

Tool make_plane_capacitance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
