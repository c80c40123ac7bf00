// UART baud-rate divisor and error for a clock and a target baud rate. Formula, register
// models, tolerance thresholds, references and worked examples: docs/tools/uart-baud-error.md.
#include <cmath>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Integer model: a 16-bit divisor latch, as the 16550 UART's DLM:DLL (divisor 1…65535).
constexpr double kIntegerDivisorMax = 65535;
// Fractional model: STM32 USART_BRR, a 12-bit mantissa with a 4-bit (16×) or 3-bit (8×)
// fraction, so the divisor runs from 1 to 4095 + 15/16 (or 4095 + 7/8) in steps of 1/OS.
constexpr double kFractionalMantissaMax = 4095;
// Per-end budgets for an 8-bit frame (start + 8 data + stop). ok: within the recommended
// maximum receiver error when both ends share the total equally (AVR datasheets: ±2.0 % at
// 16×, ±1.5 % at 8×). fail: at or beyond the whole tolerance of a receiver (STM32 USART,
// M = 8 bits, ONEBIT = 0: 3.75 % at 16×, 2.50 % at 8×), which leaves nothing for the other end.
constexpr double kOkPct16 = 2.0, kFailPct16 = 3.75;
constexpr double kOkPct8 = 1.5, kFailPct8 = 2.5;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "uart-baud-error";
  t.domain = "iot-mcu";
  t.version = "2.0.0";
  t.name = "UART Baud-Rate Error";
  t.description =
      "Divisor, actual baud rate and percentage error of a UART baud-rate generator for a "
      "peripheral clock and a target baud rate, with 16× or 8× oversampling and an integer or "
      "fractional divider; flags whether the error fits a receiver's tolerance.";
  t.standard = std::nullopt;
  t.inputs = {
      // Whole hertz: every oscillator and PLL output is specified in them, and it keeps the
      // error a ratio of integers, never a rounding residue (docs, "Bounds and why").
      integer_input({.key = "clock_hz",
                     .label = "UART clock",
                     .unit = "Hz",
                     .help = "Clock feeding the UART's baud-rate generator (the peripheral or "
                             "kernel clock, after any prescaler), in whole hertz: 16000000 for "
                             "16 MHz, 11059200 for an 11.0592 MHz baud crystal.",
                     .min = 32768,
                     .max = 1e9,
                     .step = 1,
                     .default_value = 16000000}),
      integer_input({.key = "baud_rate",
                     .label = "Target baud rate",
                     .unit = "bit/s",
                     .help = "Baud rate both ends are configured for, e.g. 9600, 115200 or "
                             "1000000. A rate the divider cannot reach is computed at the nearest "
                             "end of its range, with that divisor's error.",
                     .min = 50,
                     .max = 20000000,
                     .step = 1,
                     .default_value = 115200}),
      choice_input({.key = "oversampling",
                    .label = "Oversampling",
                    .help = "Receiver samples per bit: 16 (the classic UART; AVR U2X = 0, STM32 "
                            "OVER8 = 0) or 8 (AVR U2X = 1, STM32 OVER8 = 1). 8 doubles the "
                            "fastest rate and the divider's resolution but narrows the receiver's "
                            "tolerance. The status limits (ok up to 2.0 % at 16× and 1.5 % at 8×, "
                            "fail from 3.75 % and 2.5 %) assume 8-bit frames (8N1); 9 data bits "
                            "or a parity bit tolerate less.",
                    .options = {"16", "8"},
                    .default_value = "16",
                    .required = false}),
      flag_input({.key = "fractional_divider",
                  .label = "Fractional divider",
                  .help = "false: integer divisor (16550 divisor latch; AVR UBRR = divisor − 1), "
                          "1 to 65535; an AVR's UBRR has 12 bits, so there the divisor stops at "
                          "4096. true: STM32-style fractional divisor (USART_BRR: 12-bit "
                          "mantissa, 4-bit fraction at 16×, 3-bit at 8×), which makes the bit "
                          "any whole number of clock cycles.",
                  .default_value = false,
                  .required = false}),
  };
  t.outputs = {
      // 6 decimals: a target 10⁴ times faster than the clock allows still shows 3 digits.
      number_output({.key = "ideal_divisor", .label = "Ideal divisor", .unit = "", .precision = 6}),
      number_output({.key = "divisor", .label = "Programmed divisor", .unit = "", .precision = 4}),
      number_output(
          {.key = "clocks_per_bit", .label = "Clock cycles per bit", .unit = "", .precision = 0}),
      number_output(
          {.key = "actual_baud", .label = "Actual baud rate", .unit = "bit/s", .precision = 2}),
      number_output({.key = "error_pct",
                     .label = "Baud-rate error",
                     .unit = "%",
                     .precision = 3,
                     .small_values_in = "error_ppm"}),
      // The smallest non-zero error is 1/(baud·cycles) ≥ 7.6e-10 (integer clock and rate),
      // 0.000760 ppm at 6 decimals.
      number_output({.key = "error_ppm",
                     .label = "Baud-rate error in ppm (for errors below 0.1 %)",
                     .unit = "ppm",
                     .precision = 6}),
      text_output({.key = "status",
                   .label = "Baud-rate status (8-bit frames)",
                   .options = {"ok", "marginal", "fail"}}),
  };
  t.references = {
      "Maxim Integrated (Analog Devices), Tutorial 2141 \"Determining Clock Accuracy "
      "Requirements for UART Communications\" (2003): the receiver must stay within half a bit "
      "by the stop bit, a budget shared by both ends",
      "Microchip (Atmel) ATmega328P datasheet, USART0 \"Asynchronous Operational Range\": "
      "recommended maximum receiver error ±2.0 % (U2X = 0) and ±1.5 % (U2X = 1) for 8 data "
      "bits; baud = f/(16·(UBRR+1)) or f/(8·(UBRR+1))",
      "STMicroelectronics RM0351 (STM32L4) §\"Tolerance of the USART receiver to clock "
      "deviation\": 3.75 % (OVER8 = 0) and 2.50 % (OVER8 = 1) for 8-bit data, ONEBIT = 0; "
      "RM0090 (STM32F4) USART_BRR mantissa/fraction and its baud-rate error tables",
      "Texas Instruments PC16550D datasheet: divisor latch DLM:DLL, baud = clock/(16·divisor)",
  };
  t.examples = {
      {.title = "AVR at 16 MHz, 115200 bit/s, U2X = 0 (16×)",
       .request_json = R"({"clock_hz":16000000,"baud_rate":115200,"oversampling":"16",)"
                       R"("fractional_divider":false})",
       .expected_json = R"({"divisor":9,"error_pct":-3.5})",
       .tolerance_pct = 1.5,
       .source = "Atmel ATmega48/88/168 datasheet 2545D, USART, Table 84 \"Examples of UBRRn "
                 "Settings for Commonly Used Oscillator Frequencies\", fosc = 16.0000 MHz, "
                 "U2Xn = 0, 115.2k: UBRRn = 8 (divisor 9), error −3.5 % (one decimal)"},
      {.title = "AVR at 16 MHz, 115200 bit/s, U2X = 1 (8×)",
       .request_json = R"({"clock_hz":16000000,"baud_rate":115200,"oversampling":"8",)"
                       R"("fractional_divider":false})",
       .expected_json = R"({"divisor":17,"error_pct":2.1})",
       .tolerance_pct = 1.5,
       .source = "Atmel ATmega48/88/168 datasheet 2545D, USART, Table 84, fosc = 16.0000 MHz, "
                 "U2Xn = 1, 115.2k: UBRRn = 16 (divisor 17), error 2.1 % (one decimal)"},
      {.title = "STM32F4 at 16 MHz, 115.2 kbit/s, OVER8 = 0, fractional",
       .request_json = R"({"clock_hz":16000000,"baud_rate":115200,"oversampling":"16",)"
                       R"("fractional_divider":true})",
       .expected_json = R"({"divisor":8.6875,"actual_baud":115108})",
       .tolerance_pct = 0.001,
       .source = "STMicroelectronics RM0090 (DocID018909 Rev 11), USART, Table 137 \"Error "
                 "calculation for programmed baud rates at fPCLK = 8 MHz or fPCLK = 16 MHz, "
                 "oversampling by 16\", 16 MHz, 115.2 KBps: actual 115.108 KBps, value "
                 "programmed 8.6875 (easymanua.ls/stmicroelectronics/stm32f405/manual?p=976)"},
      {.title = "STM32F4 at 16 MHz, 921.6 kbit/s, OVER8 = 1, fractional",
       .request_json = R"({"clock_hz":16000000,"baud_rate":921600,"oversampling":"8",)"
                       R"("fractional_divider":true})",
       .expected_json = R"({"divisor":2.125,"actual_baud":941176})",
       .tolerance_pct = 0.001,
       .source = "STMicroelectronics RM0090 (Doc ID 018909 Rev 4), USART, Table 113 \"Error "
                 "calculation for programmed baud rates at fPCLK = 8 MHz or fPCLK = 16 MHz, "
                 "oversampling by 8\", 16 MHz, 921.6 KBps: actual 941.176 KBps, value "
                 "programmed 2.125, error 2.12 % (manualslib.com/manual/2767128/"
                 "St-Stm32f40-Series.html?page=760); Rev 11 numbers this table 138"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double clock = in.number("clock_hz");
  const double baud = in.number("baud_rate");
  const double os = in.enumeration("oversampling") == "8" ? 8 : 16;
  const bool fractional = in.boolean("fractional_divider");
  const double divisor_max =
      fractional ? kFractionalMantissaMax + (os - 1) / os : kIntegerDivisorMax;

  // Clock cycles per bit the target needs, and the divisor that would give them. os is a
  // power of two, so ideal·os == ideal_cycles exactly.
  const double ideal_cycles = clock / baud;
  const double ideal = ideal_cycles / os;

  // The bit lasts a whole number of clock cycles: OS·divisor with an integer divisor, or any
  // whole number of cycles with a fractional one (divisor in steps of 1/OS), from divisor 1 to
  // the register's largest. A target beyond either end gets that end's divisor: its error is
  // the result (a fail, not an error). Inside, of the two neighbours of the ideal take the one
  // with the smaller error (the smaller divisor on an exact tie).
  const double step = fractional ? 1 : os;  // cycles per divisor step
  const double min_cycles = os, max_cycles = os * divisor_max;
  // Error in percent, (clock/cycles − baud)/baud written so that integer inputs stay exact:
  // the thresholds are then compared without rounding noise.
  auto error_pct = [&](double cycles) { return 100 * (clock - baud * cycles) / (baud * cycles); };
  double cycles;
  if (ideal_cycles <= min_cycles) {
    cycles = min_cycles;
  } else if (ideal_cycles >= max_cycles) {
    cycles = max_cycles;
  } else {
    const double below = std::floor(ideal_cycles / step) * step;
    const double above = std::ceil(ideal_cycles / step) * step;
    cycles = std::fabs(error_pct(above)) < std::fabs(error_pct(below)) ? above : below;
  }
  const double error = error_pct(cycles);
  const double ok_limit = os == 16 ? kOkPct16 : kOkPct8;
  const double fail_limit = os == 16 ? kFailPct16 : kFailPct8;
  const double magnitude = std::fabs(error);
  const char* status = magnitude <= ok_limit ? "ok" : magnitude < fail_limit ? "marginal" : "fail";

  Outputs out;
  out.set("ideal_divisor", ideal)
      .set("divisor", cycles / os)
      .set("clocks_per_bit", cycles)
      .set("actual_baud", clock / cycles)
      .set("error_pct", error)
      .set("error_ppm", 1e6 * (clock - baud * cycles) / (baud * cycles))
      .set("status", status);
  return out;
}

}  // namespace

Tool make_uart_baud_error() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
