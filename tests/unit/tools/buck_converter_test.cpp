// buck-converter: the fixed descriptor, the published design examples of
// docs/tools/buck-converter.md (expected values as their sources print them), both 422 cases and
// properties over random valid inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

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
  static const catalog::Tool t = make_buck_converter();
  return t;
}

std::string body(double vin, double vout, double iout, double fs_khz, double eta_pct,
                 double ripple_pct, double dv_mv) {
  return RequestBody()
      .number("vin_v", vin)
      .number("vout_v", vout)
      .number("iout_a", iout)
      .number("switching_frequency_khz", fs_khz)
      .number("efficiency_pct", eta_pct)
      .number("ripple_current_pct", ripple_pct)
      .number("output_ripple_mv", dv_mv)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

// The keys, units, bounds and precisions are fixed by the systems that call this tool.
TEST(BuckConverter, DescriptorIsTheFixedContract) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "buck-converter");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_NE(d.references[0].find("SLVA477B"), std::string::npos);
  tool_test::expect_inputs(
      d, {
             {"vin_v", InputType::Number, "V", 1, 100, 0.1, 12.0},
             {"vout_v", InputType::Number, "V", 0.5, 60, 0.1, 3.3},
             {"iout_a", InputType::Number, "A", 0.01, 50, 0.01, 2.0},
             {"switching_frequency_khz", InputType::Number, "kHz", 10, 5000, 1, 500.0},
             {"efficiency_pct", InputType::Number, "%", 50, 100, 1, 90.0},
             {"ripple_current_pct", InputType::Number, "% of I_out", 5, 100, 1, 30.0},
             {"output_ripple_mv", InputType::Number, "mV", 1, 1000, 1, 20.0},
         });
  tool_test::expect_outputs(d, {
                                   {"duty_cycle_pct", OutputType::Number, "%", 1},
                                   {"ripple_current_a", OutputType::Number, "A", 3},
                                   {"inductance_uh", OutputType::Number, "µH", 2},
                                   {"peak_switch_current_a", OutputType::Number, "A", 3},
                                   {"min_output_capacitance_uf", OutputType::Number, "µF", 2},
                                   {"duty_cycle", OutputType::Number, "", 5},
                                   {"ripple_current_ma", OutputType::Number, "mA", 3},
                                   {"inductance_nh", OutputType::Number, "nH", 4},
                                   {"peak_switch_current_ma", OutputType::Number, "mA", 2},
                                   {"min_output_capacitance_pf", OutputType::Number, "pF", 1},
                               });
  EXPECT_EQ(d.outputs[0].small_values_in, "duty_cycle");
  EXPECT_EQ(d.outputs[2].small_values_in, "inductance_nh");
  EXPECT_EQ(d.outputs[4].small_values_in, "min_output_capacitance_pf");
}

// TI SLUS973 (TPS54290/1/2), design example 1, p. 21: the data sheet multiplies by D rounded
// to three digits, so its inductances are up to 0.5 % above the exact ones.
TEST(BuckConverter, Tps54291DesignExample) {
  const std::string ch1 = run_tool(tool(), body(14, 3.3, 1.5, 600, 100, 30, 50));
  EXPECT_NEAR(field(ch1, "duty_cycle_pct"), 23.6, 0.05);
  EXPECT_NEAR(field(ch1, "ripple_current_a"), 0.450, 0.0005);
  EXPECT_NEAR(field(ch1, "inductance_uh"), 9.35, 9.35 * 0.005);
  const std::string ch2 = run_tool(tool(), body(14, 1.2, 2.5, 600, 100, 30, 24));
  EXPECT_NEAR(field(ch2, "duty_cycle_pct"), 8.6, 0.05);
  EXPECT_NEAR(field(ch2, "ripple_current_a"), 0.750, 0.0005);
  EXPECT_NEAR(field(ch2, "inductance_uh"), 2.45, 2.45 * 0.006);
}

// rftools.io buck design guide, worked example 12 V → 5 V at 2 A, 400 kHz, η 0.88.
TEST(BuckConverter, RfToolsWorkedExample) {
  const std::string r = run_tool(tool(), body(12, 5, 2, 400, 88, 30, 50));
  EXPECT_NEAR(field(r, "duty_cycle_pct"), 47.3, 0.05);
  EXPECT_NEAR(field(r, "ripple_current_a"), 0.6, 0.0005);
  EXPECT_NEAR(field(r, "peak_switch_current_a"), 2.3, 0.0005);
  EXPECT_NEAR(field(r, "min_output_capacitance_uf"), 3.75, 0.005);
}

TEST(BuckConverter, OutputNotBelowInputTimesEfficiencyIs422) {
  EXPECT_EQ(run_tool(tool(), body(12, 12, 2, 500, 100, 30, 20)),
            "422:vout_v:vout_v of 12 V is not below vin_v × efficiency (12.000 V): a buck "
            "converter only steps down; lower vout_v or raise vin_v");
  // 10.8 V out of 12 V at 90 % needs D = 1 exactly.
  EXPECT_EQ(run_tool(tool(), body(12, 10.8, 2, 500, 90, 30, 20)).rfind("422:vout_v:", 0), 0u);
  EXPECT_EQ(run_tool(tool(), body(5, 12, 2, 500, 90, 30, 20)).rfind("422:vout_v:", 0), 0u);
}

TEST(BuckConverter, DutyCycleAbove99PercentIs422) {
  EXPECT_EQ(run_tool(tool(), body(10, 9.95, 2, 500, 100, 30, 20)),
            "422:vout_v:vout_v of 9.95 V needs a duty cycle of 99.50 %, above 99 %: the switch "
            "would be off for less than 1 % of each period, shorter than any controller's minimum "
            "off-time; lower vout_v to at most 9.900 V or raise vin_v");
  // Exactly 99 % still computes.
  EXPECT_EQ(run_tool(tool(), body(10, 9.9, 2, 500, 100, 30, 20)).front(), '{');
}

TEST(BuckConverter, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(477);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    double x[7];
    for (int i = 0; i < 7; ++i) x[i] = tool_test::draw_number(d.inputs[i], rng);
    const auto result = compute_body(tool(), body(x[0], x[1], x[2], x[3], x[4], x[5], x[6]));
    const double duty = x[1] / (x[0] * (x[4] / 100));  // as compute() forms it
    if (duty > 0.99) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      EXPECT_EQ(std::get<catalog::ToolError>(result).field, "vout_v");
      continue;
    }
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double ripple = out.number("ripple_current_a");
    const double l_h = out.number("inductance_uh") * 1e-6;
    const double fs = x[3] * 1e3;
    // Round trip: the inductance gives back the chosen ripple, ΔI = V_out·(1 − V_out/V_in)/(L·f).
    ASSERT_NEAR(x[1] * (1 - x[1] / x[0]) / (l_h * fs), ripple, ripple * 1e-9);
    // And the capacitance gives back the ripple voltage, ΔV = ΔI/(8·f·C).
    const double c_f = out.number("min_output_capacitance_uf") * 1e-6;
    ASSERT_NEAR(ripple / (8 * fs * c_f), x[6] / 1e3, x[6] / 1e3 * 1e-9);
    ASSERT_NEAR(out.number("peak_switch_current_a"), x[2] + ripple / 2, 1e-12 * x[2]);
    // A lower efficiency always needs a longer on-time.
    ASSERT_GE(duty, x[1] / x[0] - 1e-15);
    // The finer outputs carry the same quantities.
    ASSERT_NEAR(out.number("inductance_nh"), out.number("inductance_uh") * 1e3,
                out.number("inductance_nh") * 1e-12);
    ASSERT_NEAR(out.number("duty_cycle") * 100, out.number("duty_cycle_pct"), 1e-9);
  }
  EXPECT_GT(computed, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
