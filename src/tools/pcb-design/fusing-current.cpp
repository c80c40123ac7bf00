// Current that melts (fuses) a copper trace in a given time, by Onderdonk's equation.
// Formula, bounds and sources: docs/tools/fusing-current.md.
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kMmPerMil;

constexpr double kCopperMeltingPointC = 1083;  // the value Onderdonk's equation is quoted with
constexpr double kCopperInferredZeroC = 234;  // copper's resistance extrapolates to 0 at −234 °C
constexpr double kOnderdonkConstant = 33;
// One circular mil is the area of a circle 1 mil in diameter: π/4 mil².
constexpr double kCircularMilsPerSquareMil = 4 / std::numbers::pi;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "fusing-current";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "Trace Fusing Current (Onderdonk)";
  t.description =
      "Current that raises a copper trace from ambient to its melting point (1083 °C) in a "
      "given time, by Onderdonk's adiabatic equation I = A·√(log10(1 + (Tm − Ta)/(234 + Ta)) / "
      "(33·t)) with A in circular mils; with the trace's cross-section and I²t. For short "
      "overloads (1 ms to 10 s); it ignores heat lost to the board, so it is an upper bound on "
      "what a trace survives.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "trace_width_mm",
                    .label = "Trace width",
                    .unit = "mm",
                    .help = "Width of the trace at its narrowest point (necks fuse first).",
                    .min = 0.05,
                    .max = 50,
                    .step = 0.01,
                    .default_value = 0.254}),
      number_input({.key = "copper_thickness_um",
                    .label = "Copper thickness",
                    .unit = "µm",
                    .help = "Finished copper thickness: 17.5 µm for ½ oz, 35 µm for 1 oz, 70 µm "
                            "for 2 oz foil.",
                    .min = 9,
                    .max = 500,
                    .step = 1,
                    .default_value = 35}),
      number_input({.key = "duration_s",
                    .label = "Fault duration",
                    .unit = "s",
                    .help = "How long the overload current flows. Onderdonk's equation assumes "
                            "no heat escapes the copper, which holds for about 1 ms to 10 s.",
                    .min = 0.001,
                    .max = 10,
                    .step = 0.001,
                    .default_value = 1}),
      number_input({.key = "ambient_c",
                    .label = "Starting (ambient) temperature",
                    .unit = "°C",
                    .help = "Temperature of the trace when the overload starts.",
                    .min = -55,
                    .max = 150,
                    .step = 1,
                    .default_value = 25}),
  };
  t.outputs = {
      number_output(
          {.key = "fusing_current_a", .label = "Fusing current", .unit = "A", .precision = 4}),
      number_output(
          {.key = "cross_section_cmil", .label = "Cross-section", .unit = "cmil", .precision = 3}),
      number_output(
          {.key = "cross_section_mm2", .label = "Cross-section", .unit = "mm²", .precision = 6}),
      number_output({.key = "i2t_a2s", .label = "Melting I²t", .unit = "A²s", .precision = 4}),
  };
  t.references = {
      "D. Brooks, PCB Design column, PCD&F, July 2015 (pcdandf.com/pcdesign/index.php/"
      "magazine/10179-pcb-design-1507): Onderdonk's equation I = A·√(log10(1 + "
      "(Tm − Ta)/(234 + Ta))/(33·S)), A in circular mils, S in seconds, its earliest citation "
      "(E. R. Stauffacher, General Electric Review, 1928) and a derivation",
      "D. Brooks, J. Adam, \"PCB Fusing Currents\", PCD&F, 1 Sept. 2015, and D. Brooks, "
      "\"Onderdonk's and Preece's Equations: How Do They Compare?\", PCD&F (pcdandf.com): the "
      "equation's assumptions (no heat loss, fusing at 1083 °C) and limits",
      "pcbinsider.com, \"Fusing Current Calculator — Calculate PCB trace fusing current using "
      "Onderdonk equation\" (pcbinsider.com/tools/fusing-current-calculator): reference table "
      "for 1 oz copper at 1 s",
  };
  t.examples = {
      {.title = "10 mil, 1 oz trace, 1 s",
       .request_json = R"({"trace_width_mm":0.254,"copper_thickness_um":35,"duration_s":1,)"
                       R"("ambient_c":25})",
       .expected_json = R"({"fusing_current_a":2.6})",
       .tolerance_pct = 2,
       .source = "pcbinsider.com Fusing Current Calculator (Onderdonk equation), \"Fusing Current "
                 "Reference (1oz copper, 1s)\" table, row 10 mil: 18 cmil, 2.6 A "
                 "(pcbinsider.com/tools/fusing-current-calculator); 2 significant digits"},
      {.title = "100 mil, 1 oz trace, 1 s",
       .request_json = R"({"trace_width_mm":2.54,"copper_thickness_um":35,"duration_s":1,)"
                       R"("ambient_c":25})",
       .expected_json = R"({"fusing_current_a":25.7,"cross_section_cmil":175})",
       .tolerance_pct = 0.5,
       .source = "pcbinsider.com Fusing Current Calculator (Onderdonk equation), \"Fusing Current "
                 "Reference (1oz copper, 1s)\" table, row 100 mil: 175 cmil, 25.7 A "
                 "(pcbinsider.com/tools/fusing-current-calculator)"},
      {.title = "50 mil, 1 oz trace, 1 s",
       .request_json = R"({"trace_width_mm":1.27,"copper_thickness_um":35,"duration_s":1,)"
                       R"("ambient_c":25})",
       .expected_json = R"({"fusing_current_a":12.8})",
       .tolerance_pct = 0.5,
       .source = "pcbinsider.com Fusing Current Calculator (Onderdonk equation), \"Fusing Current "
                 "Reference (1oz copper, 1s)\" table, row 50 mil: 88 cmil, 12.8 A "
                 "(pcbinsider.com/tools/fusing-current-calculator)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double width_mil = in.number("trace_width_mm") / kMmPerMil;
  const double thickness_mil = in.number("copper_thickness_um") / 1000 / kMmPerMil;
  const double area_cmil = width_mil * thickness_mil * kCircularMilsPerSquareMil;
  const double ta = in.number("ambient_c");
  const double seconds = in.number("duration_s");
  const double log_term = std::log10(1 + (kCopperMeltingPointC - ta) / (kCopperInferredZeroC + ta));
  // I²t is fixed for the trace: A²·log_term/33 (A², s); the fusing current follows from t.
  const double i2t = area_cmil * area_cmil * log_term / kOnderdonkConstant;
  Outputs out;
  out.set("fusing_current_a", std::sqrt(i2t / seconds))
      .set("cross_section_cmil", area_cmil)
      .set("cross_section_mm2",
           in.number("trace_width_mm") * in.number("copper_thickness_um") / 1000)
      .set("i2t_a2s", i2t);
  return out;
}

}  // namespace

Tool make_fusing_current() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
