// trace-resistance: the descriptor table, the worked examples of docs/tools/trace-resistance.md
// (expected texts copied from that page), the 422 for a strip wider than long, the smallest
// results the rounding must not hide, and properties over random valid inputs.
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
  static const catalog::Tool t = make_trace_resistance();
  return t;
}

std::string body(double length_mm, double width_mm, double oz, double temp_c, double current_a) {
  return RequestBody()
      .number("length_mm", length_mm)
      .number("width_mm", width_mm)
      .number("copper_weight_oz", oz)
      .number("temperature_c", temp_c)
      .number("current_a", current_a)
      .json();
}

TEST(TraceResistance, Descriptor) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "trace-resistance");
  EXPECT_EQ(d.domain, "pcb-design");
  EXPECT_EQ(d.version, "2.0.0");
  EXPECT_FALSE(d.standard.has_value());  // Ohm's law and material constants; see the doc page
  tool_test::expect_inputs(
      d, {
             {"length_mm", InputType::Number, "mm", 1, 1000, 1, 100.0},
             {"width_mm", InputType::Number, "mm", 0.025, 100, 0.01, 0.25},
             {"copper_weight_oz", InputType::Number, "oz/ft²", 0.25, 10, 0.25, 1.0},
             {"temperature_c", InputType::Number, "°C", -55, 150, 1, 25.0},
             {"current_a", InputType::Number, "A", 0.1, 100, 0.1, 1.0},
         });
  tool_test::expect_outputs(d, {
                                   {"copper_thickness_um", OutputType::Number, "µm", 2},
                                   {"cross_section_mm2", OutputType::Number, "mm²", 6},
                                   {"resistivity_uohm_cm", OutputType::Number, "µΩ·cm", 4},
                                   {"resistance_mohm", OutputType::Number, "mΩ", 4},
                                   {"voltage_drop_mv", OutputType::Number, "mV", 5},
                                   {"power_loss_mw", OutputType::Number, "mW", 6},
                                   {"current_density_a_per_mm2", OutputType::Number, "A/mm²", 5},
                               });
}

// The smallest drop, loss and density the tool reports: one square of the heaviest copper at
// −55 °C carrying the least current. At the old decimals they read 0.003, 0.000 and 0.0.
TEST(TraceResistance, SmallestResultsKeepThreeSignificantDigits) {
  EXPECT_EQ(run_tool(tool(), body(100, 100, 10, -55, 0.1)),
            expected_result(tool(), {"350.01", "35.001200", "1.2130", "0.0347", "0.00347",
                                     "0.000347", "0.00286"}));
}

struct WorkedExample {
  const char* name;
  std::string body;
  // µm, mm², µΩ·cm, mΩ, mV, mW, A/mm²
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/trace-resistance.md, row by row.
TEST(TraceResistance, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(100, 0.25, 1, 25, 1),
       {"35.00", "0.008750", "1.7538", "200.4272", "200.42719", "200.427185", "114.28180"}},
      {"2 every input at its minimum",
       body(1, 0.025, 0.25, -55, 0.1),
       {"8.75", "0.000219", "1.2130", "55.4509", "5.54509", "0.554509", "457.12718"}},
      {"3 every input at its maximum",
       body(1000, 100, 10, 150, 100),
       {"350.01", "35.001200", "2.5987", "0.7425", "74.24740", "7424.739723", "2.85704"}},
      {"4 defaults at the 20 °C reference",
       body(100, 0.25, 1, 20, 1),
       {"35.00", "0.008750", "1.7200", "196.5647", "196.56469", "196.564689", "114.28180"}},
      {"5 defaults at 100 °C",
       body(100, 0.25, 1, 100, 1),
       {"35.00", "0.008750", "2.2608", "258.3646", "258.36463", "258.364627", "114.28180"}},
      {"6 2 mm, 2 oz power trace at 85 °C, 5 A",
       body(50, 2, 2, 85, 5),
       {"70.00", "0.140005", "2.1594", "7.7118", "38.55893", "192.794640", "35.71306"}},
      {"7 10 mil × 10 in, 1 oz, 20 °C",
       body(254, 0.254, 1, 20, 1),
       {"35.00", "0.008890", "1.7200", "491.4117", "491.41172", "491.411723", "112.48208"}},
      {"8 one square of 10 oz at −55 °C, 0.1 A",
       body(100, 100, 10, -55, 0.1),
       {"350.01", "35.001200", "1.2130", "0.0347", "0.00347", "0.000347", "0.00286"}},
      {"9 IEC 60028: 1 m of 1 mm² at 20 °C",
       body(1000, 28.5704, 1, 20, 1),
       {"35.00", "0.999998", "1.7200", "17.2000", "17.20003", "17.200030", "1.00000"}},
      {"10 100 mm of 0.5 mm, 1 oz, 20 °C",
       body(100, 0.5, 1, 20, 1),
       {"35.00", "0.017501", "1.7200", "98.2823", "98.28234", "98.282345", "57.14090"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(TraceResistance, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(100, 0.25, 1, -56, 1)),
            "400:temperature_c:temperature_c must be at least -55");
  EXPECT_EQ(run_tool(tool(), body(100, 0.25, 1, 25, 0)),
            "400:current_a:current_a must be at least 0.1");
  EXPECT_EQ(run_tool(tool(), body(0.5, 0.25, 1, 25, 1)),
            "400:length_mm:length_mm must be at least 1");
}

TEST(TraceResistance, StripWiderThanLongIs422) {  // doc row 11
  EXPECT_EQ(run_tool(tool(), body(10, 10.5, 1, 25, 1)),
            "422:width_mm:width_mm of 10.5 mm is more than length_mm of 10 mm: a strip wider than "
            "it is long is less than one square, and its resistance is set by where the current "
            "enters and leaves it, not by ρ·L/A; enter the length along the current and the "
            "width across it");
  EXPECT_EQ(run_tool(tool(), body(10, 10, 1, 25, 1)).front(), '{');  // one square computes
}

TEST(TraceResistance, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(60028);
  const auto& d = tool().descriptor;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int draw = 0; draw < 3000; ++draw) {
    const double length = tool_test::draw_number(d.inputs[0], rng);
    const double width = tool_test::draw_number(d.inputs[1], rng);
    const double oz = tool_test::draw_number(d.inputs[2], rng);
    const double temp = tool_test::draw_number(d.inputs[3], rng);
    const double current = tool_test::draw_number(d.inputs[4], rng);
    const auto result = compute_body(tool(), body(length, width, oz, temp, current));
    ASSERT_EQ(std::holds_alternative<catalog::Outputs>(result), width <= length);
    if (width > length) continue;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double r = out.number("resistance_mohm");
    ASSERT_GT(r, 0);
    // Ohm's law and Joule heating on the reported values.
    ASSERT_NEAR(out.number("voltage_drop_mv"), current * r, 1e-9 * current * r + 1e-12);
    ASSERT_NEAR(out.number("power_loss_mw"), current * out.number("voltage_drop_mv"),
                1e-9 * out.number("power_loss_mw") + 1e-12);
    // R·A/L is the resistivity: 1 mΩ·mm²/mm = 1e-3 Ω·mm = 1e-6 Ω·m = 100 µΩ·cm.
    ASSERT_NEAR(r * out.number("cross_section_mm2") / length * 100,
                out.number("resistivity_uohm_cm"), 1e-9 * out.number("resistivity_uohm_cm"));
    // Linear in length; rises with temperature.
    if (2 * length <= 1000) {
      const auto doubled = compute_body(tool(), body(2 * length, width, oz, temp, current));
      ASSERT_NEAR(std::get<catalog::Outputs>(doubled).number("resistance_mohm"), 2 * r, 1e-9 * r);
    }
    const double hotter = temp + (150 - temp) * unit(rng);
    if (hotter > temp + 1e-9) {
      const auto h = compute_body(tool(), body(length, width, oz, hotter, current));
      ASSERT_GT(std::get<catalog::Outputs>(h).number("resistance_mohm"), r);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
