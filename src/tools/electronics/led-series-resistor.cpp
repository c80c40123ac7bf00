// Series resistor for an LED string: resistance, its power, the next IEC 60063 preferred value
// above, the current it gives and a power rating with 2× margin. Formula, tables, references
// and worked examples: docs/tools/led-series-resistor.md.
#include <iterator>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/common/e_series.hpp"
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
// The resistor sets the current only while its voltage is a fair share of the string's: the
// current moves by ΔI/I = Δ(n·V_F)/V_R, so at V_R = 10 % of n·V_F each 1 % of forward-voltage
// spread between parts (white LEDs at one voltage differ by 10–44 mA, Maxim AN3256, Figure 1)
// already moves the current by 10 %. Below that share the LEDs, not the resistor, set it.
constexpr double kMinHeadroomShare = 0.10;
// R and V_R come from subtractions and divisions; values within 1 ppb of a preferred value or
// of the 10 % share count as equal to it, so rounding noise never skips to the next value up
// or refuses a supply exactly 10 % above the string.
constexpr double kMatchTolerance = 1e-9;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "led-series-resistor";
  t.domain = "electronics";
  t.version = "2.0.0";
  t.name = "LED Series Resistor";
  t.description =
      "Series resistor for one LED or a string of LEDs from the supply voltage, forward voltage "
      "and target current: the exact resistance and its power, the next IEC 60063 E12/E24/E96 "
      "value above (so the current never exceeds the target), the current and power with it, "
      "and a resistor power rating with a 2× margin.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "supply_v",
                    .label = "Supply voltage",
                    .unit = "V",
                    .help = "Voltage feeding the resistor and LED string. Use its lowest value if "
                            "the LEDs must stay lit, its highest to check the resistor's power. "
                            "It must exceed the string's forward voltage by at least 10 % of it, "
                            "or the LEDs' forward-voltage spread would set the current.",
                    .min = 1,
                    .max = 60,
                    .step = 0.1,
                    .default_value = 5}),
      number_input({.key = "led_forward_v",
                    .label = "LED forward voltage",
                    .unit = "V",
                    .help = "Forward voltage V_F of one LED at the target current (datasheet "
                            "typical): about 1.2 V infrared, 1.8–2.2 V red/yellow, 2.8–3.4 V "
                            "green/blue/white.",
                    .min = 1,
                    .max = 10,
                    .step = 0.1,
                    .default_value = 2}),
      number_input({.key = "led_current_ma",
                    .label = "LED current",
                    .unit = "mA",
                    .help = "Target forward current; at most the datasheet's continuous rating. "
                            "Indicator LEDs are bright at 2–10 mA; 20 mA is the classic test "
                            "current.",
                    .min = 0.1,
                    .max = 1000,
                    .step = 0.1,
                    .default_value = 20}),
      integer_input({.key = "led_count",
                     .label = "LEDs in series",
                     .unit = "",
                     .help = "Number of LEDs in the string, all carrying the same current "
                             "through one resistor.",
                     .min = 1,
                     .max = 50,
                     .step = 1,
                     .default_value = 1,
                     .required = false}),
      choice_input({.key = "e_series",
                    .label = "Preferred-value series",
                    .help = "IEC 60063 series to pick the resistor from: E12 (10 % parts), E24 "
                            "(5 %) or E96 (1 %). The tool takes the next value at or above the "
                            "exact resistance, not the nearest, so the current never exceeds the "
                            "target.",
                    .options = {"E12", "E24", "E96"},
                    .default_value = "E24",
                    .required = false}),
  };
  // Precisions keep 3 significant digits down to the smallest in-bounds results: 0.1 Ω (0.1 V
  // across the resistor at 1 A) and 0.008 mW (0.1 V at 0.08 mA).
  t.outputs = {
      number_output({.key = "resistance_ohm",
                     .label = "Exact series resistance",
                     .unit = "Ω",
                     .precision = 3}),
      number_output({.key = "resistor_power_mw",
                     .label = "Power in the exact resistor",
                     .unit = "mW",
                     .precision = 5}),
      number_output({.key = "e_resistance_ohm",
                     .label = "Preferred value at or above",
                     .unit = "Ω",
                     .precision = 3}),
      number_output({.key = "actual_current_ma",
                     .label = "LED current with the preferred value",
                     .unit = "mA",
                     .precision = 4}),
      number_output({.key = "e_resistor_power_mw",
                     .label = "Power in the preferred-value resistor",
                     .unit = "mW",
                     .precision = 5}),
      number_output({.key = "power_rating_w",
                     .label = "Suggested resistor power rating (≥ 2× its power)",
                     .unit = "W",
                     .precision = 4}),
      number_output(
          {.key = "led_power_mw", .label = "Power in the LEDs", .unit = "mW", .precision = 4}),
      number_output({.key = "efficiency_pct",
                     .label = "Share of the supply power reaching the LEDs",
                     .unit = "%",
                     .precision = 2}),
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
      "1/16 W, 0603 1/10 W, 0805 1/8 W, 1206 1/4 W, 1210 1/2 W, 2010 3/4 W, 2512 1 W)",
      "Maxim Integrated, Application Note 3256, \"Why Drive White LEDs with Constant "
      "Current?\" (2004), Figure 1: six white LEDs at the same 3.4 V draw 10 mA to 44 mA (the "
      "forward-voltage spread behind the 10 % headroom rule)",
  };
  t.examples = {
      {.title = "Red LED at 20 mA from 5 V",
       .request_json = R"({"supply_v":5,"led_forward_v":2,"led_current_ma":20})",
       .expected_json = R"({"resistance_ohm":150,"resistor_power_mw":60})",
       .tolerance_pct = 0,
       .source = "The Prime Calculator, \"LED Resistor Calculator\" formula page "
                 "(theprimecalculator.com/hi/electronics/led-resistor/formula, English text), "
                 "worked example: a "
                 "red LED (2.0 V forward) at 20 mA from a 5 V supply needs R = 3.0 / 0.02 = "
                 "150 ohms, dissipating 3.0 × 0.02 = 0.06 W = 60 mW"},
      {.title = "3.2 V LED at 20 mA from 12 V, next E24 value",
       .request_json =
           R"({"supply_v":12,"led_forward_v":3.2,"led_current_ma":20,"e_series":"E24"})",
       .expected_json = R"({"resistance_ohm":440,"e_resistance_ohm":470})",
       .tolerance_pct = 0,
       .source = "UseCalcPro, \"LED Resistor Calculator\" (usecalcpro.com/tools/"
                 "led-resistor-calculator), example: R = (12 − 3.2)/0.02 = 440 Ω; next E24 value "
                 "is 470 Ω"},
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
  if (headroom < kMinHeadroomShare * string_v * (1 - kMatchTolerance)) {
    std::string msg = "only ";
    append_fixed(msg, headroom, 3);
    msg += " V is left across the resistor, ";
    append_fixed(msg, 100 * headroom / string_v, 1);
    msg += " % of the LED string's ";
    append_fixed(msg, string_v, 2);
    msg +=
        " V: each 1 % of forward-voltage spread between LEDs would move the current by more "
        "than 10 %, so the LEDs and not the resistor would set it; raise supply_v to at least ";
    append_fixed(msg, (1 + kMinHeadroomShare) * string_v, 2);
    msg += " V, put fewer LEDs in series or use a constant-current driver";
    return ToolError{"supply_v", std::move(msg)};
  }
  const double resistance = headroom / current_a;
  // The smallest preferred value at or above R, so the current never exceeds the target.
  const double preferred = e_series::at_or_above(
      resistance, e_series::series(in.enumeration("e_series")), kMatchTolerance);
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
