// crystal-load-capacitors: descriptor, the published worked examples of
// docs/tools/crystal-load-capacitors.md (NXP, vbatpower), the 422, and properties over
// random valid inputs.
#include <gtest/gtest.h>

#include <algorithm>
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
  static const catalog::Tool t = make_crystal_load_capacitors();
  return t;
}

std::string body(double cl, double stray, double pin = 0, const char* series = "E12") {
  return RequestBody()
      .number("load_capacitance_pf", cl)
      .number("stray_capacitance_pf", stray)
      .number("pin_capacitance_pf", pin)
      .text("capacitor_series", series)
      .json();
}

TEST(CrystalLoadCapacitors, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "crystal-load-capacitors");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  // The help says how "nearest" is measured (in picofarads, as the docs page does).
  const auto& series = *std::find_if(d.inputs.begin(), d.inputs.end(),
                                     [](const auto& i) { return i.key == "capacitor_series"; });
  EXPECT_NE(series.help->find("closest in picofarads"), std::string::npos);
  tool_test::expect_inputs(
      d, {
             {"load_capacitance_pf", InputType::Number, "pF", 3, 50, 0.1, 12.0},
             {"stray_capacitance_pf", InputType::Number, "pF", 0, 20, 0.1, 3.0},
             {"pin_capacitance_pf", InputType::Number, "pF", 0, 20, 0.1, 0.0, false},
             {.key = "capacitor_series",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("E12"),
              .required = false,
              .options = {"E12", "E24"}},
         });
  tool_test::expect_outputs(d, {
                                   {"capacitor_pf", OutputType::Number, "pF", 2},
                                   {"standard_capacitor_pf", OutputType::Number, "pF", 1},
                                   {"load_with_standard_pf", OutputType::Number, "pF", 2},
                               });
}

TEST(CrystalLoadCapacitors, PublishedExamples) {
  // NXP i.MX RT500 Hardware Design Guide, examples 1 and 2 (CStray ignored, CPin = 3 pF).
  EXPECT_EQ(result_field(run_tool(tool(), body(12.5, 0, 3)), "capacitor_pf"), "22.00");
  EXPECT_EQ(result_field(run_tool(tool(), body(9, 0, 3)), "capacitor_pf"), "15.00");
  // NXP LPC FAQ: CL = 15 pF, Cstray = 2 pF → 26 pF.
  EXPECT_EQ(result_field(run_tool(tool(), body(15, 2)), "capacitor_pf"), "26.00");
  // vbatpower: CL = 12 pF, Cstray = 5 pF → 14 pF, rounded to a standard 15 pF.
  const std::string r = run_tool(tool(), body(12, 5));
  EXPECT_EQ(result_field(r, "capacitor_pf"), "14.00");
  EXPECT_EQ(result_field(r, "standard_capacitor_pf"), "15.0");
  // With 15 pF the crystal sees 15/2 + 5 = 12.5 pF instead of 12.
  EXPECT_EQ(result_field(r, "load_with_standard_pf"), "12.50");
}

TEST(CrystalLoadCapacitors, StandardValuesComeFromTheChosenSeries) {
  // 26 pF: 27 in E12 (22, 27) and in E24 (24, 27).
  EXPECT_EQ(result_field(run_tool(tool(), body(15, 2, 0, "E12")), "standard_capacitor_pf"), "27.0");
  // 2(14 − 2.5) = 23 pF: E12 → 22 (27 is 4 away); E24 → 22 or 24, 1 pF either way, and the
  // lower is kept on a tie.
  EXPECT_EQ(result_field(run_tool(tool(), body(14, 2.5, 0, "E12")), "standard_capacitor_pf"),
            "22.0");
  EXPECT_EQ(result_field(run_tool(tool(), body(14, 2.5, 0, "E24")), "standard_capacitor_pf"),
            "22.0");
  // 2(14.5 − 2.5) = 24 pF is itself an E24 value.
  EXPECT_EQ(result_field(run_tool(tool(), body(14.5, 2.5, 0, "E24")), "standard_capacitor_pf"),
            "24.0");
}

TEST(CrystalLoadCapacitors, StrayAboveTheLoadIsA422) {
  EXPECT_EQ(run_tool(tool(), body(6, 6)),
            "422:load_capacitance_pf:The stray and pin capacitance alone already load the "
            "crystal with 6.00 pF, so the capacitors would be under 1 pF; choose a crystal whose "
            "load_capacitance_pf is at least 0.5 pF above that, or check stray_capacitance_pf "
            "and pin_capacitance_pf.");
  // 2(6 − 4) − 3.5 = 0.5 pF: below the 1 pF floor.
  EXPECT_EQ(run_tool(tool(), body(6, 4, 3.5)).substr(0, 26), "422:load_capacitance_pf:Th");
  // Exactly 1 pF is still a part.
  EXPECT_EQ(result_field(run_tool(tool(), body(6, 5.5)), "capacitor_pf"), "1.00");
}

TEST(CrystalLoadCapacitors, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(32768);
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    if (!std::holds_alternative<catalog::Outputs>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double c = out.number("capacitor_pf");
    const double std_c = out.number("standard_capacitor_pf");
    // Round trip: the two legs in series plus the stray give back CL.
    const double cl = std::stod(result_field(b, "load_capacitance_pf"));
    const double stray = std::stod(result_field(b, "stray_capacitance_pf"));
    const double pin = std::stod(result_field(b, "pin_capacitance_pf"));
    ASSERT_NEAR((c + pin) * (c + pin) / (2 * (c + pin)) + stray, cl, 1e-9);
    ASSERT_GE(c, 1);
    // The standard part is within one series step (E12: ±10 %, E24: ±5 %) of the ideal one.
    ASSERT_LE(std::fabs(std_c - c), 0.11 * c) << b;
    ASSERT_NEAR(out.number("load_with_standard_pf"), (std_c + pin) / 2 + stray, 1e-12);
  }
  EXPECT_GT(computed, 2000);
}

}  // namespace
}  // namespace toolcalc::tools
