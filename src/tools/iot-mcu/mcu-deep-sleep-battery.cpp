// MCU deep-sleep battery life (spec §2.2). Formula, references and worked examples:
// docs/tools/mcu-deep-sleep-battery.md.
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "mcu-deep-sleep-battery";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "MCU Deep-Sleep Battery Life";
  t.description =
      "Project lifetime of a battery-powered, duty-cycled microcontroller. Computes average "
      "current and lifetime from sleep current, wake current, wake duration, cycle period and "
      "battery derating.";
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
      number("battery_capacity_mah", "Battery capacity", "mAh",
             "Rated capacity from the cell datasheet, at the discharge rate you expect.", 100,
             30000, 100, 2000),
      number("sleep_current_ua", "Sleep current", "µA",
             "Total current in deep sleep: MCU, RTC, regulator quiescent and leakage.", 1, 10000, 1,
             10),
      number("wake_current_ma", "Wake current", "mA",
             "Average current while awake (CPU, sensors, radio), averaged over the wake window.", 1,
             2000, 1, 80),
      number("wake_duration_ms", "Wake duration", "ms",
             "How long each wake lasts, from leaving sleep to re-entering it.", 1, 600000, 10, 250),
      number("cycle_period_s", "Cycle period", "s",
             "How often the device wakes: time from one wake to the next.", 1, 86400, 1, 60),
      number("battery_efficiency_pct", "Battery efficiency", "% (usable capacity)",
             "Usable share of capacity after self-discharge, cut-off voltage and regulator "
             "losses.",
             50, 100, 1, 80),
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
      out("avg_current_ua", "Average current", "µA", 1),
      out("avg_current_ma", "Average current", "mA", 3),
      out("lifetime_hours", "Battery lifetime", "h", 1),
      out("lifetime_days", "Battery lifetime", "days", 1),
      out("lifetime_years", "Battery lifetime", "years", 2),
      out("daily_wakes", "Wakes per day", "", 0),
  };
  t.references = {
      "Texas Instruments, SWRA349 \"Coin Cells and Peak Current Draw\" (M. Jensen, 2011): "
      "battery life is set by the average current",
      "Microchip Technology, AN1416 \"Low-Power Design Guide\" (average current of a "
      "duty-cycled MCU from active and sleep currents)",
      "Nordic Semiconductor, Online Power Profiler (charge per event over the event interval)",
      "Energizer, CR2032 product datasheet (rated capacity at a stated drain and cut-off "
      "voltage; why usable capacity is derated)",
  };
  t.examples = {
      {.title = "Defaults: 2000 mAh, 10 µA sleep, 80 mA for 250 ms every minute",
       .request_json =
           R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
           R"("wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80})"},
      {.title = "CR2032 coin cell: 220 mAh, 2 µA sleep, 15 mA for 5 ms every 10 s",
       .request_json = R"({"battery_capacity_mah":220,"sleep_current_ua":2,"wake_current_ma":15,)"
                       R"("wake_duration_ms":5,"cycle_period_s":10,"battery_efficiency_pct":85})"}};
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double tw = in.number("wake_duration_ms") / 1000.0;  // s
  const double period = in.number("cycle_period_s");         // s
  if (tw > period) {
    std::string msg = "wake_duration_ms (";
    append_shortest(msg, in.number("wake_duration_ms"));
    msg += " ms) is longer than cycle_period_s (";
    append_shortest(msg, period);
    msg +=
        " s): a device cannot stay awake longer than the period between wakes; shorten the wake "
        "or lengthen the period";
    return ToolError{"wake_duration_ms", std::move(msg)};
  }
  // Charge per cycle (mA·s): wake current during the wake window, sleep current only for
  // the rest of the period.
  const double sleep_ma = in.number("sleep_current_ua") / 1000.0;
  const double avg_ma = (in.number("wake_current_ma") * tw + sleep_ma * (period - tw)) / period;
  const double usable_mah =
      in.number("battery_capacity_mah") * in.number("battery_efficiency_pct") / 100.0;
  const double hours = usable_mah / avg_ma;
  const double days = hours / 24.0;
  Outputs out;
  out.set("avg_current_ua", avg_ma * 1000.0)
      .set("avg_current_ma", avg_ma)
      .set("lifetime_hours", hours)
      .set("lifetime_days", days)
      .set("lifetime_years", days / 365.25)  // Julian year
      .set("daily_wakes", 86400.0 / period);
  return out;
}

}  // namespace

Tool make_mcu_deep_sleep_battery() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
