// trace-resistance: descriptor, the worked examples of docs/tools/trace-resistance.md
// (expected texts copied from that page), and properties over random valid inputs. The tool
// has no 422 condition.
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
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.description.empty());
  EXPECT_FALSE(d.standard.has_value());  // Ohm's law and material constants; see the doc page
  EXPECT_EQ(d.endpoint(), "/v1/pcb-design/trace-resistance");
  EXPECT_GE(d.references.size(), 3u);
  EXPECT_FALSE(d.examples.empty());

  struct In {
    const char* key;
    const char* unit;
    double min, max, step, def;
  };
  const std::vector<In> inputs = {
      {"length_mm", "mm", 1, 1000, 1, 100},
      {"width_mm", "mm", 0.025, 100, 0.01, 0.25},
      {"copper_weight_oz", "oz/ft²", 0.25, 10, 0.25, 1},
      {"temperature_c", "°C", -55, 150, 1, 25},
      {"current_a", "A", 0, 100, 0.1, 1},
  };
  ASSERT_EQ(d.inputs.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = d.inputs[i];
    SCOPED_TRACE(inputs[i].key);
    EXPECT_EQ(in.key, inputs[i].key);
    EXPECT_EQ(in.type, InputType::Number);
    EXPECT_TRUE(in.required);
    EXPECT_EQ(in.unit, inputs[i].unit);
    EXPECT_EQ(in.min, inputs[i].min);
    EXPECT_EQ(in.max, inputs[i].max);
    EXPECT_EQ(in.step, inputs[i].step);
    EXPECT_EQ(std::get<double>(in.default_value), inputs[i].def);
    EXPECT_FALSE(in.label.empty());
    EXPECT_TRUE(in.help.has_value());
  }

  struct Out {
    const char* key;
    const char* unit;
    int precision;
  };
  const std::vector<Out> outputs = {
      {"copper_thickness_um", "µm", 1},
      {"cross_section_mm2", "mm²", 6},
      {"resistivity_uohm_cm", "µΩ·cm", 4},
      {"resistance_mohm", "mΩ", 4},
      {"voltage_drop_mv", "mV", 3},
      {"power_loss_mw", "mW", 3},
      {"current_density_a_per_mm2", "A/mm²", 1},
  };
  ASSERT_EQ(d.outputs.size(), outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    SCOPED_TRACE(outputs[i].key);
    EXPECT_EQ(d.outputs[i].key, outputs[i].key);
    EXPECT_EQ(d.outputs[i].type, OutputType::Number);
    EXPECT_EQ(d.outputs[i].unit, outputs[i].unit);
    EXPECT_EQ(d.outputs[i].precision, outputs[i].precision);
    EXPECT_FALSE(d.outputs[i].label.empty());
  }
}

TEST(TraceResistance, DescriptorExamplesRun) {
  for (const auto& ex : tool().descriptor.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_EQ(run_tool(tool(), ex.request_json).front(), '{');
  }
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
       {"35.0", "0.008750", "1.7538", "200.4272", "200.427", "200.427", "114.3"}},
      {"2 every input at its minimum",
       body(1, 0.025, 0.25, -55, 0),
       {"8.8", "0.000219", "1.2130", "55.4509", "0.000", "0.000", "0.0"}},
      {"3 every input at its maximum",
       body(1000, 100, 10, 150, 100),
       {"350.0", "35.001200", "2.5987", "0.7425", "74.247", "7424.740", "2.9"}},
      {"4 defaults at the 20 °C reference",
       body(100, 0.25, 1, 20, 1),
       {"35.0", "0.008750", "1.7200", "196.5647", "196.565", "196.565", "114.3"}},
      {"5 defaults at 100 °C",
       body(100, 0.25, 1, 100, 1),
       {"35.0", "0.008750", "2.2608", "258.3646", "258.365", "258.365", "114.3"}},
      {"6 2 mm, 2 oz power trace at 85 °C, 5 A",
       body(50, 2, 2, 85, 5),
       {"70.0", "0.140005", "2.1594", "7.7118", "38.559", "192.795", "35.7"}},
      {"7 10 mil × 10 in, 1 oz, 20 °C",
       body(254, 0.254, 1, 20, 1),
       {"35.0", "0.008890", "1.7200", "491.4117", "491.412", "491.412", "112.5"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(TraceResistance, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(100, 0.25, 1, -56, 1)),
            "400:temperature_c:temperature_c must be at least -55");
  EXPECT_EQ(run_tool(tool(), body(100, 0.25, 1, 25, -1)),
            "400:current_a:current_a must be at least 0");
  EXPECT_EQ(run_tool(tool(), body(0.5, 0.25, 1, 25, 1)),
            "400:length_mm:length_mm must be at least 1");
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
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));
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
