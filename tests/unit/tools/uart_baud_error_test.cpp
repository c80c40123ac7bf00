// uart-baud-error: the descriptor table, the worked examples of docs/tools/uart-baud-error.md
// (expected texts copied from that page), targets beyond the divider's range, and properties
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
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::result_field;
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
  EXPECT_EQ(d.version, "2.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"clock_hz", InputType::Integer, "Hz", 32768, 1e9, 1, 16000000.0},
             {"baud_rate", InputType::Integer, "bit/s", 50, 20000000, 1, 115200.0},
             {.key = "oversampling",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("16"),
              .required = false,
              .options = {"16", "8"}},
             {.key = "fractional_divider",
              .type = InputType::Boolean,
              .unit = std::nullopt,
              .default_value = false,
              .required = false},
         });
  // The status limits assume 8-bit frames, and the help says so where the limits are given.
  EXPECT_NE(d.inputs[2].help->find("8-bit frames"), std::string::npos);
  tool_test::expect_outputs(d, {
                                   {"ideal_divisor", OutputType::Number, "", 6},
                                   {"divisor", OutputType::Number, "", 4},
                                   {"clocks_per_bit", OutputType::Number, "", 0},
                                   {"actual_baud", OutputType::Number, "bit/s", 2},
                                   {"error_pct", OutputType::Number, "%", 3},
                                   {"error_ppm", OutputType::Number, "ppm", 6},
                                   {.key = "status",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"ok", "marginal", "fail"}},
                               });
  EXPECT_EQ(d.outputs[4].small_values_in, "error_ppm");
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

TEST(UartBaudError, OptionalInputsDefaultTo16xInteger) {
  EXPECT_EQ(run_tool(tool(), R"({"clock_hz":16000000,"baud_rate":115200})"),
            run_tool(tool(), body(16000000, 115200, "16", false)));
}

struct WorkedExample {
  const char* name;
  std::string body;
  // ideal divisor, divisor, cycles per bit, actual baud, error %, error ppm, status
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/uart-baud-error.md, row by row.
TEST(UartBaudError, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(16000000, 115200, "16", false),
       {"8.680556", "9.0000", "144", "111111.11", "-3.549", "-35493.827160", "marginal"}},
      {"2 every input at its minimum",
       body(32768, 50, "16", false),
       {"40.960000", "41.0000", "656", "49.95", "-0.098", "-975.609756", "ok"}},
      {"3 every number at its maximum, 16×, integer",
       body(1000000000, 20000000, "16", false),
       {"3.125000", "3.0000", "48", "20833333.33", "4.167", "41666.666667", "fail"}},
      {"4 every number at its maximum, 8×, fractional",
       body(1000000000, 20000000, "8", true),
       {"6.250000", "6.2500", "50", "20000000.00", "0.000", "0.000000", "ok"}},
      {"5 divisor exactly 1 (fastest rate)",
       body(16000000, 1000000, "16", false),
       {"1.000000", "1.0000", "16", "1000000.00", "0.000", "0.000000", "ok"}},
      {"6 just above the fastest rate: divisor 1, −0.0001 %",
       body(16000000, 1000001, "16", false),
       {"0.999999", "1.0000", "16", "1000000.00", "0.000", "-0.999999", "ok"}},
      {"7 integer divisor exactly 65535",
       body(52428000, 50, "16", false),
       {"65535.000000", "65535.0000", "1048560", "50.00", "0.000", "0.000000", "ok"}},
      {"8 just below the slowest rate: divisor 65535",
       body(52428001, 50, "16", false),
       {"65535.001250", "65535.0000", "1048560", "50.00", "0.000", "0.019074", "ok"}},
      {"9 fractional, 16×: top of the register",
       body(3276750, 50, "16", true),
       {"4095.937500", "4095.9375", "65535", "50.00", "0.000", "0.000000", "ok"}},
      {"10 fractional, 16×: just beyond it",
       body(3276751, 50, "16", true),
       {"4095.938750", "4095.9375", "65535", "50.00", "0.000", "0.305180", "ok"}},
      {"11 fractional, 8×: top of the register",
       body(1638350, 50, "8", true),
       {"4095.875000", "4095.8750", "32767", "50.00", "0.000", "0.000000", "ok"}},
      {"12 error exactly +2 % at 16×",
       body(16320000, 1000000, "16", false),
       {"1.020000", "1.0000", "16", "1020000.00", "2.000", "20000.000000", "ok"}},
      {"13 error just above +2 % at 16×",
       body(16320016, 1000000, "16", false),
       {"1.020001", "1.0000", "16", "1020001.00", "2.000", "20001.000000", "marginal"}},
      {"14 error exactly −2 % at 16× (divisor 2)",
       body(31360000, 1000000, "16", false),
       {"1.960000", "2.0000", "32", "980000.00", "-2.000", "-20000.000000", "ok"}},
      {"15 error just below 3.75 % at 16×",
       body(16599984, 1000000, "16", false),
       {"1.037499", "1.0000", "16", "1037499.00", "3.750", "37499.000000", "marginal"}},
      {"16 error exactly 3.75 % at 16×",
       body(16600000, 1000000, "16", false),
       {"1.037500", "1.0000", "16", "1037500.00", "3.750", "37500.000000", "fail"}},
      {"17 error exactly 1.5 % at 8×",
       body(8120000, 1000000, "8", false),
       {"1.015000", "1.0000", "8", "1015000.00", "1.500", "15000.000000", "ok"}},
      {"18 error just above 1.5 % at 8×",
       body(8120008, 1000000, "8", false),
       {"1.015001", "1.0000", "8", "1015001.00", "1.500", "15001.000000", "marginal"}},
      {"19 error just below 2.5 % at 8×",
       body(8199992, 1000000, "8", false),
       {"1.024999", "1.0000", "8", "1024999.00", "2.500", "24999.000000", "marginal"}},
      {"20 error exactly 2.5 % at 8×",
       body(8200000, 1000000, "8", false),
       {"1.025000", "1.0000", "8", "1025000.00", "2.500", "25000.000000", "fail"}},
      {"21 defaults with the fractional divider",
       body(16000000, 115200, "16", true),
       {"8.680556", "8.6875", "139", "115107.91", "-0.080", "-799.360512", "ok"}},
      {"22 Arduino Uno: 16 MHz, 115200, U2X (8×)",
       body(16000000, 115200, "8", false),
       {"17.361111", "17.0000", "136", "117647.06", "2.124", "21241.830065", "marginal"}},
      {"23 11.0592 MHz baud crystal",
       body(11059200, 115200, "16", false),
       {"6.000000", "6.0000", "96", "115200.00", "0.000", "0.000000", "ok"}},
      {"24 STM32F4 at 84 MHz, 921600, 8×, fractional",
       body(84000000, 921600, "8", true),
       {"11.393229", "11.3750", "91", "923076.92", "0.160", "1602.564103", "ok"}},
      {"25 16 MHz, 9600",
       body(16000000, 9600, "16", false),
       {"104.166667", "104.0000", "1664", "9615.38", "0.160", "1602.564103", "ok"}},
      {"26 1.02 Mbit/s from 16 MHz at 16×: above the fastest rate, still ok",
       body(16000000, 1020000, "16", false),
       {"0.980392", "1.0000", "16", "1000000.00", "-1.961", "-19607.843137", "ok"}},
      {"27 50 bit/s from 1 GHz, 8×, fractional: far below the slowest rate",
       body(1000000000, 50, "8", true),
       {"2500000.000000", "4095.8750", "32767", "30518.51", "60937.019", "609370189.519944",
        "fail"}},
      {"28 the smallest errors: one hertz in 10⁹, −0.001 ppm",
       body(999999999, 1000, "16", false),
       {"62499.999938", "62500.0000", "1000000", "1000.00", "0.000", "-0.001000", "ok"}},
      {"29 slowest clock, fastest rate: 10⁴ times beyond divisor 1",
       body(32768, 20000000, "16", false),
       {"0.000102", "1.0000", "16", "2048.00", "-99.990", "-999897.600000", "fail"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

// The case the independent check found refused: 1.02 Mbit/s from 16 MHz at 16× lies above
// f/16, but divisor 1 gives −1.96 %, ok by the tool's own limits. A target beyond either end of
// the divider's range now takes that end's divisor and reports its error and status.
TEST(UartBaudError, TargetsBeyondTheRangeTakeTheEndDivisor) {
  EXPECT_EQ(run_tool(tool(), body(16000000, 1020000, "16", false)),
            expected_result(tool(), {"0.980392", "1.0000", "16", "1000000.00", "-1.961",
                                     "-19607.843137", "ok"}));
  // The same rate at 8× computed before and still does: 15.686 cycles, divisor 2.
  EXPECT_EQ(result_field(run_tool(tool(), body(16000000, 1020000, "8", false)), "divisor"),
            "2.0000");
  // Below the slowest rate: the largest divisor, and the error says how far off it is.
  const std::string slow = run_tool(tool(), body(1000000000, 50, "8", true));
  EXPECT_EQ(result_field(slow, "divisor"), "4095.8750");
  EXPECT_EQ(result_field(slow, "status"), "fail");
  EXPECT_EQ(result_field(run_tool(tool(), body(52428001, 50, "16", false)), "divisor"),
            "65535.0000");
}

// A clock is a whole number of hertz: the error is then a ratio of integers, and the smallest
// non-zero one, 1/(baud·cycles), keeps 3 digits in ppm.
TEST(UartBaudError, SmallestErrorsKeepTheirDigits) {
  const std::string r = run_tool(tool(), body(999999999, 1000, "16", false));
  EXPECT_EQ(result_field(r, "error_pct"), "0.000");
  EXPECT_EQ(result_field(r, "error_ppm"), "-0.001000");
  EXPECT_EQ(run_tool(tool(), body(16000000.5, 115200, "16", false)),
            "400:clock_hz:clock_hz must be an integer, got 16000000.5");
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
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));  // never a 422
    const bool outside = ideal < 1 || ideal > max_divisor;
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
    // Beyond the range: the end divisor on that side.
    if (outside) {
      ASSERT_EQ(divisor, ideal < 1 ? 1 : max_divisor) << ideal;
    }
    ASSERT_NEAR(out.number("error_ppm"), 1e4 * out.number("error_pct"),
                1e-9 * (1 + std::fabs(out.number("error_ppm"))));
    ASSERT_EQ(out.number("actual_baud"), clock / cycles);
    // The chosen divisor is the best neighbour: the other one is never closer.
    const double step = fractional ? 1 : os;
    const double other = cycles < clock / baud ? cycles + step : cycles - step;
    const double error = out.number("error_pct");
    if (!outside && other >= os && other <= os * max_divisor) {
      const double other_error = 100 * (clock / other - baud) / baud;
      ASSERT_LE(std::fabs(error), std::fabs(other_error) * (1 + 1e-12) + 1e-12);
    }
    // The status follows the unrounded error and the oversampling's limits.
    const double ok = eight ? 1.5 : 2.0, fail = eight ? 2.5 : 3.75;
    const double e = std::fabs(error);
    ASSERT_EQ(out.text("status"), e <= ok ? "ok" : e < fail ? "marginal" : "fail") << error;
    // A fractional divider is never worse than an integer one for the same clock and rate.
    if (!fractional && !outside && ideal <= 4095 + (os - 1) / os) {
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
