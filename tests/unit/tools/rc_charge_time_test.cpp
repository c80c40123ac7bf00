// rc-charge-time: descriptor, the published worked examples of docs/tools/rc-charge-time.md
// (OpenStax), every 422, and properties over random valid inputs (the time to a target and
// the voltage after a time are inverses of each other).
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
  static const catalog::Tool t = make_rc_charge_time();
  return t;
}

struct Rc {
  const char* mode = "charge";
  double r = 10000, c_uf = 100, supply = 5, initial = 0, target = 3.3, time_ms = 1000;
  std::string json() const {
    return RequestBody()
        .text("mode", mode)
        .number("resistance_ohm", r)
        .number("capacitance_uf", c_uf)
        .number("supply_v", supply)
        .number("initial_v", initial)
        .number("target_v", target)
        .number("time_ms", time_ms)
        .json();
  }
};

catalog::Outputs outputs(const Rc& rc) {
  const auto result = compute_body(tool(), rc.json());
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << rc.json();
  return std::get<catalog::Outputs>(result);
}

TEST(RcChargeTime, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "rc-charge-time");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "mode",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("charge"),
              .options = {"charge", "discharge"}},
             {"resistance_ohm", InputType::Number, "Ω", 10, 10000000, 1, 10000.0},
             {"capacitance_uf", InputType::Number, "µF", 0.001, 100000, 0.001, 100.0},
             {"supply_v", InputType::Number, "V", 0.1, 100000, 0.1, 5.0},
             {"initial_v", InputType::Number, "V", 0, 100000, 0.1, 0.0, false},
             {"target_v", InputType::Number, "V", 0.001, 100000, 0.001, 3.3},
             {"time_ms", InputType::Number, "ms", 0.000001, 10000000000, 0.000001, 1000.0},
         });
  tool_test::expect_outputs(d, {
                                   {"time_constant_ms", OutputType::Number, "ms", 4},
                                   {"time_constant_us", OutputType::Number, "µs", 4},
                                   {"time_to_target_ms", OutputType::Number, "ms", 4},
                                   {"time_to_target_tau", OutputType::Number, "τ", 5},
                                   {"voltage_at_time_v", OutputType::Number, "V", 4},
                                   {"voltage_at_time_mv", OutputType::Number, "mV", 5},
                                   {"elapsed_tau", OutputType::Number, "τ", 5},
                               });
}

// OpenStax University Physics Vol. 2, Examples 10.8 and 10.9, and College Physics 2e,
// Example 21.7, with each source's printed precision.
TEST(RcChargeTime, PublishedWorkedExamples) {
  // Relaxation oscillator: τ = 5.05 s, 80 V of 100 V after 8.13 s.
  const auto oscillator =
      outputs({.r = 101, .c_uf = 50000, .supply = 100, .target = 80, .time_ms = 8130});
  EXPECT_NEAR(oscillator.number("time_constant_ms"), 5050, 0.5);
  EXPECT_NEAR(oscillator.number("time_to_target_ms"), 8130, 5);
  // Wipers: 558.11 Ω with 10.00 mF reaches 10 V of 12 V after 10.00 s; 10 kΩ after 179.18 s.
  const auto fast = outputs({.r = 558.11, .c_uf = 10000, .supply = 12, .target = 10});
  EXPECT_NEAR(fast.number("time_to_target_ms"), 10000, 5);
  const auto slow =
      outputs({.r = 10000, .c_uf = 10000, .supply = 12, .target = 10, .time_ms = 100000});
  EXPECT_NEAR(slow.number("time_to_target_ms"), 179180, 5);
  // Defibrillator: τ = 8.00 ms; 10.0 kV falls to 498 V after 24.0 ms.
  const auto defib = outputs(
      {.mode = "discharge", .r = 1000, .c_uf = 8, .supply = 10000, .target = 500, .time_ms = 24});
  EXPECT_NEAR(defib.number("time_constant_ms"), 8, 0.005);
  EXPECT_NEAR(defib.number("voltage_at_time_v"), 498, 0.5);
  EXPECT_NEAR(defib.number("time_to_target_ms"), 24, 0.05);
  // "The voltage declines to 0.368 of its initial value" in the first 8.00 ms (e^−1 =
  // 0.36788, printed to 3 digits).
  const auto one_tau = outputs(
      {.mode = "discharge", .r = 1000, .c_uf = 8, .supply = 10000, .target = 500, .time_ms = 8});
  EXPECT_NEAR(one_tau.number("voltage_at_time_v"), 3680, 2);
}

// Hand check: 10 kΩ, 100 µF (τ = 1 s) charging from 0 to 5 V: 3.3 V after −ln(1 − 0.66) =
// 1.07881 s; at 1 s, 5·(1 − e^−1) = 3.16060 V.
TEST(RcChargeTime, HandCheckedDefaults) {
  EXPECT_EQ(run_tool(tool(), Rc{}.json()),
            expected_result(tool(), {"1000.0000", "1000000.0000", "1078.8097", "1.07881", "3.1606",
                                     "3160.60279", "1.00000"}));
}

TEST(RcChargeTime, ImpossibleTargetsAndTimesAre422) {
  EXPECT_EQ(run_tool(tool(), Rc{.initial = 5}.json()),
            "422:initial_v:the capacitor already holds initial_v ≥ supply_v, so it does not "
            "charge; enter an initial voltage below the supply (or choose discharge)");
  EXPECT_EQ(run_tool(tool(), Rc{.target = 5}.json()),
            "422:target_v:a charging capacitor approaches supply_v but never reaches it: a "
            "target at or above the supply is never reached; enter a target below supply_v");
  EXPECT_EQ(run_tool(tool(), Rc{.initial = 4, .target = 3.3}.json()),
            "422:target_v:the capacitor starts at initial_v, already at or above target_v; "
            "enter a target between initial_v and supply_v");
  EXPECT_EQ(run_tool(tool(), Rc{.mode = "discharge", .target = 5}.json()),
            "422:target_v:a discharging capacitor starts at supply_v and only falls: a target "
            "at or above it is already passed at t = 0; enter a target below supply_v");
  EXPECT_EQ(run_tool(tool(), Rc{.target = 0.004}.json()),
            "422:target_v:target_v is within 0.1 % of the swing from the starting voltage: it "
            "is reached after less than 0.001 τ (1.000000 ms), where the capacitor's ESR and "
            "the source's edge dominate; move the target further from the start");
  EXPECT_EQ(run_tool(tool(), Rc{.target = 4.9999}.json()),
            "422:target_v:target_v is within 0.005 % of the final voltage: it is reached only "
            "after more than 10 τ (10000.000000 ms), past where leakage and dielectric "
            "absorption of a real capacitor dominate; move the target further from the final "
            "voltage");
  const std::string time_message =
      "422:time_ms:time_ms must lie between 0.001 τ and 10 τ (1.000000 ms to 10000.000000 ms): "
      "earlier the capacitor has hardly moved, later it has settled within 0.005 % of its "
      "final voltage";
  EXPECT_EQ(run_tool(tool(), Rc{.time_ms = 0.5}.json()), time_message);
  EXPECT_EQ(run_tool(tool(), Rc{.time_ms = 10001}.json()), time_message);
  // The window's ends are inside it.
  EXPECT_NEAR(outputs({.time_ms = 1}).number("elapsed_tau"), 0.001, 1e-15);
  EXPECT_NEAR(outputs({.time_ms = 10000}).number("elapsed_tau"), 10, 1e-12);
}

TEST(RcChargeTime, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(63);
  const auto& d = tool().descriptor;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int draw = 0; draw < 3000; ++draw) {
    Rc rc;
    rc.mode = draw % 2 ? "discharge" : "charge";
    rc.r = tool_test::draw_number(d.inputs[1], rng);
    rc.c_uf = tool_test::draw_number(d.inputs[2], rng);
    rc.supply = tool_test::draw_number(d.inputs[3], rng);
    rc.initial = draw % 2 ? 0 : rc.supply * 0.5 * unit(rng);
    const double tau_ms = rc.r * rc.c_uf * 1e-3;
    // A time inside the window, and the target the capacitor has at that time.
    const double x = std::exp(std::log(0.002) + (std::log(9.0) - std::log(0.002)) * unit(rng));
    rc.time_ms = x * tau_ms;
    const double start = draw % 2 ? rc.supply : rc.initial;
    const double end = draw % 2 ? 0.0 : rc.supply;
    rc.target = end + (start - end) * std::exp(-x);
    if (rc.target < 0.001 || rc.time_ms < 0.000001) continue;
    const auto out = outputs(rc);
    // Round trip: the time to reach V(t) is t.
    ASSERT_NEAR(out.number("time_to_target_ms"), rc.time_ms, 1e-6 * rc.time_ms);
    ASSERT_NEAR(out.number("voltage_at_time_v"), rc.target, 1e-9 * rc.supply);
    ASSERT_NEAR(out.number("time_to_target_tau"), out.number("elapsed_tau"), 1e-6 * x);
    ASSERT_NEAR(out.number("time_constant_ms"), tau_ms, 1e-12 * tau_ms);
    // The voltage moves monotonically from the start toward the end.
    const double v = out.number("voltage_at_time_v");
    ASSERT_LT(std::fabs(v - end), std::fabs(start - end));
  }
}

}  // namespace
}  // namespace toolcalc::tools
