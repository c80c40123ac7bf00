// mcu-deep-sleep-battery: the descriptor table per spec §2.2, the worked examples of
// docs/tools/mcu-deep-sleep-battery.md (expected texts copied from that page), every 422,
// and properties over random valid inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_mcu_deep_sleep_battery();
  return t;
}

std::string body(double capacity, double sleep_ua, double wake_ma, double wake_ms, double period_s,
                 double efficiency) {
  return RequestBody()
      .number("battery_capacity_mah", capacity)
      .number("sleep_current_ua", sleep_ua)
      .number("wake_current_ma", wake_ma)
      .number("wake_duration_ms", wake_ms)
      .number("cycle_period_s", period_s)
      .number("battery_efficiency_pct", efficiency)
      .json();
}

TEST(McuDeepSleepBattery, DescriptorMatchesSpec) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "mcu-deep-sleep-battery");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_EQ(d.name, "MCU Deep-Sleep Battery Life");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"battery_capacity_mah", InputType::Number, "mAh", 100, 30000, 100, 2000.0},
             {"sleep_current_ua", InputType::Number, "µA", 1, 10000, 1, 10.0},
             {"wake_current_ma", InputType::Number, "mA", 1, 2000, 1, 80.0},
             {"wake_duration_ms", InputType::Number, "ms", 1, 600000, 10, 250.0},
             {"cycle_period_s", InputType::Number, "s", 1, 86400, 1, 60.0},
             {"battery_efficiency_pct", InputType::Number, "% (usable capacity)", 50, 100, 1, 80.0},
         });
  // The spec's meanings of these two inputs belong in their help texts.
  EXPECT_NE(d.inputs[4].help->find("How often the device wakes"), std::string::npos);
  EXPECT_NE(d.inputs[5].help->find("self-discharge"), std::string::npos);
  tool_test::expect_outputs(d, {
                                   {"avg_current_ua", OutputType::Number, "µA", 1},
                                   {"avg_current_ma", OutputType::Number, "mA", 3},
                                   {"lifetime_hours", OutputType::Number, "h", 1},
                                   {"lifetime_days", OutputType::Number, "days", 1},
                                   {"lifetime_years", OutputType::Number, "years", 2},
                                   {"daily_wakes", OutputType::Number, "", 0},
                               });
}

// The "Worked examples" table of docs/tools/mcu-deep-sleep-battery.md, row by row.
struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // avg µA, avg mA, hours, days, years, daily wakes
};

TEST(McuDeepSleepBattery, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(2000, 10, 80, 250, 60, 80),
       {"343.3", "0.343", "4660.8", "194.2", "0.53", "1440"}},
      {"2 every input at its minimum",
       body(100, 1, 1, 1, 1, 50),
       {"2.0", "0.002", "25012.5", "1042.2", "2.85", "86400"}},
      {"3 every input at its maximum",
       body(30000, 10000, 2000, 600000, 86400, 100),
       {"23819.4", "23.819", "1259.5", "52.5", "0.14", "1"}},
      {"4 wake equals period (always awake)",
       body(2000, 10, 80, 60000, 60, 80),
       {"80000.0", "80.000", "20.0", "0.8", "0.00", "1440"}},
      {"6 wake equals period at the shortest period",
       body(2000, 10, 80, 1000, 1, 80),
       {"80000.0", "80.000", "20.0", "0.8", "0.00", "86400"}},
      {"8 CR2032 coin-cell sensor",
       body(220, 2, 15, 5, 10, 85),
       {"9.5", "0.009", "19686.3", "820.3", "2.25", "8640"}},
      {"9 hourly LoRa-style report",
       body(2600, 5, 120, 2000, 3600, 70),
       {"71.7", "0.072", "25396.3", "1058.2", "2.90", "24"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(McuDeepSleepBattery, WakeLongerThanPeriodIs422) {
  // Rows 5 and 7 of the doc page: one step past the wake == period rows 4 and 6.
  EXPECT_EQ(run_tool(tool(), body(2000, 10, 80, 60010, 60, 80)),
            "422:wake_duration_ms:wake_duration_ms (60010 ms) is longer than cycle_period_s "
            "(60 s): a device cannot stay awake longer than the period between wakes; shorten "
            "the wake or lengthen the period");
  EXPECT_EQ(run_tool(tool(), body(2000, 10, 80, 1001, 1, 80)),
            "422:wake_duration_ms:wake_duration_ms (1001 ms) is longer than cycle_period_s "
            "(1 s): a device cannot stay awake longer than the period between wakes; shorten "
            "the wake or lengthen the period");
  EXPECT_EQ(run_tool(tool(), body(100, 1, 1, 600000, 599, 50)).rfind("422:wake_duration_ms:", 0),
            0u);
}

TEST(McuDeepSleepBattery, OutOfBoundsIsRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(2000, 10, 80, 250, 0, 80)),
            "400:cycle_period_s:cycle_period_s must be at least 1");
  EXPECT_EQ(run_tool(tool(), body(2000, 10, 80, 250, 60, 101)),
            "400:battery_efficiency_pct:battery_efficiency_pct must be at most 100");
}

TEST(McuDeepSleepBattery, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(20261101);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const double capacity = tool_test::draw_number(d.inputs[0], rng);
    const double sleep = tool_test::draw_number(d.inputs[1], rng);
    const double wake = tool_test::draw_number(d.inputs[2], rng);
    const double wake_ms = tool_test::draw_number(d.inputs[3], rng);
    const double period = tool_test::draw_number(d.inputs[4], rng);
    const double efficiency = tool_test::draw_number(d.inputs[5], rng);
    const auto result =
        compute_body(tool(), body(capacity, sleep, wake, wake_ms, period, efficiency));
    // 422 exactly when the wake does not fit in the period.
    ASSERT_EQ(std::holds_alternative<catalog::ToolError>(result), wake_ms / 1000.0 > period)
        << wake_ms << " ms, " << period << " s";
    if (wake_ms / 1000.0 > period) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double avg = out.number("avg_current_ma");
    // The average is a weighted mean of the sleep and wake currents.
    ASSERT_GE(avg, std::min(sleep / 1000.0, wake) * (1 - 1e-12));
    ASSERT_LE(avg, std::max(sleep / 1000.0, wake) * (1 + 1e-12));
    ASSERT_GT(out.number("lifetime_hours"), 0);

    // Lifetime falls as the wake current rises, all else equal.
    if (wake < 2000) {
      const double more = wake + (2000 - wake) * std::uniform_real_distribution<>(0.01, 1)(rng);
      const auto higher =
          compute_body(tool(), body(capacity, sleep, more, wake_ms, period, efficiency));
      ASSERT_LT(std::get<catalog::Outputs>(higher).number("lifetime_hours"),
                out.number("lifetime_hours"))
          << wake << " → " << more << " mA";
    }
  }
  EXPECT_GT(computed, 2000);  // the draws mostly exercise the computing path
}

}  // namespace
}  // namespace toolcalc::tools
