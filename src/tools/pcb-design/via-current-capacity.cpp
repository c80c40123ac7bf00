// Via current capacity: the IPC-2221 current-capacity curve applied to the plated barrel of a
// via, as in KiCad's pcb_calculator via panel. Formula, references and worked examples:
// docs/tools/via-current-capacity.md.
#include <numbers>
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
using pcb::kMmPerMil;

// The IPC-2221 curve (ipc2221_current.hpp) on the barrel's copper. A via barrel runs from an
// outer layer to an outer layer through the laminate; like KiCad, we use the external-layer k
// (common practice; see the doc page for why and for its limits), and the charts' 35 A limit.
using ipc2221::kMaxExternalCurrentA;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "via-current-capacity";
  t.domain = "pcb-design";
  t.version = "1.1.0";
  t.name = "Via Current Capacity (IPC-2221)";
  t.description =
      "Current a plated via can carry for an allowed temperature rise, from the IPC-2221 "
      "current-capacity curve applied to the copper cross-section of the via barrel; with the "
      "total for several vias in parallel and the barrel's resistance, voltage drop and power "
      "loss at that current.";
  t.standard = "IPC-2221";
  t.inputs = {
      number_input({.key = "hole_diameter_mm",
                    .label = "Finished hole diameter",
                    .unit = "mm",
                    .help = "Via hole size as drawn in the PCB design (the finished, plated hole). "
                            "The fab drills about two plating thicknesses larger, so the copper "
                            "barrel lies between this diameter and the diameter plus twice the "
                            "plating thickness.",
                    .min = 0.1,
                    .max = 3,
                    .step = 0.05,
                    .default_value = 0.3}),
      number_input({.key = "plating_thickness_um",
                    .label = "Barrel plating thickness",
                    .unit = "µm",
                    .help = "Copper plated on the hole wall. IPC-6012 requires an average of at "
                            "least 20 µm (class 2) or 25 µm (class 3); ask your fab what it "
                            "plates.",
                    .min = 10,
                    .max = 100,
                    .step = 1,
                    .default_value = 25}),
      number_input({.key = "board_thickness_mm",
                    .label = "Board thickness (barrel length)",
                    .unit = "mm",
                    .help = "Length of the plated barrel: the board thickness for a through via, "
                            "the span of layers it connects for a blind or buried via. Used only "
                            "for the resistance.",
                    .min = 0.1,
                    .max = 10,
                    .step = 0.1,
                    .default_value = 1.6}),
      number_input({.key = "temp_rise_c",
                    .label = "Temperature rise",
                    .unit = "°C",
                    .help = "Allowed steady-state rise of the via above the board's ambient "
                            "temperature; 10 °C is a common conservative choice. The rating is "
                            "IPC-2221's external-trace curve applied to the barrel's copper "
                            "cross-section, as KiCad does, not a rule the standard states for "
                            "vias: conservative for a through via; halve it for a buried via in a "
                            "thick stack-up without planes. At most 35 A per via (422 above).",
                    .min = 1,
                    .max = 100,
                    .step = 1,
                    .default_value = 10}),
      integer_input({.key = "via_count",
                     .label = "Number of vias",
                     .unit = "",
                     .help = "Identical vias sharing the current in parallel. Assumes they are "
                             "spaced far enough apart (more than about one hole diameter) not to "
                             "heat each other.",
                     .min = 1,
                     .max = 1000,
                     .step = 1,
                     .default_value = 1,
                     .required = false}),
  };
  t.outputs = {
      number_output({.key = "cross_section_mil2",
                     .label = "Barrel copper cross-section",
                     .unit = "mil²",
                     .precision = 1,
                     .small_values_in = "cross_section_mm2"}),
      number_output({.key = "cross_section_mm2",
                     .label = "Barrel copper cross-section",
                     .unit = "mm²",
                     .precision = 5}),
      number_output({.key = "current_per_via_a",
                     .label = "Current capacity per via (IPC-2221 trace curve)",
                     .unit = "A",
                     .precision = 3}),
      number_output({.key = "total_current_a",
                     .label = "Current capacity of all vias",
                     .unit = "A",
                     .precision = 3}),
      number_output({.key = "resistance_per_via_mohm",
                     .label = "Barrel resistance per via (20 °C)",
                     .unit = "mΩ",
                     .precision = 6}),
      number_output({.key = "resistance_total_mohm",
                     .label = "Resistance of the vias in parallel (20 °C)",
                     .unit = "mΩ",
                     .precision = 8}),
      number_output({.key = "voltage_drop_mv",
                     .label = "Voltage drop at the rated current",
                     .unit = "mV",
                     .precision = 5}),
      number_output({.key = "power_loss_mw",
                     .label = "Power loss of all vias at the rated current",
                     .unit = "mW",
                     .precision = 5}),
  };
  t.references = {
      "IPC-2221B, \"Generic Standard on Printed Board Design\", section 6.2 (conductor "
      "current-carrying capacity, figure 6-4)",
      "IPC-6012, \"Qualification and Performance Specification for Rigid Printed Boards\" "
      "(minimum plated-hole copper: 20 µm average for class 2, 25 µm for class 3)",
      "KiCad pcb_calculator, via size panel (pcb_calculator/calculator_panels/"
      "panel_via_size.cpp): barrel area π·(d + t)·t, ampacity 0.048·ΔT^0.44·A^0.725, "
      "R = ρ·L/A with ρ = 1.72e-8 Ω·m",
      "D. Brooks, \"Current Carrying Capacity of Vias — Some Conceptual Observations\", "
      "UltraCAD Design (why the trace formula is a conservative estimate for a via barrel)",
      "Saturn PCB Design, PCB Toolkit V8.44 help, Via Properties (barrel cross-section "
      "π·(d + t)·t; its via current follows IPC-2152, not this tool's IPC-2221 curve)",
      "IEC 60028, \"International standard of resistance for copper\" (annealed copper, "
      "1.7241e-8 Ω·m at 20 °C)",
  };
  t.examples = {
      // Saturn's cross-section is this tool's barrel, π·(d + t)·t = π·11·1 = 34.558 sq mil,
      // printed to 0.01 sq mil. Its current in the same example (1.9785 A) comes from its own
      // IPC-2152-based model, not the IPC-2221 curve (2.340 A), so only the area is a vector.
      {.title = "10 mil hole, 1 mil plating, 62 mil via, 20 °C (Saturn PCB Toolkit help)",
       .request_json =
           R"({"hole_diameter_mm":0.254,"plating_thickness_um":25.4,"board_thickness_mm":1.5748,)"
           R"("temp_rise_c":20,"via_count":1})",
       .expected_json = R"({"cross_section_mil2":34.56})",
       .tolerance_pct = 0.02,
       .source =
           "Saturn PCB Design, PCB Toolkit V8.44 help (PDF), Via Properties example, p. 36: via "
           "hole diameter 10 mils, via plating thickness 1 mil, via height 62 mils, temperature "
           "rise 20 °C give a conductor cross section of 34.56 sq.mils. Read in the "
           "transcription of that page in github.com/akiselev/pcb-toolkit, "
           "docs/notes/17-test-vectors.md, section 4 (Via Properties [SAT, PDF page 36])"},
      // KiCad's via panel is this tool's method (IPC-2221 k = 0.048 on π·(d + t)·t); the post
      // rounds its result to whole amperes, wider than the 10 % a vector may allow, so the
      // tolerance is that cap.
      {.title = "KiCad via calculator defaults: 0.4 mm hole, 35 µm plating, 10 °C",
       .request_json =
           R"({"hole_diameter_mm":0.4,"plating_thickness_um":35,"board_thickness_mm":1.6,)"
           R"("temp_rise_c":10,"via_count":1})",
       .expected_json = R"({"current_per_via_a":3})",
       .tolerance_pct = 10,
       .source =
           "KiCad forum, \"Via diameters calculation and order info PCB manufacturer\" "
           "(forum.kicad.info/t/via-diameters-calculation-and-order-info-pcb-manufacturer/62911), "
           "first post: KiCad's calculator \"with the standard 0,4mm finished hole diameter and "
           "a 0,035mm plating thickness\" gives \"a max. current of aprox. 3 amps\" (the via "
           "panel's defaults are 1.6 mm length and 10 °C rise: KiCad pcb_calculator, "
           "panel_via_size.cpp)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double hole_mm = in.number("hole_diameter_mm");
  const double plating_mm = in.number("plating_thickness_um") / 1000.0;
  const double rise_c = in.number("temp_rise_c");
  const double vias = in.number("via_count");
  // Annulus between the finished hole d and d + 2t: π·((d + 2t)² − d²)/4 = π·(d + t)·t.
  const double area_mm2 = std::numbers::pi * (hole_mm + plating_mm) * plating_mm;
  const double area_mil2 = area_mm2 / (kMmPerMil * kMmPerMil);
  const double per_via_a = ipc2221::current_a(ipc2221::kExternal, rise_c, area_mil2);
  if (per_via_a > kMaxExternalCurrentA) {
    std::string msg = "temp_rise_c of ";
    append_shortest(msg, rise_c);
    msg += " °C gives ";
    append_fixed(msg, per_via_a, 2);
    msg += " A per via (barrel cross-section ";
    append_fixed(msg, area_mil2, 1);
    msg +=
        " mil²), beyond the IPC-2221 charts (at most 35 A); choose a smaller temp_rise_c, or "
        "share the current over more, smaller vias";
    return ToolError{"temp_rise_c", std::move(msg)};
  }
  // R = ρ·L/A with L and A in metres; every via carries the same current, so the drop
  // across the group is the drop across one via.
  const double resistance_ohm =
      kCopperResistivity * (in.number("board_thickness_mm") / 1000.0) / (area_mm2 * 1e-6);
  const double drop_v = per_via_a * resistance_ohm;
  Outputs out;
  out.set("cross_section_mil2", area_mil2)
      .set("cross_section_mm2", area_mm2)
      .set("current_per_via_a", per_via_a)
      .set("total_current_a", vias * per_via_a)
      .set("resistance_per_via_mohm", resistance_ohm * 1000.0)
      .set("resistance_total_mohm", resistance_ohm * 1000.0 / vias)
      .set("voltage_drop_mv", drop_v * 1000.0)
      .set("power_loss_mw", vias * per_via_a * drop_v * 1000.0);
  return out;
}

}  // namespace

Tool make_via_current_capacity() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
