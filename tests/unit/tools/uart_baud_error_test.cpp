// uart-baud-error: descriptor per issue 10, the worked examples of
// docs/tools/uart-baud-error.md (expected texts copied from that page), every 422, and
// properties over random valid inputs.
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
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_uart_baud_error();
  return t;
}

std::string body(double clock, double baud, const char* oversampling, bool fractional) {
  return RequestBody()
      .number("clock_hz", clock)
      .number("baud_rate", baud)
      .text("oversampling", oversampling)
      .boolean("fractional_divider", fractional)
      .json();
}

TEST(UartBaudError, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "uart-baud-error");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_EQ(d.endpoint(), "/v1/iot-mcu/uart-baud-error");
  EXPECT_GE(d.references.size(), 3u);
  EXPECT_FALSE(d.examples.empty());

  ASSERT_EQ(d.inputs.size(), 4u);
  const auto& clock = d.inputs[0];
  EXPECT_EQ(clock.key, "clock_hz");
  EXPECT_EQ(clock.type, InputType::Number);
  EXPECT_TRUE(clock.required);
  EXPECT_EQ(clock.unit, "Hz");
  EXPECT_EQ(clock.min, 32768);
  EXPECT_EQ(clock.max, 1e9);
  EXPECT_EQ(clock.step, 1);
  EXPECT_EQ(std::get<double>(clock.default_value), 16000000);
  const auto& baud = d.inputs[1];
  EXPECT_EQ(baud.key, "baud_rate");
  EXPECT_EQ(baud.type, InputType::Integer);
  EXPECT_TRUE(baud.required);
  EXPECT_EQ(baud.unit, "bit/s");
  EXPECT_EQ(baud.min, 50);
  EXPECT_EQ(baud.max, 20000000);
  EXPECT_EQ(baud.step, 1);
  EXPECT_EQ(std::get<double>(baud.default_value), 115200);
  const auto& os = d.inputs[2];
  EXPECT_EQ(os.key, "oversampling");
  EXPECT_EQ(os.type, InputType::Enum);
  EXPECT_FALSE(os.required);
  EXPECT_FALSE(os.unit.has_value());
  EXPECT_EQ(os.options, (std::vector<std::string>{"16", "8"}));
  EXPECT_EQ(std::get<std::string>(os.default_value), "16");
  const auto& fractional = d.inputs[3];
  EXPECT_EQ(fractional.key, "fractional_divider");
  EXPECT_EQ(fractional.type, InputType::Boolean);
  EXPECT_FALSE(fractional.required);
  EXPECT_FALSE(fractional.unit.has_value());
  EXPECT_EQ(std::get<bool>(fractional.default_value), false);
  for (const auto& in : d.inputs) {
    EXPECT_FALSE(in.label.empty()) << in.key;
    EXPECT_TRUE(in.help.has_value()) << in.key;
  }

  struct Out {
    const char* key;
    const char* unit;
    int precision;
  };
  const std::vector<Out> numbers = {
      {"ideal_divisor", "", 4},    {"divisor", "", 4},    {"clocks_per_bit", "", 0},
      {"actual_baud", "bit/s", 2}, {"error_pct", "%", 3},
  };
  ASSERT_EQ(d.outputs.size(), numbers.size() + 1);
  for (size_t i = 0; i < numbers.size(); ++i) {
    SCOPED_TRACE(numbers[i].key);
    EXPECT_EQ(d.outputs[i].key, numbers[i].key);
    EXPECT_EQ(d.outputs[i].type, OutputType::Number);
    EXPECT_EQ(d.outputs[i].unit, numbers[i].unit);
    EXPECT_EQ(d.outputs[i].precision, numbers[i].precision);
  }
  const auto& status = d.outputs[5];
  EXPECT_EQ(status.key, "status");
  EXPECT_EQ(status.type, OutputType::String);
  EXPECT_FALSE(status.unit.has_value());
  EXPECT_EQ(status.options, (std::vector<std::string>{"ok", "marginal", "fail"}));
}

TEST(UartBaudError, OptionalInputsRenderWithoutRequired) {
  const std::string record = catalog::render_record(tool().descriptor);
  EXPECT_NE(record.find(R"({"key":"oversampling","label":"Oversampling","help":)"),
            std::string::npos)
      << record;
  EXPECT_NE(record.find(R"("type":"enum","default":"16","options":["16","8"]})"),
            std::string::npos);
  EXPECT_NE(record.find(R"("type":"boolean","default":false})"), std::string::npos);
  EXPECT_NE(record.find(R"("standard":null)"), std::string::npos);
}

TEST(UartBaudError, DescriptorExamplesRun) {
  for (const auto& ex : tool().descriptor.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_EQ(run_tool(tool(), ex.request_json).front(), '{');
  }
}

TEST(UartBaudError, OptionalInputsDefaultTo16xInteger) {
  EXPECT_EQ(run_tool(tool(), R"({"clock_hz":16000000,"baud_rate":115200})"),
            run_tool(tool(), body(16000000, 115200, "16", false)));
}

struct WorkedExample {
  const char* name;
  std::string body;
  // ideal divisor, divisor, cycles per bit, actual baud, error %, status
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/uart-baud-error.md, row by row (the 422 rows
// are in the tests below).
TEST(UartBaudError, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(16000000, 115200, "16", false),
       {"8.6806", "9.0000", "144", "111111.11", "-3.549", "marginal"}},
      {"2 every input at its minimum",
       body(32768, 50, "16", false),
       {"40.9600", "41.0000", "656", "49.95", "-0.098", "ok"}},
      {"3 every number at its maximum, 16×, integer",
       body(1000000000, 20000000, "16", false),
       {"3.1250", "3.0000", "48", "20833333.33", "4.167", "fail"}},
      {"4 every number at its maximum, 8×, fractional",
       body(1000000000, 20000000, "8", true),
       {"6.2500", "6.2500", "50", "20000000.00", "0.000", "ok"}},
      {"5 divisor exactly 1 (fastest rate)",
       body(16000000, 1000000, "16", false),
       {"1.0000", "1.0000", "16", "1000000.00", "0.000", "ok"}},
      {"7 integer divisor exactly 65535",
       body(52428000, 50, "16", false),
       {"65535.0000", "65535.0000", "1048560", "50.00", "0.000", "ok"}},
      {"9 fractional, 16×: top of the register",
       body(3276750, 50, "16", true),
       {"4095.9375", "4095.9375", "65535", "50.00", "0.000", "ok"}},
      {"11 fractional, 8×: top of the register",
       body(1638350, 50, "8", true),
       {"4095.8750", "4095.8750", "32767", "50.00", "0.000", "ok"}},
      {"12 error exactly +2 % at 16×",
       body(16320000, 1000000, "16", false),
       {"1.0200", "1.0000", "16", "1020000.00", "2.000", "ok"}},
      {"13 error just above +2 % at 16×",
       body(16320016, 1000000, "16", false),
       {"1.0200", "1.0000", "16", "1020001.00", "2.000", "marginal"}},
      {"14 error exactly −2 % at 16× (divisor 2)",
       body(31360000, 1000000, "16", false),
       {"1.9600", "2.0000", "32", "980000.00", "-2.000", "ok"}},
      {"15 error just below 3.75 % at 16×",
       body(16599984, 1000000, "16", false),
       {"1.0375", "1.0000", "16", "1037499.00", "3.750", "marginal"}},
      {"16 error exactly 3.75 % at 16×",
       body(16600000, 1000000, "16", false),
       {"1.0375", "1.0000", "16", "1037500.00", "3.750", "fail"}},
      {"17 error exactly 1.5 % at 8×",
       body(8120000, 1000000, "8", false),
       {"1.0150", "1.0000", "8", "1015000.00", "1.500", "ok"}},
      {"18 error just above 1.5 % at 8×",
       body(8120008, 1000000, "8", false),
       {"1.0150", "1.0000", "8", "1015001.00", "1.500", "marginal"}},
      {"19 error just below 2.5 % at 8×",
       body(8199992, 1000000, "8", false),
       {"1.0250", "1.0000", "8", "1024999.00", "2.500", "marginal"}},
      {"20 error exactly 2.5 % at 8×",
       body(8200000, 1000000, "8", false),
       {"1.0250", "1.0000", "8", "1025000.00", "2.500", "fail"}},
      {"21 defaults with the fractional divider",
       body(16000000, 115200, "16", true),
       {"8.6806", "8.6875", "139", "115107.91", "-0.080", "ok"}},
      {"22 Arduino Uno: 16 MHz, 115200, U2X (8×)",
       body(16000000, 115200, "8", false),
       {"17.3611", "17.0000", "136", "117647.06", "2.124", "marginal"}},
      {"23 11.0592 MHz baud crystal",
       body(11059200, 115200, "16", false),
       {"6.0000", "6.0000", "96", "115200.00", "0.000", "ok"}},
      {"24 STM32F4 at 84 MHz, 921600, 8×, fractional",
       body(84000000, 921600, "8", true),
       {"11.3932", "11.3750", "91", "923076.92", "0.160", "ok"}},
      {"25 16 MHz, 9600",
       body(16000000, 9600, "16", false),
       {"104.1667", "104.0000", "1664", "9615.38", "0.160", "ok"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(UartBaudError, RateAboveTheFastestIs422) {  // doc row 6
  EXPECT_EQ(run_tool(tool(), body(16000000, 1000001, "16", false)),
            "422:baud_rate:baud_rate of 1000001 bit/s is above the fastest rate clock_hz = "
            "16000000 Hz gives at 16× oversampling (1000000.00 bit/s, divisor 1); raise the UART "
            "clock, use 8× oversampling or lower the baud rate");
  // At 8× the same check applies at f/8, and 8× is not offered as the remedy.
  EXPECT_EQ(run_tool(tool(), body(8000000, 1000001, "8", true)),
            "422:baud_rate:baud_rate of 1000001 bit/s is above the fastest rate clock_hz = "
            "8000000 Hz gives at 8× oversampling (1000000.00 bit/s, divisor 1); raise the UART "
            "clock or lower the baud rate");
  EXPECT_EQ(run_tool(tool(), body(8000000, 1000000, "8", true)).front(), '{');
}

TEST(UartBaudError, RateBelowTheSlowestIs422) {  // doc rows 8 and 10
  EXPECT_EQ(run_tool(tool(), body(52428001, 50, "16", false)),
            "422:baud_rate:baud_rate of 50 bit/s is below the slowest rate clock_hz = 52428001 Hz "
            "gives at 16× oversampling (50.00 bit/s, the largest divisor 65535); divide the UART "
            "clock down with a prescaler or raise the baud rate");
  EXPECT_EQ(run_tool(tool(), body(3276751, 50, "16", true)),
            "422:baud_rate:baud_rate of 50 bit/s is below the slowest rate clock_hz = 3276751 Hz "
            "gives at 16× oversampling (50.00 bit/s, the largest divisor 4095.9375); divide the "
            "UART clock down with a prescaler or raise the baud rate");
  EXPECT_EQ(run_tool(tool(), body(1000000000, 50, "8", true)),
            "422:baud_rate:baud_rate of 50 bit/s is below the slowest rate clock_hz = 1000000000 "
            "Hz gives at 8× oversampling (30518.51 bit/s, the largest divisor 4095.875); divide "
            "the UART clock down with a prescaler or raise the baud rate");
  // The 8× fractional register tops out at 32767 cycles: one hertz more is refused.
  EXPECT_EQ(run_tool(tool(), body(1638351, 50, "8", true)).rfind("422:baud_rate:", 0), 0u);
}

TEST(UartBaudError, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(16000000, 115200.5, "16", false)),
            "400:baud_rate:baud_rate must be an integer, got 115200.5");
  EXPECT_EQ(run_tool(tool(), body(16000000, 115200, "4", false)),
            "400:oversampling:oversampling must be one of: 16, 8");
  EXPECT_EQ(run_tool(tool(), body(32767, 50, "16", false)),
            "400:clock_hz:clock_hz must be at least 32768");
  EXPECT_EQ(run_tool(tool(), R"({"clock_hz":16000000})"), "400:baud_rate:baud_rate is required");
}

TEST(UartBaudError, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(16550);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const double clock = std::round(tool_test::draw_number(d.inputs[0], rng));
    const double baud = std::round(tool_test::draw_number(d.inputs[1], rng));
    const bool eight = std::bernoulli_distribution(0.5)(rng);
    const bool fractional = std::bernoulli_distribution(0.5)(rng);
    const double os = eight ? 8 : 16;
    const double max_divisor = fractional ? 4095 + (os - 1) / os : 65535;
    const double ideal = clock / (os * baud);
    const auto result = compute_body(tool(), body(clock, baud, eight ? "8" : "16", fractional));
    // 422 exactly when the target is outside the range the register spans.
    const bool outside = ideal < 1 || ideal > max_divisor;
    ASSERT_EQ(std::holds_alternative<catalog::ToolError>(result), outside)
        << clock << " Hz, " << baud << " bit/s, ideal divisor " << ideal;
    if (outside) {
      ASSERT_EQ(std::get<catalog::ToolError>(result).field, "baud_rate");
      continue;
    }
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) {
      if (o.type == OutputType::Number) {
        ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
      }
    }
    const double cycles = out.number("clocks_per_bit");
    const double divisor = out.number("divisor");
    // A whole number of cycles, on the register's grid and within its range.
    ASSERT_EQ(cycles, std::round(cycles));
    ASSERT_EQ(divisor * os, cycles);
    if (!fractional) {
      ASSERT_EQ(divisor, std::round(divisor));
    }
    ASSERT_GE(divisor, 1);
    ASSERT_LE(divisor, max_divisor);
    ASSERT_EQ(out.number("actual_baud"), clock / cycles);
    // The chosen divisor is the best neighbour: the other one is never closer.
    const double step = fractional ? 1 : os;
    const double other = cycles < clock / baud ? cycles + step : cycles - step;
    const double error = out.number("error_pct");
    if (other >= os && other <= os * max_divisor) {
      const double other_error = 100 * (clock / other - baud) / baud;
      ASSERT_LE(std::fabs(error), std::fabs(other_error) * (1 + 1e-12) + 1e-12);
    }
    // The status follows the unrounded error and the oversampling's limits.
    const double ok = eight ? 1.5 : 2.0, fail = eight ? 2.5 : 3.75;
    const double e = std::fabs(error);
    ASSERT_EQ(out.text("status"), e <= ok ? "ok" : e < fail ? "marginal" : "fail") << error;
    // A fractional divider is never worse than an integer one for the same clock and rate.
    if (!fractional) {
      const auto finer = compute_body(tool(), body(clock, baud, eight ? "8" : "16", true));
      if (const auto* f = std::get_if<catalog::Outputs>(&finer)) {
        ASSERT_LE(std::fabs(f->number("error_pct")), e * (1 + 1e-12) + 1e-12);
      }
    }
  }
  EXPECT_GT(computed, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
