// rc-filter: the descriptor table, the worked examples of docs/tools/rc-filter.md (expected
// texts copied from that page), the small results that used to print as zero, and properties
// over random valid inputs. The tool has no 422 condition.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <utility>
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
  static const catalog::Tool t = make_rc_filter();
  return t;
}

std::string body(double r, double c_nf, const char* type, double f) {
  return RequestBody()
      .number("resistance_ohm", r)
      .number("capacitance_nf", c_nf)
      .text("filter_type", type)
      .number("frequency_hz", f)
      .json();
}

TEST(RcFilter, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "rc-filter");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.1.0");
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_NE(d.references[0].find("Art of Electronics"), std::string::npos);
  tool_test::expect_inputs(
      d, {
             {"resistance_ohm", InputType::Number, "Ω", 1, 10000000, 1, 1000.0},
             {"capacitance_nf", InputType::Number, "nF", 0.001, 1000000, 0.001, 100.0},
             {.key = "filter_type",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("low-pass"),
              .options = {"low-pass", "high-pass"}},
             {"frequency_hz", InputType::Number, "Hz", 0.001, 1e9, 1, 10000.0},
         });
  tool_test::expect_outputs(d, {
                                   {"cutoff_hz", OutputType::Number, "Hz", 4},
                                   {"cutoff_uhz", OutputType::Number, "µHz", 1},
                                   {"time_constant_us", OutputType::Number, "µs", 4},
                                   {"time_constant_ps", OutputType::Number, "ps", 2},
                                   {"frequency_ratio", OutputType::Number, "", 4},
                                   {"inverse_frequency_ratio", OutputType::Number, "", 4},
                                   {"gain_db", OutputType::Number, "dB", 2},
                                   {"gain_ratio", OutputType::Number, "", 4},
                                   {"phase_deg", OutputType::Number, "°", 2},
                               });
  // Where each output hands its small values on (docs/tools/rc-filter.md, "Outputs").
  const std::vector<std::pair<std::string, std::string>> finer = {
      {"cutoff_hz", "cutoff_uhz"},
      {"cutoff_uhz", ""},
      {"time_constant_us", "time_constant_ps"},
      {"time_constant_ps", ""},
      {"frequency_ratio", "inverse_frequency_ratio"},
      {"inverse_frequency_ratio", "frequency_ratio"},
      {"gain_db", "gain_ratio"},
      {"gain_ratio", "gain_db"},
      {"phase_deg", "frequency_ratio"},
  };
  for (size_t i = 0; i < finer.size(); ++i) {
    EXPECT_EQ(d.outputs[i].key, finer[i].first);
    EXPECT_EQ(d.outputs[i].small_values_in, finer[i].second) << finer[i].first;
  }
}

struct WorkedExample {
  const char* name;
  std::string body;
  // f_c Hz, f_c µHz, τ µs, τ ps, f/f_c, f_c/f, gain dB, |H|, phase
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/rc-filter.md, row by row.
TEST(RcFilter, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 1 kΩ, 100 nF low-pass at 10 kHz",
       body(1000, 100, "low-pass", 10000),
       {"1591.5494", "1591549430.9", "100.0000", "100000000.00", "6.2832", "0.1592", "-16.07",
        "0.1572", "-80.96"}},
      {"2 every number at its minimum, low-pass",
       body(1, 0.001, "low-pass", 0.001),
       {"159154943091.8953", "159154943091895300.0", "0.0000", "1.00", "0.0000",
        "159154943091895.2800", "0.00", "1.0000", "0.00"}},
      {"3 every number at its minimum, high-pass",
       body(1, 0.001, "high-pass", 0.001),
       {"159154943091.8953", "159154943091895300.0", "0.0000", "1.00", "0.0000",
        "159154943091895.2800", "-284.04", "0.0000", "90.00"}},
      {"4 every number at its maximum, low-pass",
       body(10000000, 1000000, "low-pass", 1e9),
       {"0.0000", "15.9", "10000000000.0000", "10000000000000000.00", "62831853071795.8700",
        "0.0000", "-275.96", "0.0000", "-90.00"}},
      {"5 every number at its maximum, high-pass",
       body(10000000, 1000000, "high-pass", 1e9),
       {"0.0000", "15.9", "10000000000.0000", "10000000000000000.00", "62831853071795.8700",
        "0.0000", "0.00", "1.0000", "0.00"}},
      {"6 at the cut-off, low-pass",
       body(1000, 100, "low-pass", 1591.549430918953),
       {"1591.5494", "1591549430.9", "100.0000", "100000000.00", "1.0000", "1.0000", "-3.01",
        "0.7071", "-45.00"}},
      {"7 at the cut-off, high-pass",
       body(1000, 100, "high-pass", 1591.549430918953),
       {"1591.5494", "1591549430.9", "100.0000", "100000000.00", "1.0000", "1.0000", "-3.01",
        "0.7071", "45.00"}},
      {"8 a decade below the cut-off, low-pass",
       body(1000, 100, "low-pass", 159.1549430918953),
       {"1591.5494", "1591549430.9", "100.0000", "100000000.00", "0.1000", "10.0000", "-0.04",
        "0.9950", "-5.71"}},
      {"9 a decade below the cut-off, high-pass",
       body(1000, 100, "high-pass", 159.1549430918953),
       {"1591.5494", "1591549430.9", "100.0000", "100000000.00", "0.1000", "10.0000", "-20.04",
        "0.0995", "84.29"}},
      {"10 a decade above the cut-off, high-pass",
       body(1000, 100, "high-pass", 15915.49430918953),
       {"1591.5494", "1591549430.9", "100.0000", "100000000.00", "10.0000", "0.1000", "-0.04",
        "0.9950", "5.71"}},
      {"11 audio coupling: 10 kΩ, 1 µF high-pass at 20 Hz",
       body(10000, 1000, "high-pass", 20),
       {"15.9155", "15915494.3", "10000.0000", "10000000000.00", "1.2566", "0.7958", "-2.13",
        "0.7825", "38.51"}},
      {"12 ADC anti-alias: 100 Ω, 10 nF low-pass at 1 MHz",
       body(100, 10, "low-pass", 1000000),
       {"159154.9431", "159154943091.9", "1.0000", "1000000.00", "6.2832", "0.1592", "-16.07",
        "0.1572", "-80.96"}},
      {"13 mains hum: 10 kΩ, 1 µF low-pass at 50 Hz",
       body(10000, 1000, "low-pass", 50),
       {"15.9155", "15915494.3", "10000.0000", "10000000000.00", "3.1416", "0.3183", "-10.36",
        "0.3033", "-72.34"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

// The two results the independent check found printed as zero: a 15.9 µHz cut-off and a
// 47 ps time constant. Each is now carried, with three significant digits, by the output its
// coarse one names.
TEST(RcFilter, SmallCutoffAndTimeConstantKeepTheirDigits) {
  const std::string slow = run_tool(tool(), body(10000000, 1000000, "low-pass", 0.001));
  EXPECT_EQ(tool_test::result_field(slow, "cutoff_hz"), "0.0000");
  EXPECT_EQ(tool_test::result_field(slow, "cutoff_uhz"), "15.9");  // 1/(2π·10⁴ s)
  const std::string fast = run_tool(tool(), body(47, 0.001, "low-pass", 1000000));
  EXPECT_EQ(tool_test::result_field(fast, "time_constant_us"), "0.0000");
  EXPECT_EQ(tool_test::result_field(fast, "time_constant_ps"), "47.00");  // 47 Ω · 1 pF
  // Deep in the passband the phase rounds to 0.02°; f_c/f gives it: 1/3386.2754 rad.
  EXPECT_EQ(tool_test::result_field(fast, "phase_deg"), "-0.02");
  EXPECT_EQ(tool_test::result_field(fast, "inverse_frequency_ratio"), "3386.2754");
}

TEST(RcFilter, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(1000, 100, "low-pass", 0)),
            "400:frequency_hz:frequency_hz must be at least 0.001");
  EXPECT_EQ(run_tool(tool(), body(1000, 100, "band-pass", 1000)),
            "400:filter_type:filter_type must be one of: low-pass, high-pass");
  EXPECT_EQ(run_tool(tool(), body(0.5, 100, "low-pass", 1000)),
            "400:resistance_ohm:resistance_ohm must be at least 1");
}

TEST(RcFilter, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1970);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 2500; ++draw) {
    const double r = tool_test::draw_number(d.inputs[0], rng);
    const double c = tool_test::draw_number(d.inputs[1], rng);
    const double f = tool_test::draw_number(d.inputs[3], rng);
    const auto lp_result = compute_body(tool(), body(r, c, "low-pass", f));
    const auto hp_result = compute_body(tool(), body(r, c, "high-pass", f));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(lp_result));  // never a 422
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(hp_result));
    const auto& lp = std::get<catalog::Outputs>(lp_result);
    const auto& hp = std::get<catalog::Outputs>(hp_result);
    for (const auto& o : d.outputs) {
      ASSERT_TRUE(std::isfinite(lp.number(o.key))) << o.key;
      ASSERT_TRUE(std::isfinite(hp.number(o.key))) << o.key;
    }
    // The companions are the same quantities in other units.
    ASSERT_NEAR(lp.number("cutoff_uhz"), lp.number("cutoff_hz") * 1e6,
                1e-12 * lp.number("cutoff_uhz"));
    ASSERT_NEAR(lp.number("time_constant_ps"), lp.number("time_constant_us") * 1e6,
                1e-12 * lp.number("time_constant_ps"));
    ASSERT_NEAR(lp.number("frequency_ratio") * lp.number("inverse_frequency_ratio"), 1, 1e-12);
    // f_c·τ = 1/(2π) whatever R and C.
    ASSERT_NEAR(lp.number("cutoff_hz") * lp.number("time_constant_us") * 1e-6,
                1 / (2 * std::numbers::pi), 1e-12);
    // A passive filter never amplifies; the two halves are complementary in power
    // (|H_lp|² + |H_hp|² = 1) and in phase (they differ by exactly 90°).
    const double g_lp = lp.number("gain_ratio"), g_hp = hp.number("gain_ratio");
    ASSERT_LE(g_lp, 1);
    ASSERT_LE(g_hp, 1);
    ASSERT_LE(lp.number("gain_db"), 0);
    ASSERT_LE(hp.number("gain_db"), 0);
    ASSERT_NEAR(g_lp * g_lp + g_hp * g_hp, 1, 1e-12);
    ASSERT_NEAR(hp.number("phase_deg") - lp.number("phase_deg"), 90, 1e-9);
    ASSERT_NEAR(lp.number("gain_db"), 20 * std::log10(g_lp), 1e-9 * (1 - lp.number("gain_db")));
    // Moving the frequency up attenuates a low-pass more and a high-pass less.
    const double higher = f * 2;
    if (higher <= 1e9) {
      const auto lp2 =
          std::get<catalog::Outputs>(compute_body(tool(), body(r, c, "low-pass", higher)));
      const auto hp2 =
          std::get<catalog::Outputs>(compute_body(tool(), body(r, c, "high-pass", higher)));
      ASSERT_LE(lp2.number("gain_db"), lp.number("gain_db"));
      ASSERT_GE(hp2.number("gain_db"), hp.number("gain_db"));
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
