// conductor-spacing: descriptor, IPC-2221B Table 6-1 rows (docs/tools/conductor-spacing.md),
// and properties. The tool has no 422 condition.
#include <gtest/gtest.h>

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
  static const catalog::Tool t = make_conductor_spacing();
  return t;
}

std::string body(double v, const std::string& location) {
  return RequestBody().number("voltage_v", v).text("location", location).json();
}

double spacing(double v, const std::string& location) {
  return std::get<catalog::Outputs>(compute_body(tool(), body(v, location)))
      .number("min_spacing_mm");
}

const std::vector<std::string> kClasses = {"B1-internal",
                                           "B2-external-uncoated-sea-level",
                                           "B3-external-uncoated-above-3050m",
                                           "B4-external-permanent-polymer-coating",
                                           "A5-external-conformal-coating-assembly",
                                           "A6-component-lead-uncoated",
                                           "A7-component-lead-conformal-coating"};

TEST(ConductorSpacing, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.standard, "IPC-2221B");
  tool_test::expect_inputs(d, {
                                  {"voltage_v", InputType::Number, "V", 0, 10000, 1, 50.0},
                                  {.key = "location",
                                   .type = InputType::Enum,
                                   .unit = std::nullopt,
                                   .default_value = std::string("B2-external-uncoated-sea-level"),
                                   .options = kClasses},
                              });
  tool_test::expect_outputs(
      d, {
             {"min_spacing_mm", OutputType::Number, "mm", 4},
             {"min_spacing_mil", OutputType::Number, "mil", 2},
             {.key = "voltage_band",
              .type = OutputType::String,
              .unit = std::nullopt,
              .options = {"0–15 V", "16–30 V", "31–50 V", "51–100 V", "101–150 V", "151–170 V",
                          "171–250 V", "251–300 V", "301–500 V", "> 500 V"}},
         });
}

// IPC-2221B Table 6-1 as tabulated in KiCad's panel_electrical_spacing_ipc2221.cpp.
TEST(ConductorSpacing, TableRows) {
  const double table[9][7] = {
      {0.05, 0.1, 0.1, 0.05, 0.13, 0.13, 0.13}, {0.05, 0.1, 0.1, 0.05, 0.13, 0.25, 0.13},
      {0.1, 0.6, 0.6, 0.13, 0.13, 0.4, 0.13},   {0.1, 0.6, 1.5, 0.13, 0.13, 0.5, 0.13},
      {0.2, 0.6, 3.2, 0.4, 0.4, 0.8, 0.4},      {0.2, 1.25, 3.2, 0.4, 0.4, 0.8, 0.4},
      {0.2, 1.25, 6.4, 0.4, 0.4, 0.8, 0.4},     {0.2, 1.25, 12.5, 0.4, 0.4, 0.8, 0.8},
      {0.25, 2.5, 12.5, 0.8, 0.8, 1.5, 0.8}};
  const double tops[9] = {15, 30, 50, 100, 150, 170, 250, 300, 500};
  for (int row = 0; row < 9; ++row)
    for (int col = 0; col < 7; ++col) {
      SCOPED_TRACE(kClasses[col] + " @ " + std::to_string(tops[row]));
      EXPECT_DOUBLE_EQ(spacing(tops[row], kClasses[col]), table[row][col]);
    }
  // Above 500 V: the 301–500 V value plus the per-volt figure (B1 at 600 V is IPC's example).
  EXPECT_DOUBLE_EQ(spacing(600, "B1-internal"), 0.5);
  EXPECT_DOUBLE_EQ(spacing(1000, "B3-external-uncoated-above-3050m"), 12.5 + 500 * 0.025);
  EXPECT_DOUBLE_EQ(spacing(1000, "A7-component-lead-conformal-coating"), 0.8 + 500 * 0.00305);
  EXPECT_EQ(run_tool(tool(), body(15.5, "B1-internal")),
            R"({"min_spacing_mm":0.0500,"min_spacing_mil":1.97,"voltage_band":"16–30 V"})");
}

TEST(ConductorSpacing, SpacingNeverShrinksWithVoltage) {
  std::mt19937 rng(2221);
  std::uniform_real_distribution<double> volts(0, 10000);
  for (const auto& c : kClasses)
    for (int i = 0; i < 500; ++i) {
      const double v = volts(rng);
      ASSERT_LE(spacing(v, c), spacing(v * 1.1 > 10000 ? 10000 : v * 1.1, c));
    }
}

}  // namespace
}  // namespace toolcalc::tools
