// Partial self-inductance of a straight flat trace (Rosa/Grover), and the inductance of a
// narrow trace over a return plane (wire-over-plane form, as Brooks gives it). Formula,
// bounds and sources: docs/tools/trace-inductance.md.
#include <cmath>
#include <numbers>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// µ0/2π = 0.2 nH/mm (= 0.0002 µH/mm): the coefficient of both formulas.
constexpr double kNhPerMm = 0.2;
constexpr double kMmPerInch = 25.4;
// Rosa's correction term keeps only the first order in (w + t)/l: hold l ≥ 10·(w + t).
constexpr double kMinLengthToSection = 10;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "trace-inductance";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Trace Inductance";
  t.description =
      "Partial self-inductance of a straight rectangular PCB trace far from any plane "
      "(Rosa/Grover: L = 0.2·l·[ln(2l/(w + t)) + 0.5 + 0.2235·(w + t)/l] nH, mm), valid for "
      "l ≥ 10·(w + t); and, for a trace over a return plane, the loop inductance of the "
      "wire-over-plane form L = 0.2·l·ln(2πh/w) nH for h ≥ w.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "trace_length_mm",
                    .label = "Trace length (l)",
                    .unit = "mm",
                    .help = "Length of the straight trace; at least 10 × (width + thickness).",
                    .min = 1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 25.4}),
      number_input({.key = "trace_width_mm",
                    .label = "Trace width (w)",
                    .unit = "mm",
                    .help = "Width of the trace.",
                    .min = 0.01,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 0.254}),
      number_input({.key = "copper_thickness_um",
                    .label = "Copper thickness (t)",
                    .unit = "µm",
                    .help = "Finished copper thickness: 35 µm for 1 oz foil.",
                    .min = 5,
                    .max = 500,
                    .step = 1,
                    .default_value = 35}),
      flag_input({.key = "over_plane",
                  .label = "Trace runs over a return plane",
                  .help = "On: also give the loop inductance with the plane as return path "
                          "(needs height ≥ width). Off: free-space partial inductance only.",
                  .default_value = true}),
      number_input({.key = "height_above_plane_mm",
                    .label = "Height above the plane (h)",
                    .unit = "mm",
                    .help = "Dielectric thickness between the trace and its return plane; used "
                            "when the trace runs over a plane, and at least the trace width.",
                    .min = 0.01,
                    .max = 20,
                    .step = 0.01,
                    .default_value = 0.254}),
  };
  t.outputs = {
      number_output({.key = "partial_inductance_nh",
                     .label = "Partial self-inductance (no plane)",
                     .unit = "nH",
                     .precision = 3}),
      number_output({.key = "partial_inductance_nh_per_mm",
                     .label = "Partial self-inductance per length",
                     .unit = "nH/mm",
                     .precision = 4}),
      number_output({.key = "over_plane_inductance_nh",
                     .label = "Loop inductance over the plane",
                     .unit = "nH",
                     .precision = 3}),
      number_output({.key = "over_plane_inductance_nh_per_inch",
                     .label = "Loop inductance over the plane per length",
                     .unit = "nH/in",
                     .precision = 2}),
  };
  t.references = {
      "F. W. Grover, \"Inductance Calculations\", Dover, 1946 (reprint 2004), ch. 3: straight "
      "conductor of rectangular cross-section, L = 0.002·l·[ln(2l/(w + t)) + 0.5 + "
      "0.2235·(w + t)/l] µH with lengths in cm (after E. B. Rosa, Bull. Bureau of Standards, "
      "vol. 4, 1908)",
      "Analog Devices, \"Linear Circuit Design Handbook\" (H. Zumbahlen, ed.), Newnes, 2008, ch. "
      "12 (PCB design issues: strip inductance 0.0002·X·[ln(2X/(W + H)) + 0.2235·(W + H)/X + "
      "0.5] µH, mm)",
      "D. Brooks, SI-LIST, 24 Nov. 1998 (qsl.net/wb6tpu/si-list2/pre99/2040.html): trace over "
      "a plane L ≈ 5·ln(2πh/w) nH/in; \"10 mil wide trace 10 mil above plane is approx 9.2 "
      "nH/in\"",
  };
  t.examples = {
      {.title = "10 mil trace 10 mil above its plane",
       .request_json = R"({"trace_length_mm":25.4,"trace_width_mm":0.254,)"
                       R"("copper_thickness_um":35,"over_plane":true,)"
                       R"("height_above_plane_mm":0.254})",
       .expected_json = R"({"over_plane_inductance_nh_per_inch":9.2})",
       .tolerance_pct = 2,
       .source =
           "D. Brooks, SI-LIST, 24 Nov. 1998 (qsl.net/wb6tpu/si-list2/pre99/2040.html): "
           "\"10 mil wide trace 10 mil above plane is approx 9.2 nH/in\"; Brooks rounds µ0/2π "
           "= 5.08 nH/in to 5, which explains the 1.6 % difference"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double l = in.number("trace_length_mm");
  const double w = in.number("trace_width_mm");
  const double t = in.number("copper_thickness_um") / 1000;
  const bool over_plane = in.boolean("over_plane");
  const double h = in.number("height_above_plane_mm");
  if (l < kMinLengthToSection * (w + t)) {
    std::string msg = "trace_length_mm of ";
    append_shortest(msg, l);
    msg += " mm is less than 10 × (width + thickness) = ";
    append_fixed(msg, kMinLengthToSection * (w + t), 3);
    msg += " mm; the straight-conductor formula needs a trace much longer than it is wide";
    return ToolError{"trace_length_mm", std::move(msg)};
  }
  if (over_plane && h < w) {
    std::string msg = "height_above_plane_mm of ";
    append_shortest(msg, h);
    msg +=
        " mm is less than the trace width; the wire-over-plane form holds for h ≥ w — for a "
        "wide trace close to its plane use L = Z0·√εeff/c from an impedance tool, or turn "
        "over_plane off";
    return ToolError{"height_above_plane_mm", std::move(msg)};
  }
  const double section = w + t;
  const double partial_nh = kNhPerMm * l * (std::log(2 * l / section) + 0.5 + 0.2235 * section / l);
  const double plane_nh_per_mm = over_plane ? kNhPerMm * std::log(2 * std::numbers::pi * h / w) : 0;
  Outputs out;
  out.set("partial_inductance_nh", partial_nh)
      .set("partial_inductance_nh_per_mm", partial_nh / l)
      .set("over_plane_inductance_nh", plane_nh_per_mm * l)
      .set("over_plane_inductance_nh_per_inch", plane_nh_per_mm * kMmPerInch);
  return out;
}

}  // namespace

Tool make_trace_inductance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
