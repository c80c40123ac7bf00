// lc-resonance: descriptor, the published worked examples of docs/tools/lc-resonance.md
// (OpenStax), the lossless case, the Q limits (422), and properties over random valid inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
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
  static const catalog::Tool t = make_lc_resonance();
  return t;
}

std::string body(double l_uh, double c_nf, double r) {
  return RequestBody()
      .number("inductance_uh", l_uh)
      .number("capacitance_nf", c_nf)
      .number("series_resistance_ohm", r)
      .json();
}

catalog::Outputs outputs(const std::string& request) {
  const auto result = compute_body(tool(), request);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << request;
  return std::get<catalog::Outputs>(result);
}

TEST(LcResonance, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "lc-resonance");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"inductance_uh", InputType::Number, "µH", 0.001, 10000000, 0.001, 100.0},
             {"capacitance_nf", InputType::Number, "nF", 0.001, 1000000, 0.001, 100.0},
             {"series_resistance_ohm", InputType::Number, "Ω", 0, 1000000, 0.001, 0.0, false},
         });
  tool_test::expect_outputs(
      d, {
             {"resonant_frequency_hz", OutputType::Number, "Hz", 2},
             {"angular_frequency_rad_s", OutputType::Number, "rad/s", 1},
             {"characteristic_impedance_ohm", OutputType::Number, "Ω", 5},
             {"quality_factor", OutputType::Number, "", 4},
             {"bandwidth_hz", OutputType::Number, "Hz", 6},
             {.key = "damping",
              .type = OutputType::String,
              .unit = std::nullopt,
              .options = {"lossless", "underdamped", "critically-damped", "overdamped"}},
         });
}

// OpenStax University Physics Vol. 2, Examples 15.4 and 15.5, and College Physics 2e,
// Examples 23.10–23.13 (reactances of 3.00 mH and 5.00 µF), each at its printed precision.
TEST(LcResonance, PublishedWorkedExamples) {
  const auto power = outputs(body(4000, 2000, 0.2));
  EXPECT_NEAR(power.number("angular_frequency_rad_s"), 1.12e4, 0.005e4);
  EXPECT_NEAR(power.number("quality_factor"), 224, 0.5);
  // Δω = ω0/Q = 50.0 rad/s, i.e. 50.0/(2π) Hz.
  EXPECT_NEAR(power.number("bandwidth_hz") * 2 * std::numbers::pi, 50.0, 0.05);
  EXPECT_EQ(power.text("damping"), "underdamped");

  const auto college = outputs(body(3000, 5000, 40));
  EXPECT_NEAR(college.number("resonant_frequency_hz"), 1300, 5);
  // At resonance X_L = X_C = √(L/C); College Physics gives X_L = 1.13 Ω at 60 Hz and
  // X_C = 3.18 Ω at 10 kHz, which scale to √(1.13 · 3.18 · 10⁴/60) = 24.5 Ω at f0.
  EXPECT_NEAR(college.number("characteristic_impedance_ohm"), 24.5, 0.1);

  const auto university = outputs(body(3000, 800000, 4));
  EXPECT_NEAR(university.number("resonant_frequency_hz"), 103, 0.5);
}

// Hand check of the defaults: 100 µH and 100 nF: ω0 = 1/√(1e-11) = 316227.8 rad/s,
// f0 = 50329.21 Hz, √(L/C) = √1000 = 31.62278 Ω; lossless.
TEST(LcResonance, HandCheckedLosslessDefaults) {
  EXPECT_EQ(
      run_tool(tool(),
               RequestBody().number("inductance_uh", 100).number("capacitance_nf", 100).json()),
      expected_result(tool(),
                      {"50329.21", "316227.8", "31.62278", "0.0000", "0.000000", "lossless"}));
}

TEST(LcResonance, DampingFollowsQ) {
  // √(L/C) = 31.62 Ω: R below 2·√(L/C) rings, above it does not.
  EXPECT_EQ(outputs(body(100, 100, 60)).text("damping"), "underdamped");
  EXPECT_EQ(outputs(body(100, 100, 70)).text("damping"), "overdamped");
  // L = 4 µH, C = 1 nF: √(L/C) = 63.245… Ω; 2·√(L/C) is not a decimal, so take L/C = 2500
  // exactly (L = 2.5 µH, C = 1 nF): √(L/C) = 50 Ω, critical at R = 100 Ω.
  EXPECT_EQ(outputs(body(2.5, 1, 100)).text("damping"), "critically-damped");
}

TEST(LcResonance, QOutsideItsRangeIs422) {
  EXPECT_EQ(run_tool(tool(), body(100, 100, 5000)),
            "422:series_resistance_ohm:Q = √(L/C)/R would be 0.006325, below 0.01: the "
            "resistance swamps both reactances and the circuit no longer resonates; lower "
            "series_resistance_ohm");
  EXPECT_EQ(run_tool(tool(), body(100, 100, 0.001)),
            "422:series_resistance_ohm:Q = √(L/C)/R would be 31622.8, above 10000, beyond the "
            "losses of real inductors and capacitors; enter their ESR as series_resistance_ohm "
            "(or 0 for an ideal circuit)");
}

TEST(LcResonance, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1887);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double l = tool_test::draw_number(d.inputs[0], rng);
    const double c = tool_test::draw_number(d.inputs[1], rng);
    const auto lossless = outputs(body(l, c, 0));
    const double f0 = lossless.number("resonant_frequency_hz");
    const double z0 = lossless.number("characteristic_impedance_ohm");
    // At f0 the reactances are equal, and both equal √(L/C).
    const double xl = 2 * std::numbers::pi * f0 * l * 1e-6;
    const double xc = 1 / (2 * std::numbers::pi * f0 * c * 1e-9);
    ASSERT_NEAR(xl, z0, 1e-9 * z0);
    ASSERT_NEAR(xc, z0, 1e-9 * z0);
    ASSERT_EQ(lossless.number("quality_factor"), 0);
    ASSERT_EQ(lossless.number("bandwidth_hz"), 0);
    // With a resistance giving Q = 10: bandwidth = f0/Q.
    const auto lossy = outputs(body(l, c, z0 / 10));
    ASSERT_NEAR(lossy.number("quality_factor"), 10, 1e-9);
    ASSERT_NEAR(lossy.number("bandwidth_hz"), f0 / 10, 1e-9 * f0);
    ASSERT_EQ(lossy.number("resonant_frequency_hz"), f0);  // R does not move f0
  }
}

}  // namespace
}  // namespace toolcalc::tools
