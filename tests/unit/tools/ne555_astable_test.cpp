// ne555-astable: descriptor, the published worked examples of docs/tools/ne555-astable.md
// (expected numbers as their sources print them), a hand-checked row, and properties over
// random valid inputs. The tool has no 422 condition.
#include <gtest/gtest.h>

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
  static const catalog::Tool t = make_ne555_astable();
  return t;
}

std::string body(double r1, double r2, double c_uf) {
  return RequestBody()
      .number("r1_ohm", r1)
      .number("r2_ohm", r2)
      .number("capacitance_uf", c_uf)
      .json();
}

catalog::Outputs outputs(const std::string& request) {
  const auto result = compute_body(tool(), request);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result));
  return std::get<catalog::Outputs>(result);
}

TEST(Ne555Astable, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "ne555-astable");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d,
                           {
                               {"r1_ohm", InputType::Number, "Ω", 1000, 10000000, 1, 10000.0},
                               {"r2_ohm", InputType::Number, "Ω", 1000, 10000000, 1, 10000.0},
                               {"capacitance_uf", InputType::Number, "µF", 0.001, 100, 0.001, 1.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"frequency_hz", OutputType::Number, "Hz", 6},
                                   {"period_ms", OutputType::Number, "ms", 6},
                                   {"high_time_ms", OutputType::Number, "ms", 6},
                                   {"low_time_ms", OutputType::Number, "ms", 6},
                                   {"duty_cycle_pct", OutputType::Number, "%", 3},
                               });
}

struct Published {
  const char* name;
  std::string body;
  double frequency_hz, period_ms, high_ms, low_ms, duty_pct;
  double tolerance;  // relative: the sources use ln 2 = 0.693147, the data sheet 0.693
};

// The Circflow calculator's worked answers (docs page, "Verification vectors").
TEST(Ne555Astable, PublishedWorkedAnswers) {
  const std::vector<Published> rows = {
      {"10k, 10k, 1 µF", body(10000, 10000, 1), 48.09, 20.794, 13.863, 6.931, 66.7, 1e-3},
      {"1k, 10k, 100 nF", body(1000, 10000, 0.1), 686.998, 1.456, 0.762462, 0.693147, 52.4, 1e-3},
      {"10k, 68k, 10 µF", body(10000, 68000, 10), 0.988, 1012, 540.655, 471.34, 53.4, 1e-3},
      {"4k7, 4k7, 100 nF", body(4700, 4700, 0.1), 1023, 0.977338, 0.651558, 0.325779, 66.7, 1e-3},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    const auto out = outputs(row.body);
    EXPECT_NEAR(out.number("frequency_hz"), row.frequency_hz, row.frequency_hz * row.tolerance);
    EXPECT_NEAR(out.number("period_ms"), row.period_ms, row.period_ms * row.tolerance);
    EXPECT_NEAR(out.number("high_time_ms"), row.high_ms, row.high_ms * row.tolerance);
    EXPECT_NEAR(out.number("low_time_ms"), row.low_ms, row.low_ms * row.tolerance);
    EXPECT_NEAR(out.number("duty_cycle_pct"), row.duty_pct, 0.05);  // printed to 0.1 %
  }
}

// Hand check with the data sheet's 0.693: R1 = 1 kΩ, R2 = 10 kΩ, C = 100 nF gives
// t_H = 0.693 · 11000 · 1e-7 = 0.7623 ms, t_L = 0.693 ms, T = 1.4553 ms, f = 687.14 Hz,
// duty = 11000/21000 = 52.381 %.
TEST(Ne555Astable, HandCheckedRow) {
  EXPECT_EQ(run_tool(tool(), body(1000, 10000, 0.1)),
            expected_result(tool(), {"687.143544", "1.455300", "0.762300", "0.693000", "52.381"}));
}

TEST(Ne555Astable, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(999, 10000, 1)), "400:r1_ohm:r1_ohm must be at least 1000");
  EXPECT_EQ(run_tool(tool(), body(1000, 10000, 101)),
            "400:capacitance_uf:capacitance_uf must be at most 100");
}

TEST(Ne555Astable, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(555);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 2000; ++draw) {
    const double r1 = tool_test::draw_number(d.inputs[0], rng);
    const double r2 = tool_test::draw_number(d.inputs[1], rng);
    const double c = tool_test::draw_number(d.inputs[2], rng);
    const auto out = outputs(body(r1, r2, c));
    const double high = out.number("high_time_ms"), low = out.number("low_time_ms");
    const double period = out.number("period_ms"), duty = out.number("duty_cycle_pct");
    // The high time always exceeds the low time (the capacitor charges through R1 + R2 and
    // discharges through R2 alone), so the duty cycle lies strictly between 50 and 100 %.
    ASSERT_GT(high, low);
    ASSERT_GT(duty, 50);
    ASSERT_LT(duty, 100);
    ASSERT_NEAR(period, high + low, period * 1e-12);
    ASSERT_NEAR(out.number("frequency_hz") * period, 1000, 1e-9);
    ASSERT_NEAR(duty, 100 * high / period, 1e-9);
    // The period is proportional to C: doubling C (within bounds) doubles it.
    if (2 * c <= 100) {
      const auto doubled = outputs(body(r1, r2, 2 * c));
      ASSERT_NEAR(doubled.number("period_ms"), 2 * period, period * 1e-12);
      ASSERT_NEAR(doubled.number("duty_cycle_pct"), duty, 1e-9);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
