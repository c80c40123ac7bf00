// ldo-regulator: descriptor, the data-sheet examples of docs/tools/ldo-regulator.md (expected
// values as the data sheets print them), the dropout 422 and properties over random valid
// inputs.
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
  static const catalog::Tool t = make_ldo_regulator();
  return t;
}

std::string body(double vin, double vout, double iout_ma, double ignd_ma, double dropout,
                 double theta, double ambient, double tj_max) {
  return RequestBody()
      .number("vin_v", vin)
      .number("vout_v", vout)
      .number("iout_ma", iout_ma)
      .number("ground_current_ma", ignd_ma)
      .number("dropout_v", dropout)
      .number("theta_ja_c_per_w", theta)
      .number("ambient_temp_c", ambient)
      .number("max_junction_temp_c", tj_max)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(LdoRegulator, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "ldo-regulator");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d,
                           {
                               {"vin_v", InputType::Number, "V", 1, 60, 0.1, 5.0},
                               {"vout_v", InputType::Number, "V", 0.5, 50, 0.1, 3.3},
                               {"iout_ma", InputType::Number, "mA", 1, 10000, 1, 200.0},
                               {"ground_current_ma", InputType::Number, "mA", 0, 100, 0.01, 1.0},
                               {"dropout_v", InputType::Number, "V", 0.01, 5, 0.01, 0.3},
                               {"theta_ja_c_per_w", InputType::Number, "°C/W", 1, 500, 1, 60.0},
                               {"ambient_temp_c", InputType::Number, "°C", -40, 125, 1, 25.0},
                               {"max_junction_temp_c", InputType::Number, "°C", 85, 200, 1, 125.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"power_dissipation_w", OutputType::Number, "W", 3},
                                   {"efficiency_pct", OutputType::Number, "%", 2},
                                   {"junction_temp_c", OutputType::Number, "°C", 1},
                                   {.key = "thermal_status",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"ok", "over maximum"}},
                                   {"power_dissipation_mw", OutputType::Number, "mW", 4},
                                   {"efficiency_ppm", OutputType::Number, "ppm", 1},
                                   {"junction_temp_k", OutputType::Number, "K", 1},
                               });
}

// ADI ADP3331 data sheet, eq. 9–11: 257 mW, a 42.4 °C rise, 125 °C reached at 82.6 °C.
TEST(LdoRegulator, Adp3331Example) {
  const std::string r = run_tool(tool(), body(4.2, 3, 200, 4, 0.2, 165, 82.6, 125));
  EXPECT_NEAR(field(r, "power_dissipation_w"), 0.257, 0.257 * 0.002 + 0.0005);
  EXPECT_NEAR(field(r, "junction_temp_c"), 125, 0.25);
  EXPECT_EQ(result_field(r, "thermal_status"), "ok");
  // 42.4 °C above a 25 °C ambient.
  EXPECT_NEAR(field(run_tool(tool(), body(4.2, 3, 200, 4, 0.2, 165, 25, 125)), "junction_temp_c"),
              25 + 42.4, 0.1);
}

// ADI ADP3307 data sheet: P_D = (5.5 − 3.3)·0.1 + 5.5 × 2 mA = 0.231 W.
TEST(LdoRegulator, Adp3307Example) {
  EXPECT_NEAR(
      field(run_tool(tool(), body(5.5, 3.3, 100, 2, 0.2, 165, 25, 125)), "power_dissipation_w"),
      0.231, 0.0005);
}

// TelCom TC1071 data sheet: 60 mW at 3.3 V in, 2.6865 V out, 98 mA.
TEST(LdoRegulator, Tc1071Example) {
  EXPECT_NEAR(
      field(run_tool(tool(), body(3.3, 2.6865, 98, 0, 0.1, 220, 55, 125)), "power_dissipation_w"),
      0.060, 0.0006 + 0.0005);
}

TEST(LdoRegulator, DropoutIs422) {
  EXPECT_EQ(run_tool(tool(), body(3.5, 3.3, 100, 1, 0.3, 60, 25, 125)),
            "422:vin_v:vin_v of 3.5 V is below V_out + V_DO = 3.600 V: the regulator is in "
            "dropout and the output falls out of regulation; raise vin_v or use a regulator with "
            "a lower dropout voltage");
  EXPECT_EQ(run_tool(tool(), body(3.3, 5, 100, 1, 0.3, 60, 25, 125)).rfind("422:vin_v:", 0), 0u);
  // Exactly at the dropout limit it still regulates.
  EXPECT_EQ(run_tool(tool(), body(3.5, 3, 100, 1, 0.5, 60, 25, 125)).front(), '{');
}

TEST(LdoRegulator, StatusTurnsOverTheMaximum) {
  // 1 W into 60 °C/W from 80 °C ambient: 140 °C against 125 °C.
  const std::string r = run_tool(tool(), body(6, 5, 1000, 0, 0.3, 60, 80, 125));
  EXPECT_EQ(result_field(r, "junction_temp_c"), "140.0");
  EXPECT_EQ(result_field(r, "thermal_status"), "over maximum");
  EXPECT_EQ(result_field(run_tool(tool(), body(6, 5, 1000, 0, 0.3, 60, 80, 140)), "thermal_status"),
            "ok");
}

TEST(LdoRegulator, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(118);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    double x[8];
    for (int i = 0; i < 8; ++i) x[i] = tool_test::draw_number(d.inputs[i], rng);
    const auto result = compute_body(tool(), body(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]));
    if (x[0] < x[1] + x[4]) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      continue;
    }
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double iout = x[2] / 1e3, ignd = x[3] / 1e3;
    const double p = out.number("power_dissipation_w");
    // Energy balance: input power = output power + dissipation.
    ASSERT_NEAR(x[0] * (iout + ignd), x[1] * iout + p, x[0] * (iout + ignd) * 1e-12);
    const double eta = out.number("efficiency_pct") / 100;
    ASSERT_GT(eta, 0);
    ASSERT_LT(eta, x[1] / x[0] + 1e-12);  // never better than V_out/V_in
    ASSERT_NEAR(out.number("junction_temp_c"), x[6] + p * x[5], 1e-9 * (1 + p * x[5]));
    ASSERT_EQ(out.text("thermal_status"),
              out.number("junction_temp_c") > x[7] ? "over maximum" : "ok");
  }
  EXPECT_GT(computed, 500);
}

}  // namespace
}  // namespace toolcalc::tools
