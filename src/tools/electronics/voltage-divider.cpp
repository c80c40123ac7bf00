// Resistive voltage divider: output, currents, powers, loading and the nearest IEC 60063
// preferred values (issue 10). Formula, E-series tables, references and worked examples:
// docs/tools/voltage-divider.md.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <span>

#include "tools/electronics/e_series.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

using e_series::series;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "voltage-divider";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Voltage Divider";
  t.description =
      "Output voltage of a two-resistor divider, the current and power in each resistor, the "
      "output with a load attached, the divider's source resistance, and the nearest IEC 60063 "
      "E12/E24/E96 values for both resistors with the output they give.";
  // The divider is Ohm's law; IEC 60063 only supplies the preferred values (see the doc page).
  t.standard = std::nullopt;
  auto number = [](std::string key, std::string label, std::string unit, std::string help,
                   double min, double max, double step, double def, bool required) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Number;
    in.required = required;
    in.unit = std::move(unit);
    in.help = std::move(help);
    in.min = min;
    in.max = max;
    in.step = step;
    in.default_value = def;
    return in;
  };
  InputDescriptor e_series;
  e_series.key = "e_series";
  e_series.label = "Preferred-value series";
  e_series.type = InputType::Enum;
  e_series.required = false;
  e_series.help =
      "IEC 60063 series to round R1 and R2 to: E12 (10 % parts), E24 (5 %, also stocked in "
      "1 %) or E96 (1 %).";
  e_series.default_value = std::string("E24");
  e_series.options = {"E12", "E24", "E96"};
  t.inputs = {
      number("vin_v", "Input voltage", "V",
             "Voltage across the whole divider (top of R1 to ground).", 0.001, 1000, 0.1, 12, true),
      number("r1_ohm", "R1 (top resistor)", "Ω", "Resistor from the input to the output node.", 100,
             10000000, 1, 27000, true),
      number("r2_ohm", "R2 (bottom resistor)", "Ω", "Resistor from the output node to ground.", 100,
             10000000, 1, 10000, true),
      number("load_ohm", "Load resistance (optional)", "Ω",
             "Resistance connected from the output to ground (an ADC input, a meter, the next "
             "stage). 0 = no load (open output).",
             0, 1e10, 1, 0, false),
      e_series,
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
      out("vout_v", "Output voltage, unloaded", "V", 4),
      out("loaded_vout_v", "Output voltage with the load", "V", 4),
      out("load_error_pct", "Change caused by the load", "%", 3),
      out("input_current_ua", "Current drawn from the input", "µA", 3),
      out("r1_power_mw", "Power in R1", "mW", 3),
      out("r2_power_mw", "Power in R2", "mW", 3),
      out("source_resistance_ohm", "Source resistance R1 ∥ R2", "Ω", 1),
      out("r1_e_ohm", "Nearest preferred value for R1", "Ω", 0),
      out("r2_e_ohm", "Nearest preferred value for R2", "Ω", 0),
      out("vout_e_v", "Unloaded output with the preferred values", "V", 4),
      out("vout_e_error_pct", "Output change with the preferred values", "%", 3),
  };
  t.references = {
      "P. Horowitz, W. Hill, \"The Art of Electronics\", 3rd ed., Cambridge University Press, "
      "2015, §1.2 (voltage dividers; the Thévenin equivalent circuit: a divider's output "
      "resistance is R1 ∥ R2)",
      "IEC 60063:2015, \"Preferred number series for resistors and capacitors\" (E12, E24 and "
      "E96 values)",
      "Yageo RC series thick-film chip resistor datasheet: resistance range 1 Ω – 10 MΩ (the "
      "upper bound of R1 and R2)",
  };
  t.examples = {
      {.title = "Defaults: 12 V to about 3.3 V with 27 kΩ / 10 kΩ",
       .request_json = R"({"vin_v":12,"r1_ohm":27000,"r2_ohm":10000})"},
      {.title = "5 V halved for a 10 kΩ ADC input, E96 values",
       .request_json =
           R"({"vin_v":5,"r1_ohm":10000,"r2_ohm":10000,"load_ohm":10000,"e_series":"E96"})"},
      {.title = "24 V sensed by a 1 MΩ meter, exact resistors rounded to E12",
       .request_json =
           R"({"vin_v":24,"r1_ohm":200000,"r2_ohm":33333,"load_ohm":1000000,"e_series":"E12"})"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double vin = in.number("vin_v");
  const double r1 = in.number("r1_ohm");
  const double r2 = in.number("r2_ohm");
  const double load = in.number("load_ohm");
  const double vout = vin * r2 / (r1 + r2);
  // The load sits in parallel with R2; 0 means no load at all.
  const double r2_loaded = load > 0 ? r2 * load / (r2 + load) : r2;
  const double vout_loaded = vin * r2_loaded / (r1 + r2_loaded);
  const double v_r1 = vin - vout_loaded;
  const auto values = series(in.enumeration("e_series"));
  const double r1_e = e_series::nearest(r1, values);
  const double r2_e = e_series::nearest(r2, values);
  const double vout_e = vin * r2_e / (r1_e + r2_e);
  Outputs out;
  out.set("vout_v", vout)
      .set("loaded_vout_v", vout_loaded)
      .set("load_error_pct", 100 * (vout_loaded - vout) / vout)
      .set("input_current_ua", v_r1 / r1 * 1e6)
      .set("r1_power_mw", v_r1 * v_r1 / r1 * 1e3)
      .set("r2_power_mw", vout_loaded * vout_loaded / r2 * 1e3)
      .set("source_resistance_ohm", r1 * r2 / (r1 + r2))
      .set("r1_e_ohm", r1_e)
      .set("r2_e_ohm", r2_e)
      .set("vout_e_v", vout_e)
      .set("vout_e_error_pct", 100 * (vout_e - vout) / vout);
  return out;
}

}  // namespace

Tool make_voltage_divider() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
