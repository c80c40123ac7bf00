// UART baud-rate divisor and error for a clock and a target baud rate (issue 10). Formula,
// register models, tolerance thresholds, references and worked examples:
// docs/tools/uart-baud-error.md.
#include <cmath>

#include "core/decimal.hpp"
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
  t.version = "1.0.0";
  t.name = "UART Baud-Rate Error";
  t.description =
      "Divisor, actual baud rate and percentage error of a UART baud-rate generator for a "
      "peripheral clock and a target baud rate, with 16× or 8× oversampling and an integer or "
      "fractional divider; flags whether the error fits a receiver's tolerance.";
  t.standard = std::nullopt;

  InputDescriptor clock;
  clock.key = "clock_hz";
  clock.label = "UART clock";
  clock.type = InputType::Number;
  clock.unit = "Hz";
  clock.help =
      "Clock feeding the UART's baud-rate generator (the peripheral or kernel clock, after any "
      "prescaler), in hertz: 16000000 for 16 MHz, 11059200 for an 11.0592 MHz baud crystal.";
  clock.min = 32768;
  clock.max = 1e9;
  clock.step = 1;
  clock.default_value = 16000000.0;

  InputDescriptor baud;
  baud.key = "baud_rate";
  baud.label = "Target baud rate";
  baud.type = InputType::Integer;
  baud.unit = "bit/s";
  baud.help = "Baud rate both ends are configured for, e.g. 9600, 115200 or 1000000.";
  baud.min = 50;
  baud.max = 20000000;
  baud.step = 1;
  baud.default_value = 115200.0;

  InputDescriptor oversampling;
  oversampling.key = "oversampling";
  oversampling.label = "Oversampling";
  oversampling.type = InputType::Enum;
  oversampling.required = false;
  oversampling.help =
      "Receiver samples per bit: 16 (the classic UART; AVR U2X = 0, STM32 OVER8 = 0) or 8 "
      "(AVR U2X = 1, STM32 OVER8 = 1). 8 doubles the fastest rate and the divider's "
      "resolution but narrows the receiver's tolerance.";
  oversampling.default_value = std::string("16");
  oversampling.options = {"16", "8"};

  InputDescriptor fractional;
  fractional.key = "fractional_divider";
  fractional.label = "Fractional divider";
  fractional.type = InputType::Boolean;
  fractional.required = false;
  fractional.help =
      "false: integer divisor (16550 divisor latch; AVR UBRR = divisor − 1), 1 to 65535. "
      "true: STM32-style fractional divisor (USART_BRR: 12-bit mantissa, 4-bit fraction at "
      "16×, 3-bit at 8×), which makes the bit any whole number of clock cycles.";
  fractional.default_value = false;

  t.inputs = {clock, baud, oversampling, fractional};

  auto out = [](std::string key, std::string label, std::string unit, int precision) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::Number;
    o.unit = std::move(unit);
    o.precision = precision;
    return o;
  };
  OutputDescriptor status;
  status.key = "status";
  status.label = "Baud-rate status";
  status.type = OutputType::String;
  status.options = {"ok", "marginal", "fail"};
  t.outputs = {
      out("ideal_divisor", "Ideal divisor", "", 4),
      out("divisor", "Programmed divisor", "", 4),
      out("clocks_per_bit", "Clock cycles per bit", "", 0),
      out("actual_baud", "Actual baud rate", "bit/s", 2),
      out("error_pct", "Baud-rate error", "%", 3),
      status,
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
      {.title = "Defaults: 16 MHz clock, 115200 bit/s, 16×, integer divisor",
       .request_json = R"({"clock_hz":16000000,"baud_rate":115200,"oversampling":"16",)"
                       R"("fractional_divider":false})"},
      {.title = "STM32 at 84 MHz, 921600 bit/s, 8×, fractional divider",
       .request_json = R"({"clock_hz":84000000,"baud_rate":921600,"oversampling":"8",)"
                       R"("fractional_divider":true})"},
      {.title = "11.0592 MHz baud crystal, 115200 bit/s: exact",
       .request_json = R"({"clock_hz":11059200,"baud_rate":115200})"},
  };
  return t;
}

std::string oversampling_text(double os) {
  return os == 16 ? "16×" : "8×";
}

ComputeResult compute(const Inputs& in) {
  const double clock = in.number("clock_hz");
  const double baud = in.number("baud_rate");
  const double os = in.enumeration("oversampling") == "8" ? 8 : 16;
  const bool fractional = in.boolean("fractional_divider");
  const double divisor_max =
      fractional ? kFractionalMantissaMax + (os - 1) / os : kIntegerDivisorMax;

  // Clock cycles per bit the target needs, and the divisor that would give them. os is a
  // power of two, so ideal·os == ideal_cycles exactly and both tests below agree.
  const double ideal_cycles = clock / baud;
  const double ideal = ideal_cycles / os;
  if (ideal < 1) {
    std::string msg = "baud_rate of ";
    append_shortest(msg, baud);
    msg += " bit/s is above the fastest rate clock_hz = ";
    append_shortest(msg, clock);
    msg += " Hz gives at " + oversampling_text(os) + " oversampling (";
    append_fixed(msg, clock / os, 2);
    msg += " bit/s, divisor 1); raise the UART clock";
    if (os == 16) msg += ", use 8× oversampling";
    msg += " or lower the baud rate";
    return ToolError{"baud_rate", std::move(msg)};
  }
  if (ideal > divisor_max) {
    std::string msg = "baud_rate of ";
    append_shortest(msg, baud);
    msg += " bit/s is below the slowest rate clock_hz = ";
    append_shortest(msg, clock);
    msg += " Hz gives at " + oversampling_text(os) + " oversampling (";
    append_fixed(msg, clock / (os * divisor_max), 2);
    msg += " bit/s, the largest divisor ";
    append_shortest(msg, divisor_max);
    msg += "); divide the UART clock down with a prescaler or raise the baud rate";
    return ToolError{"baud_rate", std::move(msg)};
  }

  // The bit lasts a whole number of clock cycles: OS·divisor with an integer divisor, or any
  // whole number of cycles with a fractional one (divisor in steps of 1/OS). Of the two
  // neighbours of the ideal, take the one with the smaller error (the smaller divisor on an
  // exact tie); both lie within the register's range because the ideal does.
  const double step = fractional ? 1 : os;  // cycles per divisor step
  const double below = std::floor(ideal_cycles / step) * step;
  const double above = std::ceil(ideal_cycles / step) * step;
  // Error in percent, (clock/cycles − baud)/baud written so that integer inputs stay exact:
  // the thresholds are then compared without rounding noise.
  auto error_pct = [&](double cycles) { return 100 * (clock - baud * cycles) / (baud * cycles); };
  const double cycles = std::fabs(error_pct(above)) < std::fabs(error_pct(below)) ? above : below;
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
      .set("status", status);
  return out;
}

}  // namespace

Tool make_uart_baud_error() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
