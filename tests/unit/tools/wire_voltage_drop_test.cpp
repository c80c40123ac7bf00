// wire-voltage-drop: descriptor table, published AWG tables and voltage-drop examples
// (besides the verification vectors, which all_tools_test.cpp checks), properties over random
// valid inputs, and the 422 case.
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
  static const catalog::Tool t = make_wire_voltage_drop();
  return t;
}

std::string awg(int n, double length, double current, double supply, double temp = 20,
                const char* material = "copper") {
  return RequestBody()
      .text("material", material)
      .text("size_system", "awg")
      .number("awg", n)
      .number("length_m", length)
      .number("current_a", current)
      .number("supply_v", supply)
      .number("temperature_c", temp)
      .json();
}

std::string mm2(double area, double length, double current, double supply, double temp = 20,
                const char* material = "copper") {
  return RequestBody()
      .text("material", material)
      .text("size_system", "mm2")
      .number("area_mm2", area)
      .number("length_m", length)
      .number("current_a", current)
      .number("supply_v", supply)
      .number("temperature_c", temp)
      .json();
}

catalog::Outputs outputs(const std::string& body) {
  const auto result = compute_body(tool(), body);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << body;
  return std::get<catalog::Outputs>(result);
}

TEST(WireVoltageDrop, DescriptorTable) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "wire-voltage-drop");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_EQ(d.standard, "ASTM B258, IEC 60028");
  tool_test::expect_inputs(d,
                           {
                               {.key = "material",
                                .type = InputType::Enum,
                                .unit = std::nullopt,
                                .default_value = std::string("copper"),
                                .options = {"copper", "aluminium"}},
                               {.key = "size_system",
                                .type = InputType::Enum,
                                .unit = std::nullopt,
                                .default_value = std::string("awg"),
                                .options = {"awg", "mm2"}},
                               {"awg", InputType::Integer, "", -3, 40, 1, 14.0, false},
                               {"area_mm2", InputType::Number, "mm²", 0.01, 500, 0.01, 2.5, false},
                               {"length_m", InputType::Number, "m", 1, 10000, 0.1, 10.0},
                               {"current_a", InputType::Number, "A", 0.001, 1000, 0.001, 5.0},
                               {"supply_v", InputType::Number, "V", 1, 1000, 0.1, 12.0},
                               {"temperature_c", InputType::Number, "°C", -40, 150, 1, 20.0, false},
                           });
  tool_test::expect_outputs(d, {
                                   {"diameter_mm", OutputType::Number, "mm", 4},
                                   {"area_mm2", OutputType::Number, "mm²", 5},
                                   {"resistance_ohm_per_km", OutputType::Number, "Ω/km", 4},
                                   {"loop_resistance_ohm", OutputType::Number, "Ω", 4},
                                   {"loop_resistance_mohm", OutputType::Number, "mΩ", 4},
                                   {"voltage_drop_v", OutputType::Number, "V", 4},
                                   {"voltage_drop_uv", OutputType::Number, "µV", 4},
                                   {"voltage_drop_pct", OutputType::Number, "%", 3},
                                   {"load_voltage_v", OutputType::Number, "V", 4},
                                   {"load_voltage_uv", OutputType::Number, "µV", 4},
                                   {"power_loss_w", OutputType::Number, "W", 4},
                                   {"power_loss_nw", OutputType::Number, "nW", 4},
                               });
}

// HyperPhysics "Wire gauges" (data from Floyd, Electric Circuit Fundamentals): copper at
// 20 °C, Ω per 1000 ft and diameters in inches, as printed.
TEST(WireVoltageDrop, HyperPhysicsAwgTable) {
  struct Row {
    int awg;
    double ohm_per_kft, diameter_in;
  };
  const Row rows[] = {{0, 0.0983, 0.32485}, {4, 0.2485, 0.20431}, {10, 0.9989, 0.10189},
                      {12, 1.588, 0.0808},  {18, 6.385, 0.0403},  {22, 16.14, 0.02535},
                      {30, 103.2, 0.01002}, {36, 414.8, 0.005}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.awg);
    const auto out = outputs(awg(row.awg, 10, 0.01, 12));
    const double ohm_per_kft = out.number("resistance_ohm_per_km") * 0.3048;
    EXPECT_NEAR(ohm_per_kft, row.ohm_per_kft, 0.003 * row.ohm_per_kft);
    EXPECT_NEAR(out.number("diameter_mm") / 25.4, row.diameter_in, 0.003 * row.diameter_in);
  }
}

TEST(WireVoltageDrop, PublishedVoltageDropExamples) {
  // electrician2.com (NEC Chapter 9, Table 8): a two-wire 16 AWG copper circuit 100 ft long at
  // 4 A, with the table's 4.99 Ω per 1000 ft (stranded, 75 °C), drops 2 × 100 × 4.99/1000 × 4
  // = 4.0 V, 16.7 % of 24 V. Solid round wire at 75 °C has about 2 % less resistance than the
  // NEC's stranded conductor (stranding lengthens the strands), hence the 3 % allowance.
  const auto nec = outputs(awg(16, 30.48, 4, 24, 75));
  EXPECT_NEAR(nec.number("voltage_drop_v"), 4.0, 0.03 * 4.0);
  EXPECT_NEAR(nec.number("voltage_drop_pct"), 16.7, 0.03 * 16.7);
  EXPECT_LT(nec.number("voltage_drop_v"), 4.0);
  // AbraCalc, AWG 14 worked example: resistance per metre 8.278e-3 Ω/m (4110 cmil).
  EXPECT_NEAR(outputs(awg(14, 10, 5, 12)).number("resistance_ohm_per_km"), 8.278, 0.01);
}

TEST(WireVoltageDrop, PropertiesOverRandomInputs) {
  std::mt19937 rng(258);
  const auto& d = tool().descriptor;
  for (int i = 0; i < 3000; ++i) {
    const double area = tool_test::draw_number(d.inputs[3], rng);
    const double length = tool_test::draw_number(d.inputs[4], rng);
    const double current = tool_test::draw_number(d.inputs[5], rng);
    const double temp = -40 + 190 * std::uniform_real_distribution<double>(0, 1)(rng);
    const auto result = compute_body(tool(), mm2(area, length, current, 1000, temp));
    if (!std::holds_alternative<catalog::Outputs>(result)) continue;  // drop ≥ supply
    const auto& out = std::get<catalog::Outputs>(result);
    // Ohm's and Joule's laws tie the outputs together.
    const double loop = out.number("loop_resistance_ohm");
    ASSERT_NEAR(out.number("voltage_drop_v"), current * loop, 1e-12 * current * loop);
    ASSERT_NEAR(out.number("power_loss_w"), current * current * loop,
                1e-12 * current * current * loop);
    ASSERT_NEAR(out.number("load_voltage_v") + out.number("voltage_drop_v"), 1000, 1e-9);
    // The round trip is twice the one-way length: R_loop = 2·L·(R/km)/1000.
    ASSERT_NEAR(loop, 2 * length * out.number("resistance_ohm_per_km") / 1000, 1e-12 * loop);
    // A warmer conductor and aluminium both resist more; so does a thinner one.
    const auto hotter = outputs(mm2(area, length, 0.001, 1000, std::fmin(temp + 10, 150)));
    const auto same = outputs(mm2(area, length, 0.001, 1000, temp));
    ASSERT_GE(hotter.number("resistance_ohm_per_km"), same.number("resistance_ohm_per_km"));
    const auto al = outputs(mm2(area, length, 0.001, 1000, temp, "aluminium"));
    ASSERT_GT(al.number("resistance_ohm_per_km"), same.number("resistance_ohm_per_km"));
  }
  // Each AWG step down in number is a thicker wire: 92^(1/39) ≈ 1.1229 in diameter.
  for (int n = -3; n < 40; ++n) {
    const double thick = outputs(awg(n, 10, 0.001, 12)).number("diameter_mm");
    const double thin = outputs(awg(n + 1, 10, 0.001, 12)).number("diameter_mm");
    ASSERT_NEAR(thick / thin, std::pow(92.0, 1.0 / 39), 1e-12);
  }
}

TEST(WireVoltageDrop, DropOfTheWholeSupplyIsRefused) {
  // 40 AWG (about 3.4 Ω/m) over 10 m and back at 1 A drops about 69 V.
  EXPECT_EQ(run_tool(tool(), awg(40, 10, 1, 12)).rfind("422:current_a:the wire would drop ", 0),
            0u);
  EXPECT_EQ(run_tool(tool(), awg(40, 10, 0.1, 12)).front(), '{');
}

}  // namespace
}  // namespace toolcalc::tools
