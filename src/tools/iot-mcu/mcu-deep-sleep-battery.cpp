// MCU deep-sleep battery life (spec §2.2). Formula, references and worked examples:
// docs/tools/mcu-deep-sleep-battery.md.
#include "catalog/descriptor_builder.hpp"
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
  // Keys, units, bounds, steps, defaults and precisions are the API contract's (spec §2.2).
  t.inputs = {
      number_input({.key = "battery_capacity_mah",
                    .label = "Battery capacity",
                    .unit = "mAh",
                    .help = "Rated capacity from the cell datasheet, at the discharge rate you "
                            "expect.",
                    .min = 100,
                    .max = 30000,
                    .step = 100,
                    .default_value = 2000}),
      number_input({.key = "sleep_current_ua",
                    .label = "Sleep current",
                    .unit = "µA",
                    .help = "Total current in deep sleep: MCU, RTC, regulator quiescent and "
                            "leakage.",
                    .min = 1,
                    .max = 10000,
                    .step = 1,
                    .default_value = 10}),
      number_input({.key = "wake_current_ma",
                    .label = "Wake current",
                    .unit = "mA",
                    .help = "Average current while awake (CPU, sensors, radio), averaged over the "
                            "wake window including radio peaks; it replaces the sleep current "
                            "during the wake.",
                    .min = 1,
                    .max = 2000,
                    .step = 1,
                    .default_value = 80}),
      number_input({.key = "wake_duration_ms",
                    .label = "Wake duration",
                    .unit = "ms",
                    .help = "How long each wake lasts, from leaving sleep to re-entering it; at "
                            "most the cycle period.",
                    .min = 1,
                    .max = 600000,
                    .step = 10,
                    .default_value = 250}),
      number_input({.key = "cycle_period_s",
                    .label = "Cycle period",
                    .unit = "s",
                    .help = "How often the device wakes: time from one wake to the next.",
                    .min = 1,
                    .max = 86400,
                    .step = 1,
                    .default_value = 60}),
      number_input({.key = "battery_efficiency_pct",
                    .label = "Battery efficiency",
                    .unit = "% (usable capacity)",
                    .help = "Usable share of capacity after self-discharge, cut-off voltage and "
                            "regulator losses; temperature effects are not modelled, so derate "
                            "further for cold or hot sites.",
                    .min = 50,
                    .max = 100,
                    .step = 1,
                    .default_value = 80}),
  };
  t.outputs = {
      number_output(
          {.key = "avg_current_ua", .label = "Average current", .unit = "µA", .precision = 1}),
      number_output(
          {.key = "avg_current_ma", .label = "Average current", .unit = "mA", .precision = 3}),
      number_output(
          {.key = "lifetime_hours", .label = "Battery lifetime", .unit = "h", .precision = 1}),
      number_output(
          {.key = "lifetime_days", .label = "Battery lifetime", .unit = "days", .precision = 1}),
      number_output(
          {.key = "lifetime_years", .label = "Battery lifetime", .unit = "years", .precision = 2}),
      number_output({.key = "daily_wakes", .label = "Wakes per day", .unit = "", .precision = 0}),
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
      {.title = "40 mA for 2 s, 0.1 mA for 8 s, 2200 mAh",
       .request_json =
           R"({"battery_capacity_mah":2200,"sleep_current_ua":100,"wake_current_ma":40,)"
           R"("wake_duration_ms":2000,"cycle_period_s":10,"battery_efficiency_pct":100})",
       .expected_json = R"({"avg_current_ma":8.08,"lifetime_hours":272.3})",
       .tolerance_pct = 0.05,
       .source = "Orient Display, \"How to Estimate Battery Life for Your Device (Even with "
                 "Sleep Modes)\" (orientdisplay.com/how-to-estimate-battery-life-for-your-"
                 "device-even-with-sleep-modes), step-by-step example: 40 mA active for 2 s, "
                 "0.1 mA asleep for 8 s, a 10 s cycle: average ((40·2) + (0.1·8))/10 = 8.08 mA; "
                 "2200 mAh / 8.08 mA ≈ 272.3 hours (no derating)"},
      {.title = "BLE beacon: 7 mA for 3 ms every second, 3 µA sleep, CR2032",
       .request_json = R"({"battery_capacity_mah":225,"sleep_current_ua":3,"wake_current_ma":7,)"
                       R"("wake_duration_ms":3,"cycle_period_s":1,"battery_efficiency_pct":100})",
       .expected_json = R"({"avg_current_ua":24,"lifetime_hours":9375})",
       .tolerance_pct = 0.5,
       .source = "EmbedWise, \"Battery Life Calculator\", how it works "
                 "(embedwise.pages.dev/calculators/battery-life): a BLE beacon transmitting "
                 "every second for 3 ms at 7 mA, sleeping at 3 µA for the remaining 99.7 %: "
                 "I_avg ≈ 24 µA; a CR2032 (225 mAh) lasts 225,000 µAh / 24 µA ≈ 9,375 hours "
                 "(the source rounds the average to 24 µA first)"},
  };
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
