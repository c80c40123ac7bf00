// supercap-holdup-time: descriptor, the published sizing examples of
// docs/tools/supercap-holdup-time.md, each 422, the no-ESR limit, and the closed form against
// a time-stepped discharge over random valid inputs.
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
  static const catalog::Tool t = make_supercap_holdup_time();
  return t;
}

std::string power_body(double c, double esr, double v0, double vmin, double p) {
  return RequestBody()
      .number("capacitance_f", c)
      .number("esr_ohm", esr)
      .number("v_start_v", v0)
      .number("v_min_v", vmin)
      .text("load_type", "constant-power")
      .number("load_power_w", p)
      .json();
}

std::string current_body(double c, double esr, double v0, double vmin, double i) {
  return RequestBody()
      .number("capacitance_f", c)
      .number("esr_ohm", esr)
      .number("v_start_v", v0)
      .number("v_min_v", vmin)
      .text("load_type", "constant-current")
      .number("load_current_a", i)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(SupercapHoldupTime, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "supercap-holdup-time");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"capacitance_f", InputType::Number, "F", 0.1, 10000, 0.01, 1.0},
             {"esr_ohm", InputType::Number, "Ω", 0, 100, 0.001, 0.0, false},
             {"v_start_v", InputType::Number, "V", 0.1, 1000, 0.01, 5.0},
             {"v_min_v", InputType::Number, "V", 0.1, 1000, 0.01, 3.0},
             {.key = "load_type",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("constant-power"),
              .options = {"constant-power", "constant-current"}},
             {"load_power_w", InputType::Number, "W", 0.0001, 1000000, 0.001, 1.0, false},
             {"load_current_a", InputType::Number, "A", 0.000001, 10000, 0.001, 0.1, false},
         });
  tool_test::expect_outputs(d, {
                                   {"holdup_time_s", OutputType::Number, "s", 3},
                                   {"holdup_time_us", OutputType::Number, "µs", 3},
                                   {"capacitor_end_v", OutputType::Number, "V", 3},
                                   {"terminal_end_v", OutputType::Number, "V", 3},
                               });
  EXPECT_EQ(d.outputs[0].small_values_in, "holdup_time_us");
}

TEST(SupercapHoldupTime, PublishedSizingExamples) {
  // SPS Cap, constant current: 1.25 F from 5 V to 4.2 V at 0.1 A lasts 10 s.
  EXPECT_EQ(result_field(run_tool(tool(), current_body(1.25, 0, 5, 4.2, 0.1)), "holdup_time_s"),
            "10.000");
  // SPS Cap, constant power: 200 kW for 10 s from 750 V to 450 V needs 11.1 F, printed 11 F.
  EXPECT_NEAR(field(run_tool(tool(), power_body(11, 0, 750, 450, 200000)), "holdup_time_s"), 10,
              10 * 0.011);
  EXPECT_EQ(
      result_field(run_tool(tool(), power_body(100.0 / 9, 0, 750, 450, 200000)), "holdup_time_s"),
      "10.000");
  // Electrical Engineering SE 4951: 1 F from 5 V to 3 V at 10 mA lasts 200 s.
  EXPECT_EQ(result_field(run_tool(tool(), current_body(1, 0, 5, 3, 0.01)), "holdup_time_s"),
            "200.000");
}

TEST(SupercapHoldupTime, EsrShortensTheHoldup) {
  // Constant current: 1 F, 5 V → 3 V at 1 A with 0.5 Ω: the load stops when the capacitor
  // is at 3.5 V, after 1.5 s instead of 2 s.
  const std::string cc = run_tool(tool(), current_body(1, 0.5, 5, 3, 1));
  EXPECT_EQ(result_field(cc, "holdup_time_s"), "1.500");
  EXPECT_EQ(result_field(cc, "capacitor_end_v"), "3.500");
  EXPECT_EQ(result_field(cc, "terminal_end_v"), "3.000");
  // Constant power, 1 F, 5 V → 3 V at 1 W: 8 s without ESR; with 1 Ω the capacitor ends at
  // 3 + 1/3 V and the hold-up is shorter.
  EXPECT_EQ(result_field(run_tool(tool(), power_body(1, 0, 5, 3, 1)), "holdup_time_s"), "8.000");
  const std::string cp = run_tool(tool(), power_body(1, 1, 5, 3, 1));
  EXPECT_EQ(result_field(cp, "capacitor_end_v"), "3.333");
  EXPECT_LT(field(cp, "holdup_time_s"), 8);
  // When V_min² < P·ESR the load collapses first, at V = 2√(P·ESR) with √(P·ESR) across it.
  const std::string collapse = run_tool(tool(), power_body(1, 4, 10, 1, 1));
  EXPECT_EQ(result_field(collapse, "capacitor_end_v"), "4.000");
  EXPECT_EQ(result_field(collapse, "terminal_end_v"), "2.000");
}

TEST(SupercapHoldupTime, ImpossibleCombinationsAre422) {
  EXPECT_EQ(run_tool(tool(), power_body(1, 0, 3, 3, 1)),
            "422:v_min_v:v_min_v (3.000 V) must be below v_start_v (3.000 V): there is nothing "
            "to discharge.");
  EXPECT_EQ(run_tool(tool(), current_body(1, 2, 5, 4.5, 0.3)),
            "422:v_start_v:At 300.000 mA the ESR drops 0.600 V, so the load sees less than "
            "v_min_v (4.500 V) from the start; v_start_v must exceed 5.100 V, or lower esr_ohm "
            "or the current.");
  EXPECT_EQ(run_tool(tool(), power_body(1, 1, 5, 3, 10)),
            "422:load_power_w:Through 1.000 Ω of ESR a capacitor at 5.000 V can deliver at most "
            "V²/(4·ESR) = 6.250 W; lower load_power_w or esr_ohm, or raise v_start_v.");
  // 1 MW from 0.1 F between 0.25 V and 0.2 V: 1.1 ns of hold-up.
  EXPECT_EQ(run_tool(tool(), power_body(0.1, 0, 0.25, 0.2, 1e6)),
            "422:load_power_w:The capacitor holds this load for only 1.125 ns, less than 1 µs: "
            "between these voltages it is as good as empty; raise capacitance_f or v_start_v, "
            "or lower load_power_w.");
  EXPECT_EQ(run_tool(tool(), current_body(0.1, 0, 5, 4.9999, 10000)).substr(0, 19),
            "422:load_current_a:");
  EXPECT_EQ(run_tool(tool(), power_body(1, 0.5, 5, 4.6, 4)),
            "422:v_start_v:At 4.000 W the ESR drop already takes the load below v_min_v (4.600 V) "
            "at the start; v_start_v must exceed 5.035 V, or lower esr_ohm or the power.");
}

// Discharges the capacitor in small time steps (the load current solved from
// (V − I·R)·I = P at each step) until the terminal reaches V_min or the load collapses.
double stepped_power_holdup(double c, double r, double v0, double vmin, double p, double dt) {
  double v = v0, t = 0;
  for (;;) {
    const double disc = v * v - 4 * p * r;
    if (disc < 0) return t;
    const double i = r > 0 ? (v - std::sqrt(disc)) / (2 * r) : p / v;
    if (v - i * r <= vmin) return t;
    // Midpoint step for second-order accuracy.
    const double vm = v - i * dt / (2 * c);
    const double disc_m = vm * vm - 4 * p * r;
    if (disc_m < 0) return t;
    const double im = r > 0 ? (vm - std::sqrt(disc_m)) / (2 * r) : p / vm;
    v -= im * dt / c;
    t += dt;
  }
}

TEST(SupercapHoldupTime, ClosedFormMatchesASteppedDischarge) {
  std::mt19937 rng(2004);
  std::uniform_real_distribution<double> u(0, 1);
  int checked = 0;
  while (checked < 60) {
    const double c = 0.1 + 10 * u(rng);
    const double r = u(rng) < 0.2 ? 0 : 2 * u(rng);
    const double v0 = 2 + 10 * u(rng);
    const double vmin = 0.5 + (v0 - 0.5) * u(rng);
    const double p = 0.1 + 5 * u(rng);
    const auto result = compute_body(tool(), power_body(c, r, v0, vmin, p));
    if (!std::holds_alternative<catalog::Outputs>(result)) continue;
    const double t = std::get<catalog::Outputs>(result).number("holdup_time_s");
    const double stepped = stepped_power_holdup(c, r, v0, vmin, p, t / 200000);
    EXPECT_NEAR(stepped, t, 2e-4 * t)
        << c << " F " << r << " Ω " << v0 << "→" << vmin << " V " << p << " W";
    ++checked;
  }
}

TEST(SupercapHoldupTime, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1007236);
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    if (!std::holds_alternative<catalog::Outputs>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double t = out.number("holdup_time_s");
    ASSERT_GE(t, 1e-6) << b;
    ASSERT_TRUE(std::isfinite(t)) << b;
    ASSERT_NEAR(out.number("holdup_time_us"), t * 1e6, 1e-9 * t * 1e6);
    const double v0 = std::stod(result_field(b, "v_start_v"));
    const double vmin = std::stod(result_field(b, "v_min_v"));
    ASSERT_LT(out.number("capacitor_end_v"), v0);
    ASSERT_GE(out.number("capacitor_end_v"), out.number("terminal_end_v"));
    ASSERT_GE(out.number("terminal_end_v"), vmin);
    // The ESR only ever shortens the hold-up.
    if (std::stod(result_field(b, "esr_ohm")) > 0) {
      std::string ideal = b;
      const std::string esr = "\"esr_ohm\":" + result_field(b, "esr_ohm");
      ideal.replace(ideal.find(esr), esr.size(), "\"esr_ohm\":0");
      const double t0 =
          std::get<catalog::Outputs>(compute_body(tool(), ideal)).number("holdup_time_s");
      ASSERT_LE(t, t0 * (1 + 1e-12)) << b;
    }
  }
  EXPECT_GT(computed, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
