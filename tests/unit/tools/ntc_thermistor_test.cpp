// ntc-thermistor: descriptor table, published R/T tables (besides the verification vectors,
// which all_tools_test.cpp checks), properties over random valid inputs, and the 422 cases.
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
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_ntc_thermistor();
  return t;
}

// Amphenol Thermometrics, "Sensor Temperature Resistance Curves Reference Guide", Rev. C,
// Nov. 2014, Material Type 1: the coefficients of 1/T = a + b·ln(R/R25) + c·ln² + d·ln³.
constexpr double kA = 3.3539438e-3, kB = 2.5646095e-4, kC = 2.5158166e-6, kD = 1.0503069e-7;

std::string beta(double r0, double b, double t_c, double r, double t0 = 25) {
  return RequestBody()
      .text("model", "beta")
      .number("r0_ohm", r0)
      .number("t0_c", t0)
      .number("beta_k", b)
      .number("temperature_c", t_c)
      .number("resistance_ohm", r)
      .json();
}

std::string steinhart(double t_c, double r, double a = kA, double b = kB, double c = kC,
                      double d = kD, double r0 = 10000) {
  return RequestBody()
      .text("model", "steinhart-hart")
      .number("r0_ohm", r0)
      .number("sh_a", a)
      .number("sh_b", b)
      .number("sh_c", c)
      .number("sh_d", d)
      .number("temperature_c", t_c)
      .number("resistance_ohm", r)
      .json();
}

catalog::Outputs outputs(const std::string& body) {
  const auto result = compute_body(tool(), body);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << body;
  return std::get<catalog::Outputs>(result);
}

TEST(NtcThermistor, DescriptorTable) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "ntc-thermistor");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.1");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "model",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("beta"),
              .options = {"beta", "steinhart-hart"}},
             {"r0_ohm", InputType::Number, "Ω", 1, 10000000, 1, 10000.0},
             {"t0_c", InputType::Number, "°C", -80, 300, 0.1, 25.0, false},
             {"beta_k", InputType::Number, "K", 500, 10000, 1, 3977.0, false},
             {"sh_a", InputType::Number, "1/K", 1e-4, 1e-2, 1e-9, 3.3539438e-3, false},
             {"sh_b", InputType::Number, "1/K", 1e-5, 2e-3, 1e-10, 2.5646095e-4, false},
             {"sh_c", InputType::Number, "1/K", -1e-5, 1e-5, 1e-11, 2.5158166e-6, false},
             {"sh_d", InputType::Number, "1/K", -1e-6, 1e-6, 1e-12, 1.0503069e-7, false},
             {"temperature_c", InputType::Number, "°C", -80, 300, 0.1, 25.0},
             {"resistance_ohm", InputType::Number, "Ω", 0.001, 1e12, 1, 10000.0},
         });
  tool_test::expect_outputs(d, {
                                   {"r_at_t_ohm", OutputType::Number, "Ω", 2},
                                   {"r_at_t_mohm", OutputType::Number, "mΩ", 3},
                                   {"alpha_pct_per_k", OutputType::Number, "%/K", 4},
                                   {"t_at_r_c", OutputType::Number, "°C", 2},
                                   {"t_at_r_k", OutputType::Number, "K", 2},
                               });
}

// Amphenol Material Type 1, R_T/R25 as printed, against the Steinhart–Hart coefficients the
// same page gives for it ("Rt/R25 range 0.01644 to 33.36"): temperatures within 0.02 °C.
TEST(NtcThermistor, AmphenolTableWithItsSteinhartHartCoefficients) {
  struct Row {
    double t_c, ratio;
  };
  const Row rows[] = {{-40, 33.36}, {-20, 9.681},  {0, 3.264},     {10, 1.990},
                      {25, 1.0000}, {40, 0.5325},  {50, 0.3601},   {70, 0.1751},
                      {85, 0.1070}, {90, 0.09155}, {100, 0.06781}, {125, 0.03403}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.t_c);
    const auto out = outputs(steinhart(row.t_c, 10000 * row.ratio));
    EXPECT_NEAR(out.number("t_at_r_c"), row.t_c, 0.02);
    EXPECT_NEAR(out.number("r_at_t_ohm"), 10000 * row.ratio, 0.001 * 10000 * row.ratio);
  }
  // The table's temperature coefficient column: −4.39 %/°C at 25 °C, −3.80 at 50 °C,
  // −5.10 at 0 °C.
  EXPECT_NEAR(outputs(steinhart(50, 3601)).number("alpha_pct_per_k"), -3.80, 0.01);
  EXPECT_NEAR(outputs(steinhart(0, 32640)).number("alpha_pct_per_k"), -5.10, 0.01);
}

// The B value of a temperature pair reproduces the table at both ends of the pair, and only
// there: Amphenol's "Ratio / Beta" rows (0 to 50 °C: 3892, 25 to 50 °C: 3937).
TEST(NtcThermistor, BetaValuesReproduceTheirTemperaturePair) {
  EXPECT_NEAR(outputs(beta(10000, 3937, 50, 3601)).number("r_at_t_ohm"), 3601, 0.001 * 3601);
  // B0/50 with R0 at 0 °C: 50 °C from 0 °C.
  EXPECT_NEAR(outputs(beta(32640, 3892, 50, 3601, 0)).number("r_at_t_ohm"), 3601, 0.002 * 3601);
  // Away from the pair, the B equation drifts: B25/85 at 0 °C is about 4 % off the table.
  const double r0c = outputs(beta(10000, 3977, 0, 10000)).number("r_at_t_ohm");
  EXPECT_GT(std::fabs(r0c / 32640 - 1), 0.02);
}

TEST(NtcThermistor, RoundTripsAndMonotonicityOverRandomInputs) {
  std::mt19937 rng(1968);
  std::uniform_real_distribution<double> temp(-55, 150), unit(0, 1);
  for (int i = 0; i < 3000; ++i) {
    const double t = temp(rng);
    const bool sh = i % 2 == 1;
    const double r0 = std::pow(10.0, 1 + 5 * unit(rng));
    const double b = 2500 + 2500 * unit(rng);
    const std::string first = sh ? steinhart(t, r0, kA, kB, kC, kD, r0) : beta(r0, b, t, r0);
    const auto there = outputs(first);
    const double r = there.number("r_at_t_ohm");
    const auto back = outputs(sh ? steinhart(t, r, kA, kB, kC, kD, r0) : beta(r0, b, t, r));
    ASSERT_NEAR(back.number("t_at_r_c"), t, 1e-6) << first;
    ASSERT_NEAR(back.number("t_at_r_k"), t + 273.15, 1e-6);
    ASSERT_LT(there.number("alpha_pct_per_k"), 0);  // negative temperature coefficient
    // Warmer means lower resistance.
    const auto warmer =
        outputs(sh ? steinhart(t + 1, r0, kA, kB, kC, kD, r0) : beta(r0, b, t + 1, r0));
    ASSERT_LT(warmer.number("r_at_t_ohm"), r);
    if (!sh) {
      // The B equation's coefficient is −B/T².
      ASSERT_NEAR(there.number("alpha_pct_per_k"), -100 * b / ((t + 273.15) * (t + 273.15)), 1e-9);
    }
  }
}

TEST(NtcThermistor, BetaIsSteinhartHartWithoutHigherTerms) {
  // 1/T = 1/T0 + ln(R/R0)/B is Steinhart–Hart with a = 1/T0, b = 1/B, c = d = 0.
  const auto b = outputs(beta(10000, 3950, 60, 2500));
  const auto s = outputs(steinhart(60, 2500, 1 / 298.15, 1 / 3950.0, 0, 0));
  EXPECT_NEAR(b.number("r_at_t_ohm"), s.number("r_at_t_ohm"), 1e-6 * b.number("r_at_t_ohm"));
  EXPECT_NEAR(b.number("t_at_r_c"), s.number("t_at_r_c"), 1e-9);
  EXPECT_NEAR(b.number("alpha_pct_per_k"), s.number("alpha_pct_per_k"), 1e-9);
}

TEST(NtcThermistor, ImpossibleCombinationsAreRefused) {
  // 1 Ω on a 10 kΩ, B 3977 part is far above 300 °C.
  EXPECT_EQ(run_tool(tool(), beta(10000, 3977, 25, 1)).rfind("422:resistance_ohm:", 0), 0u);
  // A tiny R0 with a high B at 300 °C falls below 1 mΩ.
  EXPECT_EQ(run_tool(tool(), beta(1, 10000, 300, 1, -80)).rfind("422:temperature_c:", 0), 0u);
  // A negative C: the slope 1e-5 − 2e-5·x turns negative above x = 0.5 (R > 16.5 kΩ), so
  // 1/T falls as R rises there and the curve never reaches 25 °C.
  EXPECT_EQ(run_tool(tool(), steinhart(25, 10000, 3.35e-3, 1e-5, -1e-5, 0)).rfind("422:sh_b:", 0),
            0u);
}

}  // namespace
}  // namespace toolcalc::tools
