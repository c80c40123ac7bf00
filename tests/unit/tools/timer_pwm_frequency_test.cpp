// timer-pwm-frequency: descriptor, the published PWM frequencies of
// docs/tools/timer-pwm-frequency.md (Arduino, ST, Microchip/Atmel datasheets), and properties
// over random valid inputs. The tool has no 422 condition.
#include <gtest/gtest.h>

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
using tool_test::RequestBody;
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_timer_pwm_frequency();
  return t;
}

std::string body(double clock, double prescaler, double top, const char* mode) {
  return RequestBody()
      .number("clock_hz", clock)
      .number("prescaler", prescaler)
      .number("top", top)
      .text("pwm_mode", mode)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(TimerPwmFrequency, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "timer-pwm-frequency");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d, {
                                  {"clock_hz", InputType::Number, "Hz", 1000, 1e9, 1, 16000000.0},
                                  {"prescaler", InputType::Integer, "", 1, 65536, 1, 64.0},
                                  {"top", InputType::Integer, "counts", 1, 4294967295.0, 1, 255.0},
                                  {.key = "pwm_mode",
                                   .type = InputType::Enum,
                                   .unit = std::nullopt,
                                   .default_value = std::string("edge-aligned"),
                                   .required = false,
                                   .options = {"edge-aligned", "center-aligned"}},
                              });
  tool_test::expect_outputs(d, {
                                   {"frequency_hz", OutputType::Number, "Hz", 3},
                                   {"period_us", OutputType::Number, "µs", 5},
                                   {"tick_ns", OutputType::Number, "ns", 3},
                                   {"resolution_bits", OutputType::Number, "bits", 2},
                                   {"duty_step_pct", OutputType::Number, "%", 4},
                                   {"duty_step_ns", OutputType::Number, "ns", 3},
                               });
  EXPECT_EQ(d.outputs[0].small_values_in, "period_us");
  EXPECT_EQ(d.outputs[4].small_values_in, "duty_step_ns");
}

TEST(TimerPwmFrequency, ArduinoDefaults) {
  // Arduino Stack Exchange answer 3185: 16 MHz / 64 / 256 = 976.56 Hz (timer0, fast PWM) and
  // 16 MHz / 64 / 510 = 490.20 Hz (the other timers, phase-correct).
  const std::string fast = run_tool(tool(), body(16e6, 64, 255, "edge-aligned"));
  EXPECT_NEAR(field(fast, "frequency_hz"), 976.56, 0.005);
  EXPECT_EQ(result_field(fast, "resolution_bits"), "8.00");
  EXPECT_EQ(result_field(fast, "tick_ns"), "4000.000");
  const std::string correct = run_tool(tool(), body(16e6, 64, 255, "center-aligned"));
  EXPECT_NEAR(field(correct, "frequency_hz"), 490.20, 0.005);
  // Arduino Playground "TimerPWMCheatsheet", pins 5 and 6 (timer0, fast PWM, 16 MHz):
  // divisor → frequency.
  const std::vector<std::pair<double, double>> timer0 = {
      {1, 62500}, {8, 7812.5}, {64, 976.5625}, {256, 244.140625}, {1024, 61.03515625}};
  for (const auto& [divisor, hz] : timer0) {
    SCOPED_TRACE(divisor);
    EXPECT_NEAR(field(run_tool(tool(), body(16e6, divisor, 255, "edge-aligned")), "frequency_hz"),
                hz, 0.0005);
  }
}

TEST(TimerPwmFrequency, StmAndAvrExamples) {
  // ST StdPeriph TIM PWM_Output readme: 24 MHz / (665 + 1) "= 36 KHz" (36.036 kHz).
  EXPECT_NEAR(field(run_tool(tool(), body(24e6, 1, 665, "edge-aligned")), "frequency_hz"), 36000,
              36000 * 0.002);
  // Cookie Robotics, ATmega328P timer0 fast PWM: prescaler 1024, OCR0A = 124 → 8 ms.
  EXPECT_EQ(result_field(run_tool(tool(), body(16e6, 1024, 124, "edge-aligned")), "period_us"),
            "8000.00000");
  // ATmega328PB datasheet: 10-bit fast PWM at TOP = 0x03FF, and the minimum 2-bit
  // resolution at TOP = 0x0003.
  EXPECT_EQ(result_field(run_tool(tool(), body(16e6, 1, 1023, "edge-aligned")), "resolution_bits"),
            "10.00");
  EXPECT_EQ(result_field(run_tool(tool(), body(16e6, 1, 3, "edge-aligned")), "resolution_bits"),
            "2.00");
}

TEST(TimerPwmFrequency, DutyStepsFollowTheCountingMode) {
  // Edge-aligned: 1000 ticks a period, duty in steps of 0.1 % and one tick (1 µs at 1 MHz).
  const std::string edge = run_tool(tool(), body(72e6, 72, 999, "edge-aligned"));
  EXPECT_EQ(result_field(edge, "frequency_hz"), "1000.000");
  EXPECT_EQ(result_field(edge, "duty_step_pct"), "0.1000");
  EXPECT_EQ(result_field(edge, "duty_step_ns"), "1000.000");
  // Center-aligned with ARR = 1000: 2000 ticks a period, duty CCR/1000, two ticks a step.
  const std::string center = run_tool(tool(), body(72e6, 72, 1000, "center-aligned"));
  EXPECT_EQ(result_field(center, "frequency_hz"), "500.000");
  EXPECT_EQ(result_field(center, "duty_step_pct"), "0.1000");
  EXPECT_EQ(result_field(center, "duty_step_ns"), "2000.000");
}

TEST(TimerPwmFrequency, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(328);
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << b;  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    const double f = out.number("frequency_hz");
    const double period_us = out.number("period_us");
    ASSERT_NEAR(f * period_us, 1e6, 1e-6);
    const double top = std::stod(result_field(b, "top"));
    const bool center = result_field(b, "pwm_mode") == "center-aligned";
    // The period is a whole number of ticks: TOP + 1 or 2·TOP.
    ASSERT_NEAR(period_us * 1000 / out.number("tick_ns"), center ? 2 * top : top + 1, 1e-6 * top);
    // duty step × number of steps = 100 %, and the pulse-width step is one or two ticks.
    ASSERT_NEAR(out.number("duty_step_pct") * (center ? top : top + 1), 100, 1e-9);
    ASSERT_DOUBLE_EQ(out.number("duty_step_ns"), out.number("tick_ns") * (center ? 2 : 1));
    ASSERT_NEAR(std::exp2(out.number("resolution_bits")), top + 1, 1e-6 * top);
  }
}

}  // namespace
}  // namespace toolcalc::tools
