// op-amp-gain: descriptor, the published worked examples of docs/tools/op-amp-gain.md,
// saturation at the swing limits, every 422, and properties over random valid inputs.
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
  static const catalog::Tool t = make_op_amp_gain();
  return t;
}

struct Amp {
  const char* configuration = "non-inverting";
  double rf = 10000, rg = 1000, vin = 0.1, vpos = 15, vneg = -15, headroom = 0, rin_mohm = 1000000;
  std::string json() const {
    return RequestBody()
        .text("configuration", configuration)
        .number("rf_ohm", rf)
        .number("rg_ohm", rg)
        .number("vin_v", vin)
        .number("supply_pos_v", vpos)
        .number("supply_neg_v", vneg)
        .number("swing_headroom_v", headroom)
        .number("opamp_input_resistance_mohm", rin_mohm)
        .json();
  }
};

catalog::Outputs outputs(const Amp& amp) {
  const auto result = compute_body(tool(), amp.json());
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result));
  return std::get<catalog::Outputs>(result);
}

TEST(OpAmpGain, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "op-amp-gain");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "configuration",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("non-inverting"),
              .options = {"inverting", "non-inverting"}},
             {"rf_ohm", InputType::Number, "Ω", 0, 10000000, 1, 10000.0},
             {"rg_ohm", InputType::Number, "Ω", 10, 10000000, 1, 1000.0},
             {"vin_v", InputType::Number, "V", -1000, 1000, 0.001, 0.1},
             {"supply_pos_v", InputType::Number, "V", 0.5, 1000, 0.1, 15.0},
             {"supply_neg_v", InputType::Number, "V", -1000, 0, 0.1, -15.0},
             {"swing_headroom_v", InputType::Number, "V", 0, 10, 0.01, 0.0, false},
             {"opamp_input_resistance_mohm", InputType::Number, "MΩ", 0.1, 10000000, 0.1, 1000000.0,
              false},
         });
  tool_test::expect_outputs(d, {
                                   {"gain_vv", OutputType::Number, "V/V", 4},
                                   {"gain_db", OutputType::Number, "dB", 2},
                                   {"vout_v", OutputType::Number, "V", 4},
                                   {"vout_uv", OutputType::Number, "µV", 4},
                                   {.key = "output_state",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"linear", "saturated-high", "saturated-low"}},
                                   {"input_impedance_kohm", OutputType::Number, "kΩ", 4},
                               });
}

// TI TL08x/TS321 inverting application (RI = 10 kΩ, RF = 36 kΩ, ±0.5 V → ±1.8 V on ±12 V),
// MathWorks' non-inverting example (1 kΩ, 10 kΩ: 0.1 V → 1.1 V), JuliaHub's inverting
// example (10 kΩ, 20 kΩ: gain −2) with TI SBOA270's ±7 V → ∓14 V on ±15 V.
TEST(OpAmpGain, PublishedWorkedExamples) {
  Amp ti{
      .configuration = "inverting", .rf = 36000, .rg = 10000, .vin = 0.5, .vpos = 12, .vneg = -12};
  EXPECT_EQ(run_tool(tool(), ti.json()),
            expected_result(tool(),
                            {"-3.6000", "11.13", "-1.8000", "-1800000.0000", "linear", "10.0000"}));
  ti.vin = -0.5;
  EXPECT_NEAR(outputs(ti).number("vout_v"), 1.8, 1e-12);

  const Amp mathworks{.rf = 10000, .rg = 1000, .vin = 0.1};
  EXPECT_NEAR(outputs(mathworks).number("vout_v"), 1.1, 1e-12);
  EXPECT_NEAR(outputs(mathworks).number("gain_vv"), 11, 1e-12);

  const Amp julia{.configuration = "inverting", .rf = 20000, .rg = 10000, .vin = 7};
  EXPECT_EQ(outputs(julia).number("gain_vv"), -2);
  EXPECT_EQ(outputs(julia).number("vout_v"), -14);
  EXPECT_EQ(outputs(julia).text("output_state"), "linear");
}

TEST(OpAmpGain, OutputClipsAtTheSwingLimits) {
  // Gain 11 on ±15 V with 1.5 V headroom: 2 V in would be 22 V, clipped at 13.5 V.
  Amp amp{.rf = 10000, .rg = 1000, .vin = 2, .headroom = 1.5};
  EXPECT_EQ(run_tool(tool(), amp.json()),
            expected_result(tool(), {"11.0000", "20.83", "13.5000", "13500000.0000",
                                     "saturated-high", "1000000000.0000"}));
  amp.vin = -2;
  EXPECT_EQ(outputs(amp).number("vout_v"), -13.5);
  EXPECT_EQ(outputs(amp).text("output_state"), "saturated-low");
  // A single 5 V supply: an inverting stage with a positive input can only go to 0 V.
  const Amp single{.configuration = "inverting", .vin = 0.1, .vpos = 5, .vneg = 0};
  EXPECT_EQ(outputs(single).number("vout_v"), 0);
  EXPECT_EQ(outputs(single).text("output_state"), "saturated-low");
  // A voltage follower (Rf = 0) has unity gain, 0 dB.
  const Amp follower{.rf = 0, .vin = 2.5};
  EXPECT_EQ(outputs(follower).number("gain_vv"), 1);
  EXPECT_EQ(outputs(follower).number("gain_db"), 0);
  EXPECT_EQ(outputs(follower).number("vout_v"), 2.5);
}

TEST(OpAmpGain, ImpossibleCombinationsAre422) {
  EXPECT_EQ(run_tool(tool(), Amp{.rf = 2000000, .rg = 1000}.json()),
            "422:rf_ohm:Rf/Rg = 2000.0 is above 1000: at such gains an op amp's finite "
            "open-loop gain (about 100 dB) makes the ideal formula wrong by more than 1 %; lower "
            "rf_ohm or split the gain over two stages");
  EXPECT_EQ(run_tool(tool(), Amp{.configuration = "inverting", .rf = 5, .rg = 1000}.json()),
            "422:rf_ohm:Rf/Rg = 0.005000 gives an inverting gain below 0.01 V/V (−40 dB), an "
            "attenuation the op amp's offset and noise would swamp; raise rf_ohm to at least "
            "Rg/100 or attenuate with a divider");
  EXPECT_EQ(run_tool(tool(), Amp{.vpos = 5, .vneg = 0, .headroom = 2.5}.json()),
            "422:swing_headroom_v:a headroom of 2.5 V from each rail leaves no output swing "
            "between 0 V and 5 V; lower swing_headroom_v or widen the supplies");
  EXPECT_EQ(run_tool(tool(), Amp{.vin = 20}.json()),
            "422:vin_v:a non-inverting stage takes V_in on its + input, which must stay between "
            "the rails -15 V and 15 V; 20 V is outside them");
  // The same input through an inverting stage's resistor is fine.
  EXPECT_EQ(outputs(Amp{.configuration = "inverting", .rf = 1000, .rg = 10000, .vin = 20})
                .number("vout_v"),
            -2);
}

TEST(OpAmpGain, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(741);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    Amp amp;
    amp.configuration = draw % 2 ? "inverting" : "non-inverting";
    amp.rf = tool_test::draw_number(d.inputs[1], rng);
    amp.rg = tool_test::draw_number(d.inputs[2], rng);
    amp.vin = tool_test::draw_number(d.inputs[3], rng) / 100;
    amp.vpos = tool_test::draw_number(d.inputs[4], rng);
    amp.vneg = -tool_test::draw_number(d.inputs[4], rng);
    const auto result = compute_body(tool(), amp.json());
    if (std::holds_alternative<catalog::ToolError>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double gain = out.number("gain_vv"), vout = out.number("vout_v");
    const bool inverting = draw % 2;
    ASSERT_NEAR(gain, inverting ? -amp.rf / amp.rg : 1 + amp.rf / amp.rg, 1e-12 * std::fabs(gain));
    ASSERT_NEAR(out.number("gain_db"), 20 * std::log10(std::fabs(gain)), 1e-9);
    // The output never leaves the rails; when linear it is exactly G·V_in.
    ASSERT_LE(vout, amp.vpos);
    ASSERT_GE(vout, amp.vneg);
    const std::string state = out.text("output_state");
    if (state == "linear") {
      ASSERT_NEAR(vout, gain * amp.vin, 1e-12 * std::fabs(gain * amp.vin) + 1e-15);
    } else if (state == "saturated-high") {
      ASSERT_GT(gain * amp.vin, vout);
      ASSERT_EQ(vout, amp.vpos);
    } else {
      ASSERT_LT(gain * amp.vin, vout);
      ASSERT_EQ(vout, amp.vneg);
    }
    ASSERT_NEAR(out.number("vout_uv"), vout * 1e6, 1e-6 * std::fabs(vout) + 1e-9);
    // A non-inverting stage never attenuates; an inverting one inverts.
    if (inverting) {
      ASSERT_LT(gain, 0);
    } else {
      ASSERT_GE(gain, 1);
    }
  }
  EXPECT_GT(computed, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
