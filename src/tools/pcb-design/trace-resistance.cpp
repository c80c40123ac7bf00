// PCB trace resistance, voltage drop and power loss at a conductor temperature, from copper's
// resistivity and temperature coefficient. Formula, references and worked examples:
// docs/tools/trace-resistance.md.
#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/pcb-design/pcb_units.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;
using pcb::kMilPerOz;
using pcb::kUmPerMil;

// Annealed copper (100 % IACS): ρ = 1.7241e-8 Ω·m at 20 °C, α = 0.00393 /°C at 20 °C
// (IEC 60028, ASTM B193). ρ is the rounded 1.72e-8 KiCad and pcb-trace-width use.
constexpr double kResistivity20 = pcb::kCopperResistivity;  // Ω·m
constexpr double kAlpha20 = 0.00393;                        // 1/°C
constexpr double kReferenceTempC = 20;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "trace-resistance";
  t.domain = "pcb-design";
  t.version = "2.0.0";
  t.name = "PCB Trace Resistance";
  t.description =
      "DC resistance of a copper PCB trace from its length, width and copper weight at a given "
      "conductor temperature (copper's resistivity corrected by its temperature coefficient), "
      "with the voltage drop, power loss and current density at a given current.";
  // No design standard governs this: it is Ohm's law with material constants (IEC 60028,
  // ASTM B193), which are cited in the references. See the doc page.
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "length_mm",
                    .label = "Trace length",
                    .unit = "mm",
                    .help = "Routed length of the trace between its end points; at least its "
                            "width (a strip wider than it is long is refused, 422).",
                    .min = 1,
                    .max = 1000,
                    .step = 1,
                    .default_value = 100}),
      number_input({.key = "width_mm",
                    .label = "Trace width",
                    .unit = "mm",
                    .help = "Finished width of the trace (a plane or pour: its width across the "
                            "current path); at most the length.",
                    .min = 0.025,
                    .max = 100,
                    .step = 0.01,
                    .default_value = 0.25}),
      number_input({.key = "copper_weight_oz",
                    .label = "Copper weight",
                    .unit = "oz/ft²",
                    .help = "Finished copper weight: 1 oz/ft² is 35 µm (1.378 mil) thick. For a "
                            "measured thickness t in µm enter t / 35, e.g. 1.4 for a 1 oz outer "
                            "layer plated up to 49 µm.",
                    .min = 0.25,
                    .max = 10,
                    .step = 0.25,
                    .default_value = 1}),
      number_input({.key = "temperature_c",
                    .label = "Conductor temperature",
                    .unit = "°C",
                    .help = "Temperature of the copper itself: ambient plus the trace's own rise "
                            "(see pcb-trace-width). Resistance rises about 0.39 % per °C.",
                    .min = -55,
                    .max = 150,
                    .step = 1,
                    .default_value = 25}),
      number_input({.key = "current_a",
                    .label = "Current",
                    .unit = "A",
                    .help = "DC (or RMS) current through the trace, for the voltage drop, power "
                            "loss and current density; at least 0.1 A. The resistance does not "
                            "depend on it: for a smaller current multiply the resistance by it.",
                    .min = 0.1,
                    .max = 100,
                    .step = 0.1,
                    .default_value = 1}),
  };
  t.outputs = {
      number_output({.key = "copper_thickness_um",
                     .label = "Copper thickness",
                     .unit = "µm",
                     .precision = 2}),
      number_output({.key = "cross_section_mm2",
                     .label = "Copper cross-section",
                     .unit = "mm²",
                     .precision = 6}),
      number_output({.key = "resistivity_uohm_cm",
                     .label = "Copper resistivity at the conductor temperature",
                     .unit = "µΩ·cm",
                     .precision = 4}),
      number_output(
          {.key = "resistance_mohm", .label = "Trace resistance", .unit = "mΩ", .precision = 4}),
      number_output(
          {.key = "voltage_drop_mv", .label = "Voltage drop", .unit = "mV", .precision = 5}),
      number_output({.key = "power_loss_mw", .label = "Power loss", .unit = "mW", .precision = 6}),
      number_output({.key = "current_density_a_per_mm2",
                     .label = "Current density",
                     .unit = "A/mm²",
                     .precision = 5}),
  };
  t.references = {
      "IEC 60028, \"International standard of resistance for copper\": annealed copper "
      "1.7241e-8 Ω·m at 20 °C, temperature coefficient 0.00393 /°C",
      "ASTM B193, \"Standard Test Method for Resistivity of Electrical Conductor Materials\"",
      "NBS Handbook 100, \"Copper Wire Tables\" (1966): the International Annealed Copper "
      "Standard (IACS) and the linear temperature correction",
      "IPC-2221B, \"Generic Standard on Printed Board Design\", section 6.2 (copper weights "
      "and thicknesses; current capacity is a separate question, see pcb-trace-width)",
      "KiCad pcb_calculator, track width panel: R = ρ·L/(W·H) with ρ = 1.72e-8 Ω·m",
  };
  t.examples = {
      {.title = "The IACS definition: 1 m of copper of 1 mm² cross-section at 20 °C",
       .request_json =
           R"({"length_mm":1000,"width_mm":28.5704,"copper_weight_oz":1,"temperature_c":20,)"
           R"("current_a":1})",
       .expected_json = R"({"resistivity_uohm_cm":1.7241,"resistance_mohm":17.241})",
       .tolerance_pct = 0.3,
       .source = "IEC 60028, \"International standard of resistance for copper\": annealed "
                 "copper has 1/58 Ω·mm²/m = 1.7241 µΩ·cm at 20 °C, so 1 m of 1 mm² is 17.241 mΩ "
                 "(1 oz = 35.0012 µm here, so 28.5704 mm wide is 1.0000 mm²); the tool uses "
                 "KiCad's rounded ρ = 1.72 µΩ·cm, 0.24 % lower"},
      {.title = "100 mm of 0.5 mm trace in 1 oz copper",
       .request_json = R"({"length_mm":100,"width_mm":0.5,"copper_weight_oz":1,)"
                       R"("temperature_c":20,"current_a":1})",
       .expected_json = R"({"resistance_mohm":98.3})",
       .tolerance_pct = 0.1,
       .source = "A. Bouchez, Hypercode \"PCB design\" course, lesson 1 \"Trace Resistance\" "
                 "(hypercode.alexisbouchez.com/pcb-design/lessons/trace-resistance), example: a "
                 "100 mm long, 0.5 mm wide, 1 oz (35 µm) trace with ρ = 1.72e-8 Ω·m has "
                 "R = 98.3 mΩ"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double length_mm = in.number("length_mm");
  const double width_mm = in.number("width_mm");
  if (width_mm > length_mm) {
    std::string msg = "width_mm of ";
    append_shortest(msg, width_mm);
    msg += " mm is more than length_mm of ";
    append_shortest(msg, length_mm);
    msg +=
        " mm: a strip wider than it is long is less than one square, and its resistance is "
        "set by where the current enters and leaves it, not by ρ·L/A; enter the length along "
        "the current and the width across it";
    return ToolError{"width_mm", std::move(msg)};
  }
  const double thickness_um = in.number("copper_weight_oz") * kMilPerOz * kUmPerMil;
  const double area_mm2 = width_mm * thickness_um / 1000.0;
  // Linear temperature correction from 20 °C; within about 2 % of measured copper data
  // over the input range (see the doc page).
  const double resistivity =
      kResistivity20 * (1 + kAlpha20 * (in.number("temperature_c") - kReferenceTempC));
  // R = ρ·L/A with L in metres and A in m².
  const double resistance_ohm = resistivity * (length_mm / 1000.0) / (area_mm2 * 1e-6);
  const double current = in.number("current_a");
  const double drop_v = current * resistance_ohm;
  Outputs out;
  out.set("copper_thickness_um", thickness_um)
      .set("cross_section_mm2", area_mm2)
      .set("resistivity_uohm_cm", resistivity * 1e8)  // 1 Ω·m = 1e8 µΩ·cm
      .set("resistance_mohm", resistance_ohm * 1000.0)
      .set("voltage_drop_mv", drop_v * 1000.0)
      .set("power_loss_mw", current * drop_v * 1000.0)
      .set("current_density_a_per_mm2", current / area_mm2);
  return out;
}

}  // namespace

Tool make_trace_resistance() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
