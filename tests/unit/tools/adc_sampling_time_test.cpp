// adc-sampling-time: descriptor, the acquisition-time examples of Microchip PIC data sheets
// and the STM32F103 "RAIN max" table (docs/tools/adc-sampling-time.md), and properties over
// random valid inputs. The tool has no 422 condition.
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
  static const catalog::Tool t = make_adc_sampling_time();
  return t;
}

std::string body(double rs, double rsw, double c_pf, int bits, const char* error = "1/2",
                 double clock_mhz = 14) {
  return RequestBody()
      .number("source_resistance_ohm", rs)
      .number("switch_resistance_ohm", rsw)
      .number("sample_capacitance_pf", c_pf)
      .number("resolution_bits", bits)
      .text("settling_error_lsb", error)
      .number("adc_clock_mhz", clock_mhz)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(AdcSamplingTime, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "adc-sampling-time");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"source_resistance_ohm", InputType::Number, "Ω", 0, 1000000, 1, 10000.0},
             {"switch_resistance_ohm", InputType::Number, "Ω", 100, 100000, 1, 1000.0},
             {"sample_capacitance_pf", InputType::Number, "pF", 1, 1000, 0.1, 8.0},
             {"resolution_bits", InputType::Integer, "bits", 4, 24, 1, 12.0},
             {.key = "settling_error_lsb",
              .type = InputType::Enum,
              .unit = "LSB",
              .default_value = std::string("1/2"),
              .required = false,
              .options = {"1/2", "1/4", "1/8"}},
             {"adc_clock_mhz", InputType::Number, "MHz", 0.01, 1000, 0.01, 14.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {"time_constant_ns", OutputType::Number, "ns", 3},
                                   {"time_constants", OutputType::Number, "τ", 3},
                                   {"min_sampling_time_ns", OutputType::Number, "ns", 3},
                                   {"min_sampling_cycles", OutputType::Number, "cycles", 2},
                               });
  EXPECT_EQ(d.outputs[3].small_values_in, "min_sampling_time_ns");
}

TEST(AdcSamplingTime, MicrochipAcquisitionExamples) {
  // TC = −CHOLD (RIC + RSS + RS) ln(1/2047): Microchip's ½-LSB charge of a 10-bit ADC.
  // PIC16F87XA Equation 11-1: 120 pF, 1 + 7 + 10 kΩ → 16.47 µs.
  EXPECT_NEAR(field(run_tool(tool(), body(10000, 8000, 120, 10)), "min_sampling_time_ns"), 16470,
              16470 * 0.001);
  // PIC18CXX2 Example 16-1: 120 pF, 1 + 7 + 2.5 kΩ → 9.61 µs.
  EXPECT_NEAR(field(run_tool(tool(), body(2500, 8000, 120, 10)), "min_sampling_time_ns"), 9610,
              9610 * 0.001);
  // PIC16F690 Equation 9-1: 10 pF, 1 + 7 + 10 kΩ → 1.37 µs.
  EXPECT_NEAR(field(run_tool(tool(), body(10000, 8000, 10, 10)), "min_sampling_time_ns"), 1370,
              1370 * 0.002);
  // ln(2^11) = 7.625 time constants against Microchip's ln(2047) = 7.624.
  EXPECT_EQ(result_field(run_tool(tool(), body(10000, 8000, 120, 10)), "time_constants"), "7.625");
}

// STM32F103x4/x6 datasheet, Table 47 "RAIN max for fADC = 14 MHz" (¼ LSB, N = 12,
// RADC = 1 kΩ, CADC = 8 pF): the source resistance that just fits each sampling time.
TEST(AdcSamplingTime, Stm32RainMaxTable) {
  const std::vector<std::pair<double, double>> rows = {{400, 1.5},    {5900, 7.5},   {11400, 13.5},
                                                       {25200, 28.5}, {37200, 41.5}, {50000, 55.5}};
  for (const auto& [rain, cycles] : rows) {
    SCOPED_TRACE(rain);
    const double got =
        field(run_tool(tool(), body(rain, 1000, 8, 12, "1/4", 14)), "min_sampling_cycles");
    // The table prints RAIN to 0.1 kΩ; 0.4 kΩ for 1.5 cycles is rounded the most (±0.05 kΩ
    // of 1.4 kΩ in total).
    EXPECT_NEAR(got, cycles, cycles * (rain < 1000 ? 0.03 : 0.005));
  }
}

TEST(AdcSamplingTime, SettlingCriterionAddsLn2PerHalving) {
  const double half = field(run_tool(tool(), body(1000, 1000, 10, 12, "1/2")), "time_constants");
  const double quarter = field(run_tool(tool(), body(1000, 1000, 10, 12, "1/4")), "time_constants");
  const double eighth = field(run_tool(tool(), body(1000, 1000, 10, 12, "1/8")), "time_constants");
  EXPECT_NEAR(quarter - half, std::log(2), 0.001);
  EXPECT_NEAR(eighth - quarter, std::log(2), 0.001);
  EXPECT_NEAR(half, 13 * std::log(2), 0.001);  // ln(2^(N+1))
}

TEST(AdcSamplingTime, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(2834);
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << b;  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    const double tau = out.number("time_constant_ns");
    const double t = out.number("min_sampling_time_ns");
    ASSERT_NEAR(t, tau * out.number("time_constants"), 1e-12 * t);
    // Round trip: charging for t leaves exactly the allowed error of a full-scale step.
    const int bits = std::stoi(result_field(b, "resolution_bits"));
    const std::string error = result_field(b, "settling_error_lsb");
    const double lsb_fraction = error == "1/2" ? 0.5 : error == "1/4" ? 0.25 : 0.125;
    ASSERT_NEAR(std::exp(-t / tau) * std::exp2(bits), lsb_fraction, 1e-9);
    ASSERT_NEAR(out.number("min_sampling_cycles"),
                t * 1e-9 * std::stod(result_field(b, "adc_clock_mhz")) * 1e6,
                1e-9 * out.number("min_sampling_cycles"));
  }
}

}  // namespace
}  // namespace toolcalc::tools
