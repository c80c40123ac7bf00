// Surface microstrip characteristic impedance, IPC-2141A closed form, with its validity range
// as 422. Formula, references and worked examples: docs/tools/microstrip-impedance.md.
#include <cmath>

#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// IPC-2141A surface microstrip: Z0 = 87/√(εr + 1.41) · ln(5.98·h / (0.8·w + t)).
constexpr double kZ0Numerator = 87;
constexpr double kErOffset = 1.41;
constexpr double kHeightFactor = 5.98;
constexpr double kWidthFactor = 0.8;
// The range over which the closed form was fitted (IPC-2141A; Wadell).
constexpr double kMinWidthToHeight = 0.1;
constexpr double kMaxWidthToHeight = 2.0;
constexpr double kMaxEr = 15;
// Effective permittivity of an FR-4-class surface microstrip, εeff = 0.475·εr + 0.67
// (Motorola MECL System Design Handbook; IPC-2141), used for the propagation delay.
constexpr double kEeffSlope = 0.475;
constexpr double kEeffOffset = 0.67;
constexpr double kSpeedOfLight = 299792458;  // m/s, exact (SI)
constexpr double kMmPerInch = 25.4;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "microstrip-impedance";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Microstrip Impedance (IPC-2141A)";
  t.description =
      "Characteristic impedance of a surface microstrip (an outer-layer trace over a reference "
      "plane) from its width, dielectric height, copper thickness and the laminate's relative "
      "permittivity, by the IPC-2141A closed-form equation; with an effective permittivity "
      "and propagation-delay estimate. Inputs outside the equation's validity range are "
      "refused rather than extrapolated.";
  t.standard = "IPC-2141A";
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
  t.inputs = {
      number("trace_width_mm", "Trace width (w)", "mm",
             "Width of the trace. The equation holds for 0.1 ≤ w/h ≤ 2.0; outside that range "
             "the request is refused (422).",
             0.025, 10, 0.01, 0.3),
      number("dielectric_height_mm", "Dielectric height (h)", "mm",
             "Thickness of the dielectric between the trace and its reference plane (the "
             "prepreg or core under an outer layer), not the whole board.",
             0.025, 5, 0.01, 0.2),
      number("copper_thickness_um", "Copper thickness (t)", "µm",
             "Finished thickness of the trace: 35 µm for 1 oz/ft² foil; outer layers are often "
             "plated up to about 45–50 µm.",
             5, 210, 1, 35),
      number("dielectric_constant", "Relative permittivity εr", "",
             "Dielectric constant (Dk) of the laminate at the frequency of interest, e.g. about "
             "4.2–4.6 for FR-4 at 1 GHz, 3.0–3.7 for RF laminates. The equation holds up to 15.",
             1, 30, 0.01, 4.3),
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
      out("z0_ohm", "Characteristic impedance Z0", "Ω", 2),
      out("width_to_height", "Width-to-height ratio w/h", "", 3),
      out("effective_dielectric_constant", "Effective permittivity εeff (estimate)", "", 3),
      out("propagation_delay_ps_per_mm", "Propagation delay", "ps/mm", 3),
      out("propagation_delay_ps_per_inch", "Propagation delay", "ps/in", 2),
  };
  t.references = {
      "IPC-2141A, \"Design Guide for High-Speed Controlled Impedance Circuit Boards\" (2004): "
      "surface microstrip Z0 = 87/√(εr + 1.41)·ln(5.98h/(0.8w + t))",
      "B. C. Wadell, \"Transmission Line Design Handbook\", Artech House, 1991 (microstrip "
      "equations, their accuracy and ranges)",
      "W. R. Blood, \"MECL System Design Handbook\", 4th ed., Motorola, 1988: microstrip "
      "delay t_pd = 1.017·√(0.475·εr + 0.67) ns/ft",
      "D. Brooks, \"Microstrip Propagation Times — Slower Than We Think\", UltraCAD Design "
      "(limits of the geometry-independent εeff estimate)",
      "BIPM, SI Brochure, 9th ed.: c = 299 792 458 m/s exactly",
  };
  t.examples = {
      {.title = "Defaults: 0.3 mm trace over 0.2 mm FR-4 prepreg (εr 4.3), 35 µm copper",
       .request_json =
           R"({"trace_width_mm":0.3,"dielectric_height_mm":0.2,"copper_thickness_um":35,)"
           R"("dielectric_constant":4.3})"},
      {.title = "About 50 Ω: 0.35 mm trace on the same stack-up",
       .request_json =
           R"({"trace_width_mm":0.35,"dielectric_height_mm":0.2,"copper_thickness_um":35,)"
           R"("dielectric_constant":4.3})"},
      {.title = "RF laminate: 1.5 mm trace over 0.813 mm of εr 3.38",
       .request_json =
           R"({"trace_width_mm":1.5,"dielectric_height_mm":0.813,"copper_thickness_um":35,)"
           R"("dielectric_constant":3.38})"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double w = in.number("trace_width_mm");
  const double h = in.number("dielectric_height_mm");
  const double t = in.number("copper_thickness_um") / 1000.0;  // mm, like w and h
  const double er = in.number("dielectric_constant");
  if (er > kMaxEr) {
    std::string msg = "dielectric_constant of ";
    append_shortest(msg, er);
    msg +=
        " is outside the IPC-2141A microstrip equation's range (εr at most 15); use a field "
        "solver for such a substrate";
    return ToolError{"dielectric_constant", std::move(msg)};
  }
  const double ratio = w / h;
  if (ratio < kMinWidthToHeight || ratio > kMaxWidthToHeight) {
    std::string msg = "trace_width_mm of ";
    append_shortest(msg, w);
    msg += " mm over dielectric_height_mm of ";
    append_shortest(msg, h);
    msg += " mm gives w/h = ";
    append_fixed(msg, ratio, 3);
    msg +=
        ", outside the IPC-2141A microstrip equation's range (0.1 ≤ w/h ≤ 2.0); use a field "
        "solver or the Hammerstad–Jensen equations for such a geometry";
    return ToolError{"trace_width_mm", std::move(msg)};
  }
  const double log_argument = kHeightFactor * h / (kWidthFactor * w + t);
  if (log_argument <= 1) {
    std::string msg = "copper_thickness_um of ";
    append_shortest(msg, in.number("copper_thickness_um"));
    msg +=
        " µm is too thick for this trace and dielectric: 0.8·w + t must be less than 5.98·h "
        "for the IPC-2141A equation to give a positive impedance";
    return ToolError{"copper_thickness_um", std::move(msg)};
  }
  const double z0 = kZ0Numerator / std::sqrt(er + kErOffset) * std::log(log_argument);
  const double e_eff = kEeffSlope * er + kEeffOffset;
  // t_pd = √εeff / c; c in mm/ps is 0.299792458.
  const double delay_ps_per_mm = std::sqrt(e_eff) / (kSpeedOfLight * 1e3 / 1e12);
  Outputs out;
  out.set("z0_ohm", z0)
      .set("width_to_height", ratio)
      .set("effective_dielectric_constant", e_eff)
      .set("propagation_delay_ps_per_mm", delay_ps_per_mm)
      .set("propagation_delay_ps_per_inch", delay_ps_per_mm * kMmPerInch);
  return out;
}

}  // namespace

Tool make_microstrip_impedance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
