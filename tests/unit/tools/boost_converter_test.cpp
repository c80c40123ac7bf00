// boost-converter: descriptor, the published examples of docs/tools/boost-converter.md (expected
// values as their sources print them), every 422 case and properties over random valid inputs.
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
  static const catalog::Tool t = make_boost_converter();
  return t;
}

std::string body(double vin, double vout, double iout, double fs_khz, double eta_pct,
                 double ripple_pct, double dv_mv, double limit_a) {
  return RequestBody()
      .number("vin_v", vin)
      .number("vout_v", vout)
      .number("iout_a", iout)
      .number("switching_frequency_khz", fs_khz)
      .number("efficiency_pct", eta_pct)
      .number("ripple_current_pct", ripple_pct)
      .number("output_ripple_mv", dv_mv)
      .number("switch_current_limit_a", limit_a)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(BoostConverter, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "boost-converter");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_NE(d.references[0].find("SLVA372"), std::string::npos);
  tool_test::expect_inputs(
      d, {
             {"vin_v", InputType::Number, "V", 0.5, 60, 0.1, 5.0},
             {"vout_v", InputType::Number, "V", 1, 100, 0.1, 12.0},
             {"iout_a", InputType::Number, "A", 0.01, 20, 0.01, 0.5},
             {"switching_frequency_khz", InputType::Number, "kHz", 10, 5000, 1, 1000.0},
             {"efficiency_pct", InputType::Number, "%", 50, 100, 1, 85.0},
             {"ripple_current_pct", InputType::Number, "% of inductor current", 5, 100, 1, 30.0},
             {"output_ripple_mv", InputType::Number, "mV", 1, 1000, 1, 50.0},
             {"switch_current_limit_a", InputType::Number, "A", 0.01, 100, 0.01, 2.0},
         });
  tool_test::expect_outputs(d, {
                                   {"duty_cycle_pct", OutputType::Number, "%", 1},
                                   {"inductor_current_a", OutputType::Number, "A", 3},
                                   {"ripple_current_a", OutputType::Number, "A", 3},
                                   {"inductance_uh", OutputType::Number, "µH", 2},
                                   {"peak_switch_current_a", OutputType::Number, "A", 3},
                                   {"max_output_current_a", OutputType::Number, "A", 3},
                                   {"min_output_capacitance_uf", OutputType::Number, "µF", 2},
                                   {"duty_cycle", OutputType::Number, "", 5},
                                   {"inductor_current_ma", OutputType::Number, "mA", 2},
                                   {"ripple_current_ma", OutputType::Number, "mA", 3},
                                   {"inductance_nh", OutputType::Number, "nH", 4},
                                   {"peak_switch_current_ma", OutputType::Number, "mA", 2},
                                   {"max_output_current_ma", OutputType::Number, "mA", 2},
                                   {"min_output_capacitance_pf", OutputType::Number, "pF", 1},
                               });
}

// rftools.io boost calculator, worked example: Li-ion 2.7 V → 5 V at 2 A, 1 MHz, η 0.9, 30 %.
TEST(BoostConverter, RfToolsWorkedExample) {
  const std::string r = run_tool(tool(), body(2.7, 5, 2, 1000, 90, 30, 50, 8));
  EXPECT_NEAR(field(r, "inductor_current_a"), 4.1, 4.1 * 0.01);
  EXPECT_NEAR(field(r, "ripple_current_a"), 1.23, 1.23 * 0.01);
  EXPECT_NEAR(field(r, "inductance_uh"), 1.0, 0.01 + 0.005);
}

// ekostra.com boost calculator example: ideal 5 V → 12 V, 50 kHz, 0.5 A ripple (20.833 % of
// the 2.4 A inductor current at 1 A out).
TEST(BoostConverter, EkostraExample) {
  const std::string r = run_tool(tool(), body(5, 12, 1, 50, 100, 0.5 / 2.4 * 100, 50, 5));
  EXPECT_NEAR(field(r, "duty_cycle_pct"), 58.33, 0.05);
  EXPECT_NEAR(field(r, "ripple_current_a"), 0.5, 0.0005);
  EXPECT_NEAR(field(r, "inductance_uh"), 116.7, 0.05);
}

TEST(BoostConverter, OutputNotAboveInputIs422) {
  EXPECT_EQ(run_tool(tool(), body(12, 12, 1, 500, 90, 30, 50, 5)),
            "422:vout_v:vout_v of 12 V is not above vin_v of 12 V: a boost converter only steps "
            "up; raise vout_v or use a buck converter");
  EXPECT_EQ(run_tool(tool(), body(12, 5, 1, 500, 90, 30, 50, 5)).rfind("422:vout_v:", 0), 0u);
}

TEST(BoostConverter, OutputWithinOnePercentOfInputIs422) {
  EXPECT_EQ(run_tool(tool(), body(10, 10.05, 1, 500, 90, 30, 50, 5)),
            "422:vout_v:vout_v of 10.05 V is within 1 % of vin_v (ideal duty cycle 0.498 %): the "
            "switch would be on for less than 1 % of each period, shorter than any controller's "
            "minimum on-time; raise vout_v to at least 10.101 V");
}

TEST(BoostConverter, SwitchCurrentLimitTooLowIs422) {
  // 5 V → 12 V at 1 A, η 100 %: I_L = 2.4 A, ΔI_L = 0.72 A, peak 2.76 A above a 2 A limit.
  EXPECT_EQ(run_tool(tool(), body(5, 12, 1, 1000, 100, 30, 50, 2)),
            "422:switch_current_limit_a:switch_current_limit_a of 2 A is below the peak switch "
            "current of 2.760 A, so the converter can deliver only 0.683 A: choose a converter "
            "with a higher current limit, allow more inductance (less ripple) or lower iout_a");
  // A limit below half the ripple: nothing can be delivered.
  EXPECT_NE(run_tool(tool(), body(5, 12, 1, 1000, 100, 30, 50, 0.3)).find("deliver only 0.000 A"),
            std::string::npos);
}

TEST(BoostConverter, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(372);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    double x[8];
    for (int i = 0; i < 8; ++i) x[i] = tool_test::draw_number(d.inputs[i], rng);
    const auto result = compute_body(tool(), body(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]));
    if (const auto* error = std::get_if<catalog::ToolError>(&result)) {
      if (error->field == "vout_v") {
        ASSERT_LT(1 - x[0] / x[1], 0.01);
      } else {
        ASSERT_EQ(error->field, "switch_current_limit_a");
      }
      continue;
    }
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double duty = out.number("duty_cycle");
    const double il = out.number("inductor_current_a");
    const double ripple = out.number("ripple_current_a");
    const double fs = x[3] * 1e3;
    // Power balance: the input power is the output power over the efficiency.
    ASSERT_NEAR(il * x[0] * x[4] / 100, x[1] * x[2], x[1] * x[2] * 1e-12);
    // Round trip: the inductance gives back the chosen ripple, ΔI = V_in·(1 − V_in/V_out)/(L·f).
    const double l_h = out.number("inductance_uh") * 1e-6;
    ASSERT_NEAR(x[0] * (1 - x[0] / x[1]) / (l_h * fs), ripple, ripple * 1e-9);
    // The efficiency only lengthens the on-time, and the switch limit covers the output.
    ASSERT_GE(duty, 1 - x[0] / x[1] - 1e-15);
    ASSERT_GE(out.number("max_output_current_a"), x[2]);
    ASSERT_LE(out.number("peak_switch_current_a"), x[7] * (1 + 1e-12));
  }
  EXPECT_GT(computed, 500);
}

}  // namespace
}  // namespace toolcalc::tools
