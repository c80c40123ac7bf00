// Timer / PWM frequency, period and resolution from the timer clock, the prescaler and the
// period register (STM32 ARR, AVR TOP), in edge-aligned (single-slope) or center-aligned
// (dual-slope) counting. Formula, references and worked examples:
// docs/tools/timer-pwm-frequency.md.
#include <cmath>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "timer-pwm-frequency";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "Timer PWM Frequency";
  t.description =
      "PWM (or timer overflow) frequency and period of an MCU timer from its clock, prescaler "
      "and period register (ARR / TOP), in edge-aligned or center-aligned mode, with the "
      "duty-cycle resolution in bits, per cent and nanoseconds.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "clock_hz",
                    .label = "Timer clock",
                    .unit = "Hz",
                    .help = "Clock at the timer's prescaler input, in hertz: 16000000 for an "
                            "AVR at 16 MHz; on STM32 the TIMxCLK (twice the APB clock when the "
                            "APB prescaler is not 1).",
                    .min = 1000,
                    .max = 1000000000,
                    .step = 1,
                    .default_value = 16000000}),
      integer_input({.key = "prescaler",
                     .label = "Prescaler division",
                     .unit = "",
                     .help = "Division ratio N, 1 to 65536: STM32 PSC + 1; on AVR the selected "
                             "1, 8, 64, 256 or 1024.",
                     .min = 1,
                     .max = 65536,
                     .step = 1,
                     .default_value = 64}),
      integer_input({.key = "top",
                     .label = "Period register (ARR / TOP)",
                     .unit = "counts",
                     .help = "The value the counter counts up to: STM32 ARR, AVR TOP (255 for "
                             "8-bit PWM, ICR1 or OCR1A), 1 to 4294967295 (32-bit timers).",
                     .min = 1,
                     .max = 4294967295.0,
                     .step = 1,
                     .default_value = 255}),
      choice_input({.key = "pwm_mode",
                    .label = "Counting mode",
                    .help = "edge-aligned: counts 0 … TOP and restarts (STM32 edge-aligned, AVR "
                            "fast PWM), TOP + 1 ticks a period. center-aligned: counts up to TOP "
                            "and back down (STM32 center-aligned, AVR phase-correct), 2·TOP "
                            "ticks a period.",
                    .options = {"edge-aligned", "center-aligned"},
                    .default_value = "edge-aligned",
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "frequency_hz",
                     .label = "PWM / update frequency",
                     .unit = "Hz",
                     .precision = 3,
                     .small_values_in = "period_us"}),
      number_output({.key = "period_us", .label = "PWM period", .unit = "µs", .precision = 5}),
      number_output({.key = "tick_ns",
                     .label = "Counter tick (prescaler / clock)",
                     .unit = "ns",
                     .precision = 3}),
      number_output({.key = "resolution_bits",
                     .label = "PWM resolution log2(TOP + 1)",
                     .unit = "bits",
                     .precision = 2}),
      number_output({.key = "duty_step_pct",
                     .label = "Smallest duty-cycle step",
                     .unit = "%",
                     .precision = 4,
                     .small_values_in = "duty_step_ns"}),
      number_output({.key = "duty_step_ns",
                     .label = "Smallest pulse-width step",
                     .unit = "ns",
                     .precision = 3}),
  };
  t.references = {
      "Microchip (Atmel), ATmega328P / ATmega328PB datasheets, 16-bit Timer/Counter1 with PWM: "
      "fast PWM f_OCnxPWM = f_clk_I/O/(N·(1 + TOP)), phase-correct PWM f_OCnxPCPWM = "
      "f_clk_I/O/(2·N·TOP), resolution R = log(TOP + 1)/log(2), from 2 bits (TOP = 0x0003) to "
      "16 bits",
      "STMicroelectronics, RM0008 \"STM32F101xx … STM32F107xx reference manual\", "
      "general-purpose timers TIM2–TIM5: counter clock f_CK_CNT = f_CK_PSC/(PSC + 1), "
      "edge-aligned mode counting 0 … ARR, center-aligned mode counting up to ARR and down",
  };
  t.examples = {
      {.title = "Arduino Uno Timer0 (pins 5, 6): fast PWM, 16 MHz / 64 / 256",
       .request_json = R"({"clock_hz":16000000,"prescaler":64,"top":255,)"
                       R"("pwm_mode":"edge-aligned"})",
       .expected_json = R"({"frequency_hz":976.56})",
       .tolerance_pct = 0.001,
       .source = "Arduino Stack Exchange, answer 3185 (user2973), revision 2, read at "
                 "antarctic.serv00.net/http-arduino.stackexchange.com/revisions/3185/2: timer0 "
                 "fast PWM \"16 Mhz / 64 / 256 = 976.56 Hz\""},
      {.title = "Arduino Timer1/2 (other pins): phase-correct PWM, 16 MHz / 64 / 510",
       .request_json = R"({"clock_hz":16000000,"prescaler":64,"top":255,)"
                       R"("pwm_mode":"center-aligned"})",
       .expected_json = R"({"frequency_hz":490.20})",
       .tolerance_pct = 0.001,
       .source = "Arduino Stack Exchange, answer 3185 (user2973), revision 2 (same page): "
                 "timers 1–4 phase-correct PWM \"16 Mhz / 64 / 510 = 490.20 Hz\""},
      {.title = "STM32F10x TIM3 PWM example: 24 MHz counter clock, ARR = 665",
       .request_json = R"({"clock_hz":24000000,"prescaler":1,"top":665,)"
                       R"("pwm_mode":"edge-aligned"})",
       .expected_json = R"({"frequency_hz":36000})",
       .tolerance_pct = 0.2,
       .source = "STMicroelectronics, STM32F10x Standard Peripheral Library V3.5.0 (2011), "
                 "TIM/PWM_Output/readme.txt: \"TIM3 Frequency = TIM3 counter clock/(ARR + 1) = "
                 "24 MHz / 666 = 36 KHz\" (the readme rounds 36.04 kHz)"},
      {.title = "ATmega328P Timer0 fast PWM, prescaler 1024, OCR0A = 124: 8 ms period",
       .request_json = R"({"clock_hz":16000000,"prescaler":1024,"top":124})",
       .expected_json = R"({"period_us":8000})",
       .tolerance_pct = 0,
       .source = "Cookie Robotics, \"Fast PWM: Period & Duty Cycle Width\" (cookierobotics.com/"
                 "048/), example code for Timer/Counter0 at 16 MHz: prescaler 1024, OCR0A = 124 "
                 "(TOP) \"---> 8 msec (PWM period)\""},
      {.title = "AVR Timer1 fast PWM, 10-bit (TOP = 0x03FF)",
       .request_json = R"({"clock_hz":16000000,"prescaler":1,"top":1023})",
       .expected_json = R"({"resolution_bits":10})",
       .tolerance_pct = 0,
       .source = "Microchip ATmega328PB datasheet, Timer/Counter1 \"Fast PWM Mode\" (p. 170 of "
                 "the edition read at 38.142.81.21:8001/manual/microchip/atmega328pb-au/"
                 "datasheet-english/page-170.html): resolution fixed to 8, 9 or 10 bits by TOP = "
                 "0x00FF, 0x01FF or 0x03FF, R_FPWM = log(TOP + 1)/log(2)"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double clock = in.number("clock_hz");
  const double prescaler = in.number("prescaler");
  const double top = in.number("top");
  const bool center = in.enumeration("pwm_mode") == "center-aligned";

  const double tick_s = prescaler / clock;
  // Edge-aligned: 0 … TOP is TOP + 1 ticks and the compare value sets the duty in steps of
  // 1/(TOP + 1). Center-aligned: up to TOP and back is 2·TOP ticks, the duty is CCR/TOP and a
  // compare step moves both edges, so the pulse changes by two ticks.
  const double ticks_per_period = center ? 2 * top : top + 1;
  const double duty_steps = center ? top : top + 1;
  const double period_s = tick_s * ticks_per_period;

  Outputs out;
  out.set("frequency_hz", 1 / period_s)
      .set("period_us", period_s * 1e6)
      .set("tick_ns", tick_s * 1e9)
      .set("resolution_bits", std::log2(top + 1))
      .set("duty_step_pct", 100 / duty_steps)
      .set("duty_step_ns", tick_s * 1e9 * (center ? 2 : 1));
  return out;
}

}  // namespace

Tool make_timer_pwm_frequency() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
