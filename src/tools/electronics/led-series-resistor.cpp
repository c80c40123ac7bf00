// Series resistor for an LED string: resistance, its power, the next IEC 60063 preferred value
// above, the current it gives and a power rating with 2× margin (issue 10). Formula, tables,
// references and worked examples: docs/tools/led-series-resistor.md.
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <span>

#include "core/decimal.hpp"
#include "tools/electronics/e_series.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Standard resistor power ratings in W: chip sizes 0402 … 2512 (1/16 … 1 W), axial film and
// wirewound parts (up to 5 W), then chassis-mount power resistors.
constexpr double kPowerRatingsW[] = {0.0625, 0.1, 0.125, 0.25, 0.5, 0.75, 1,  2,
                                     3,      5,   10,    25,   50,  100,  250};
// Operate a resistor at no more than half its rating (NASA EEE-INST-002 derates resistors to
// 50–70 % of rated power; 50 % is the strictest and the common rule of thumb).
constexpr double kPowerMargin = 2;
// Standard resistor ranges start at 1 Ω (e.g. thick-film chip series 1 Ω – 10 MΩ); below it a
// series resistor no longer sets the LED current.
constexpr double kMinResistanceOhm = 1;
// R comes from a division; a value within 1 ppb of a preferred value (or of the 1 Ω floor)
// counts as equal to it, so rounding noise never skips to the next value up or refuses 1 Ω.
constexpr double kMatchTolerance = 1e-9;

using e_series::preferred_value;
using e_series::series;

// The smallest preferred value at or above r, so the current never exceeds the target.
double preferred_at_or_above(double r, std::span<const int> values) {
  const int decade = static_cast<int>(std::floor(std::log10(r)));
  for (int d = decade - 1; d <= decade + 1; ++d)  // ascending; the next decade always has one
    for (int m : values) {
      const double v = preferred_value(m, d - 2);
      if (v >= r * (1 - kMatchTolerance)) return v;
    }
  return preferred_value(values[0], decade - 1);  // unreachable: 10^(decade+1) > r
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "led-series-resistor";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "LED Series Resistor";
  t.description =
      "Series resistor for one LED or a string of LEDs from the supply voltage, forward voltage "
      "and target current: the exact resistance and its power, the next IEC 60063 E12/E24/E96 "
      "value above (so the current never exceeds the target), the current and power with it, "
      "and a resistor power rating with a 2× margin.";
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
  InputDescriptor count;
  count.key = "led_count";
  count.label = "LEDs in series";
  count.type = InputType::Integer;
  count.required = false;
  count.unit = "";
  count.help = "Number of LEDs in the string, all carrying the same current through one resistor.";
  count.min = 1;
  count.max = 50;
  count.step = 1;
  count.default_value = 1.0;
  InputDescriptor e_series;
  e_series.key = "e_series";
  e_series.label = "Preferred-value series";
  e_series.type = InputType::Enum;
  e_series.required = false;
  e_series.help =
      "IEC 60063 series to pick the resistor from: E12 (10 % parts), E24 (5 %) or E96 (1 %).";
  e_series.default_value = std::string("E24");
  e_series.options = {"E12", "E24", "E96"};
  t.inputs = {
      number("supply_v", "Supply voltage", "V",
             "Voltage feeding the resistor and LED string. Use its lowest value if the LEDs "
             "must stay lit, its highest to check the resistor's power.",
             1, 60, 0.1, 5),
      number("led_forward_v", "LED forward voltage", "V",
             "Forward voltage V_F of one LED at the target current (datasheet typical): about "
             "1.2 V infrared, 1.8–2.2 V red/yellow, 2.8–3.4 V green/blue/white.",
             1, 10, 0.1, 2),
      number("led_current_ma", "LED current", "mA",
             "Target forward current; at most the datasheet's continuous rating. Indicator "
             "LEDs are bright at 2–10 mA; 20 mA is the classic test current.",
             0.1, 1000, 0.1, 20),
      count,
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
      out("resistance_ohm", "Exact series resistance", "Ω", 2),
      out("resistor_power_mw", "Power in the exact resistor", "mW", 2),
      out("e_resistance_ohm", "Preferred value at or above", "Ω", 2),
      out("actual_current_ma", "LED current with the preferred value", "mA", 3),
      out("e_resistor_power_mw", "Power in the preferred-value resistor", "mW", 2),
      out("power_rating_w", "Suggested resistor power rating (≥ 2× its power)", "W", 4),
      out("led_power_mw", "Power in the LEDs", "mW", 2),
      out("efficiency_pct", "Share of the supply power reaching the LEDs", "%", 1),
  };
  t.references = {
      "P. Horowitz, W. Hill, \"The Art of Electronics\", 3rd ed., Cambridge University Press, "
      "2015, chapter 1 (diodes: a nearly constant forward drop, so the current must be set by "
      "something else, here R = (V_supply − n·V_F)/I)",
      "IEC 60063:2015, \"Preferred number series for resistors and capacitors\" (E12, E24 and "
      "E96 values)",
      "NASA EEE-INST-002, \"Instructions for EEE Parts Selection, Screening, Qualification, "
      "and Derating\" (2003, rev. 2008), resistors: power derated to 50–70 % of the rating",
      "Yageo RC series thick-film chip resistor datasheet: rated power by case size (0402 "
      "1/16 W, 0603 1/10 W, 0805 1/8 W, 1206 1/4 W, 1210 1/2 W, 2010 3/4 W, 2512 1 W) and "
      "resistance range 1 Ω – 10 MΩ",
  };
  t.examples = {
      {.title = "Defaults: one red LED at 20 mA from 5 V",
       .request_json = R"({"supply_v":5,"led_forward_v":2,"led_current_ma":20})"},
      {.title = "Three white LEDs in series at 20 mA from 12 V, E12",
       .request_json =
           R"({"supply_v":12,"led_forward_v":3.1,"led_current_ma":20,"led_count":3,"e_series":"E12"})"},
      {.title = "Low-current indicator: green LED at 2 mA from 3.3 V, E96",
       .request_json =
           R"({"supply_v":3.3,"led_forward_v":2.2,"led_current_ma":2,"e_series":"E96"})"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double supply = in.number("supply_v");
  const double forward = in.number("led_forward_v");
  const double count = in.number("led_count");
  const double current_a = in.number("led_current_ma") / 1000;
  const double string_v = count * forward;
  if (string_v >= supply) {
    std::string msg = "supply_v of ";
    append_shortest(msg, supply);
    msg += " V does not exceed the LED string's forward voltage (";
    append_shortest(msg, count);
    msg += " × ";
    append_shortest(msg, forward);
    msg += " V = ";
    append_fixed(msg, string_v, 2);
    msg +=
        " V), which leaves nothing across a series resistor; raise the supply or put fewer "
        "LEDs in series";
    return ToolError{"supply_v", std::move(msg)};
  }
  const double headroom = supply - string_v;
  const double resistance = headroom / current_a;
  if (resistance < kMinResistanceOhm * (1 - kMatchTolerance)) {
    std::string msg = "the resistor would be ";
    append_fixed(msg, resistance, 3);
    msg += " Ω, below 1 Ω, the smallest standard value: only ";
    append_fixed(msg, headroom, 3);
    msg +=
        " V is left across it, so the LED current would be set by the LEDs' forward-voltage "
        "spread rather than by the resistor; raise supply_v, put fewer LEDs in series or use a "
        "constant-current driver";
    return ToolError{"supply_v", std::move(msg)};
  }
  const double preferred = preferred_at_or_above(resistance, series(in.enumeration("e_series")));
  const double actual_a = headroom / preferred;
  const double preferred_power_w = headroom * actual_a;
  double rating = kPowerRatingsW[std::size(kPowerRatingsW) - 1];
  for (double r : kPowerRatingsW)
    if (r >= kPowerMargin * preferred_power_w) {
      rating = r;
      break;
    }
  Outputs out;
  out.set("resistance_ohm", resistance)
      .set("resistor_power_mw", headroom * current_a * 1000)
      .set("e_resistance_ohm", preferred)
      .set("actual_current_ma", actual_a * 1000)
      .set("e_resistor_power_mw", preferred_power_w * 1000)
      .set("power_rating_w", rating)
      .set("led_power_mw", string_v * actual_a * 1000)
      .set("efficiency_pct", 100 * string_v / supply);
  return out;
}

}  // namespace

Tool make_led_series_resistor() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
