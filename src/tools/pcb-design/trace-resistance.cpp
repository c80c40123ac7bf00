// PCB trace resistance, voltage drop and power loss at a conductor temperature, from copper's
// resistivity and temperature coefficient. Formula, references and worked examples:
// docs/tools/trace-resistance.md.
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Annealed copper (100 % IACS): ρ = 1.7241e-8 Ω·m at 20 °C, α = 0.00393 /°C at 20 °C
// (IEC 60028, ASTM B193). 1.72e-8 is the rounded value KiCad and pcb-trace-width use.
constexpr double kResistivity20 = 1.72e-8;  // Ω·m
constexpr double kAlpha20 = 0.00393;        // 1/°C
constexpr double kReferenceTempC = 20;
// 1 oz of copper spread over 1 ft² is 1.378 mil (35 µm) thick, as in pcb-trace-width.
constexpr double kMilPerOz = 1.378;
constexpr double kUmPerMil = 25.4;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "trace-resistance";
  t.domain = "pcb-design";
  t.version = "1.0.0";
  t.name = "PCB Trace Resistance";
  t.description =
      "DC resistance of a copper PCB trace from its length, width and copper weight at a given "
      "conductor temperature (copper's resistivity corrected by its temperature coefficient), "
      "with the voltage drop, power loss and current density at a given current.";
  // No design standard governs this: it is Ohm's law with material constants (IEC 60028,
  // ASTM B193), which are cited in the references. See the doc page.
  t.standard = std::nullopt;
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
      number("length_mm", "Trace length", "mm",
             "Routed length of the trace between its end points.", 1, 1000, 1, 100),
      number("width_mm", "Trace width", "mm",
             "Finished width of the trace (a plane or pour: its width across the current "
             "path).",
             0.025, 100, 0.01, 0.25),
      number("copper_weight_oz", "Copper weight", "oz/ft²",
             "Finished copper weight: 1 oz/ft² is 35 µm (1.378 mil) thick. For a measured "
             "thickness t in µm enter t / 35, e.g. 1.4 for a 1 oz outer layer plated up to "
             "49 µm.",
             0.25, 10, 0.25, 1),
      number("temperature_c", "Conductor temperature", "°C",
             "Temperature of the copper itself: ambient plus the trace's own rise (see "
             "pcb-trace-width). Resistance rises about 0.39 % per °C.",
             -55, 150, 1, 25),
      number("current_a", "Current", "A",
             "DC (or RMS) current through the trace, for the voltage drop and power loss. 0 "
             "gives the resistance alone.",
             0, 100, 0.1, 1),
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
      out("copper_thickness_um", "Copper thickness", "µm", 1),
      out("cross_section_mm2", "Copper cross-section", "mm²", 6),
      out("resistivity_uohm_cm", "Copper resistivity at the conductor temperature", "µΩ·cm", 4),
      out("resistance_mohm", "Trace resistance", "mΩ", 4),
      out("voltage_drop_mv", "Voltage drop", "mV", 3),
      out("power_loss_mw", "Power loss", "mW", 3),
      out("current_density_a_per_mm2", "Current density", "A/mm²", 1),
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
      {.title = "Defaults: 100 mm of 0.25 mm trace, 1 oz, at 25 °C, 1 A",
       .request_json =
           R"({"length_mm":100,"width_mm":0.25,"copper_weight_oz":1,"temperature_c":25,)"
           R"("current_a":1})"},
      {.title = "A 2 mm, 2 oz power trace, 50 mm long, at 85 °C carrying 5 A",
       .request_json = R"({"length_mm":50,"width_mm":2,"copper_weight_oz":2,"temperature_c":85,)"
                       R"("current_a":5})"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double thickness_um = in.number("copper_weight_oz") * kMilPerOz * kUmPerMil;
  const double area_mm2 = in.number("width_mm") * thickness_um / 1000.0;
  // Linear temperature correction from 20 °C; within about 2 % of measured copper data
  // over the input range (see the doc page).
  const double resistivity =
      kResistivity20 * (1 + kAlpha20 * (in.number("temperature_c") - kReferenceTempC));
  // R = ρ·L/A with L in metres and A in m².
  const double resistance_ohm = resistivity * (in.number("length_mm") / 1000.0) / (area_mm2 * 1e-6);
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
