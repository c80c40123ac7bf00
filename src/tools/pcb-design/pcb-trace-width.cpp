// PCB trace width for a current and temperature rise, IPC-2221 (spec §2.5), as in KiCad's
// pcb_calculator. Formula, references and worked examples: docs/tools/pcb-trace-width.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/pcb-design/ipc2221_current.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kCopperResistivity;
using pcb::kMetresPerMil;
using pcb::kMilPerOz;
using pcb::kMmPerMil;
using pcb::kUmPerMil;

// The IPC-2221 curve and the limits of its charts: ipc2221_current.hpp.
using ipc2221::kMaxInternalCurrentA;
using ipc2221::kMaxWidthMil;

constexpr double kLengthM = 0.01;  // outputs are per centimetre of trace

constexpr const char* kKicadManual1A =
    "KiCad PCB Calculator reference manual (kicad-doc, 2019), section Track Width, figure "
    "trackwidth.png of the Japanese, Polish, Russian and Chinese editions "
    "(github.com/KiCad/kicad-doc, src/pcb_calculator/images/{ja,pl,ru,zh}/trackwidth.png): "
    "current 1.0 A, temperature rise 10 °C, track thickness 0.035 mm give an external track "
    "0.300387 mm wide and an internal track 0.781437 mm wide (formula from IPC 2221, "
    "K = 0.048 / 0.024)";
constexpr const char* kKicadManualPoint2mm =
    "KiCad PCB Calculator reference manual (kicad-doc, 2019), section Track Width, figure "
    "trackwidth.png of the English and Italian editions (github.com/KiCad/kicad-doc, "
    "src/pcb_calculator/images/{en,it}/trackwidth.png): an external track 0.2 mm wide and "
    "0.035 mm thick carries 0.744609 A at a 10 °C rise, and an internal track needs 0.520288 mm "
    "for that current (formula from IPC 2221, K = 0.048 / 0.024)";

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "pcb-trace-width";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "PCB Trace Width (IPC-2221)";
  t.description =
      "Minimum copper trace width for a continuous current and an allowed temperature rise, "
      "on an external or internal layer, from the IPC-2221 current-capacity curves; with the "
      "trace's cross-section, resistance, voltage drop and power loss per centimetre.";
  t.standard = "IPC-2221";
  t.inputs = {
      number_input({.key = "current_a",
                    .label = "Current",
                    .unit = "A",
                    .help = "Continuous (DC or RMS) current the trace must carry. IPC-2221 charts "
                            "cover up to 35 A on external and 17.5 A on internal layers, and "
                            "widths up to 400 mil (10.16 mm); beyond either the request is "
                            "refused (422).",
                    .min = 0.01,
                    .max = 35,
                    .step = 0.1,
                    .default_value = 1}),
      number_input({.key = "temp_rise_c",
                    .label = "Temperature rise",
                    .unit = "°C",
                    .help = "Allowed steady-state rise of the trace above the board's ambient "
                            "temperature. 10 °C is a common conservative choice.",
                    .min = 1,
                    .max = 100,
                    .step = 1,
                    .default_value = 10}),
      number_input({.key = "copper_weight_oz",
                    .label = "Copper weight",
                    .unit = "oz/ft²",
                    .help = "Finished copper weight: 1 oz/ft² is 35 µm (1.378 mil) thick. Outer "
                            "layers are often plated up from 0.5 oz to about 1 oz.",
                    .min = 0.5,
                    .max = 3,
                    .step = 0.5,
                    .default_value = 1}),
      choice_input({.key = "layer",
                    .label = "Layer",
                    .help = "external: top or bottom layer, cooled by air. internal: buried in "
                            "the laminate, which conducts heat away poorly, so IPC-2221 allows "
                            "half the current for the same area.",
                    .options = {"external", "internal"},
                    .default_value = "external"}),
  };
  t.outputs = {
      number_output(
          {.key = "width_mil", .label = "Minimum trace width", .unit = "mil", .precision = 1}),
      number_output(
          {.key = "width_mm", .label = "Minimum trace width", .unit = "mm", .precision = 3}),
      number_output({.key = "cross_section_mil2",
                     .label = "Copper cross-section",
                     .unit = "mil²",
                     .precision = 1}),
      number_output({.key = "copper_thickness_um",
                     .label = "Copper thickness",
                     .unit = "µm",
                     .precision = 1}),
      number_output({.key = "resistance_mohm_per_cm",
                     .label = "Resistance per centimetre (20 °C)",
                     .unit = "mΩ/cm",
                     .precision = 2}),
      number_output({.key = "voltage_drop_mv_per_cm",
                     .label = "Voltage drop per centimetre",
                     .unit = "mV/cm",
                     .precision = 2}),
      number_output({.key = "power_loss_mw_per_cm",
                     .label = "Power loss per centimetre",
                     .unit = "mW/cm",
                     .precision = 2}),
  };
  t.references = {
      "IPC-2221B, \"Generic Standard on Printed Board Design\", section 6.2 (conductor "
      "current-carrying capacity, figure 6-4)",
      "KiCad pcb_calculator, track width panel (pcb_calculator/calculator_panels/"
      "panel_track_width.cpp): k = 0.048 / 0.024, exponents 0.44 and 0.725, copper "
      "ρ = 1.72e-8 Ω·m",
      "D. Brooks, \"Temperature Rise in PCB Traces\", UltraCAD Design (origin and limits of the "
      "IPC curve fit)",
      "IEC 60028, \"International standard of resistance for copper\" (annealed copper, "
      "1.7241e-8 Ω·m at 20 °C)",
      "IPC-2152, \"Standard for Determining Current Carrying Capacity in Printed Board Design\" "
      "(newer, less conservative data; not used here)",
  };
  // The Track Width panel of KiCad's pcb_calculator that its 2019 manual documents computes
  // this very curve (IPC-2221, K = 0.048 / 0.024, printed in the panel); the manual shows it
  // twice with inputs and results on screen. KiCad takes 1 oz as 0.035 mm and we as 1.378 mil
  // (35.0012 µm), which moves the width by 0.0034 %; the manual prints six significant digits.
  t.examples = {
      {.title = "1 A, 10 °C rise, 1 oz copper, external layer (KiCad manual)",
       .request_json =
           R"({"current_a":1,"temp_rise_c":10,"copper_weight_oz":1,"layer":"external"})",
       .expected_json = R"({"width_mm":0.300387})",
       .tolerance_pct = 0.01,
       .source = kKicadManual1A},
      {.title = "1 A, 10 °C rise, 1 oz copper, internal layer (KiCad manual)",
       .request_json =
           R"({"current_a":1,"temp_rise_c":10,"copper_weight_oz":1,"layer":"internal"})",
       .expected_json = R"({"width_mm":0.781437})",
       .tolerance_pct = 0.01,
       .source = kKicadManual1A},
      {.title = "0.744609 A, 10 °C rise, 1 oz copper, external layer (KiCad manual)",
       .request_json =
           R"({"current_a":0.744609,"temp_rise_c":10,"copper_weight_oz":1,"layer":"external"})",
       .expected_json = R"({"width_mm":0.2})",
       .tolerance_pct = 0.01,
       .source = kKicadManualPoint2mm},
      {.title = "0.744609 A, 10 °C rise, 1 oz copper, internal layer (KiCad manual)",
       .request_json =
           R"({"current_a":0.744609,"temp_rise_c":10,"copper_weight_oz":1,"layer":"internal"})",
       .expected_json = R"({"width_mm":0.520288})",
       .tolerance_pct = 0.01,
       .source = kKicadManualPoint2mm},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double current = in.number("current_a");
  const bool internal = in.enumeration("layer") == "internal";
  if (internal && current > kMaxInternalCurrentA) {
    std::string msg = "current_a of ";
    append_shortest(msg, current);
    msg +=
        " A is beyond the IPC-2221 charts for internal layers (at most 17.5 A); split the "
        "current over several traces or layers, or route it on an external layer";
    return ToolError{"current_a", std::move(msg)};
  }
  const double area_mil2 = ipc2221::area_mil2(internal ? ipc2221::kInternal : ipc2221::kExternal,
                                              in.number("temp_rise_c"), current);
  const double thickness_mil = in.number("copper_weight_oz") * kMilPerOz;
  const double width_mil = area_mil2 / thickness_mil;
  if (width_mil > kMaxWidthMil) {
    std::string msg = "current_a of ";
    append_shortest(msg, current);
    msg += " A needs a trace ";
    append_fixed(msg, width_mil, 1);
    msg +=
        " mil wide, beyond the IPC-2221 charts (at most 400 mil); allow a larger temp_rise_c, "
        "use heavier copper or split the current over several traces";
    return ToolError{"current_a", std::move(msg)};
  }
  // R = ρ·L / (W·H) for 1 cm of trace, W and H in metres.
  const double resistance_ohm = kCopperResistivity * kLengthM /
                                ((width_mil * kMetresPerMil) * (thickness_mil * kMetresPerMil));
  const double drop_v = current * resistance_ohm;
  Outputs out;
  out.set("width_mil", width_mil)
      .set("width_mm", width_mil * kMmPerMil)
      .set("cross_section_mil2", area_mil2)
      .set("copper_thickness_um", thickness_mil * kUmPerMil)
      .set("resistance_mohm_per_cm", resistance_ohm * 1000.0)
      .set("voltage_drop_mv_per_cm", drop_v * 1000.0)
      .set("power_loss_mw_per_cm", current * drop_v * 1000.0);
  return out;
}

}  // namespace

Tool make_pcb_trace_width() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
