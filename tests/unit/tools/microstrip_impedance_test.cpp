// microstrip-impedance: descriptor, the worked examples of docs/tools/microstrip-impedance.md
// (expected texts copied from that page), every 422 of the validity range, and properties
// over random valid inputs.
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
  static const catalog::Tool t = make_microstrip_impedance();
  return t;
}

std::string body(double w_mm, double h_mm, double t_um, double er) {
  return RequestBody()
      .number("trace_width_mm", w_mm)
      .number("dielectric_height_mm", h_mm)
      .number("copper_thickness_um", t_um)
      .number("dielectric_constant", er)
      .json();
}

TEST(MicrostripImpedance, Descriptor) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "microstrip-impedance");
  EXPECT_EQ(d.domain, "pcb-design");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.description.empty());
  EXPECT_EQ(d.standard, "IPC-2141A");
  EXPECT_EQ(d.endpoint(), "/v1/pcb-design/microstrip-impedance");
  EXPECT_GE(d.references.size(), 3u);
  EXPECT_FALSE(d.examples.empty());

  struct In {
    const char* key;
    const char* unit;
    double min, max, step, def;
  };
  const std::vector<In> inputs = {
      {"trace_width_mm", "mm", 0.025, 10, 0.01, 0.3},
      {"dielectric_height_mm", "mm", 0.025, 5, 0.01, 0.2},
      {"copper_thickness_um", "µm", 5, 210, 1, 35},
      {"dielectric_constant", "", 1, 30, 0.01, 4.3},
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
      {"z0_ohm", "Ω", 2},
      {"width_to_height", "", 3},
      {"effective_dielectric_constant", "", 3},
      {"propagation_delay_ps_per_mm", "ps/mm", 3},
      {"propagation_delay_ps_per_inch", "ps/in", 2},
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

TEST(MicrostripImpedance, DescriptorExamplesRun) {
  for (const auto& ex : tool().descriptor.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_EQ(run_tool(tool(), ex.request_json).front(), '{');
  }
}

struct WorkedExample {
  const char* name;
  std::string body;
  // Z0 Ω, w/h, εeff, ps/mm, ps/in
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/microstrip-impedance.md, row by row.
TEST(MicrostripImpedance, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults", body(0.3, 0.2, 35, 4.3), {"53.52", "1.500", "2.713", "5.494", "139.54"}},
      {"2 every input at its minimum",
       body(0.025, 0.025, 5, 1),
       {"100.23", "1.000", "1.145", "3.569", "90.66"}},
      {"4 maximum geometry, εr at the limit 15",
       body(10, 5, 210, 15),
       {"27.76", "2.000", "7.795", "9.313", "236.55"}},
      {"6 w/h = 2.0 (upper limit)",
       body(0.4, 0.2, 35, 4.3),
       {"44.22", "2.000", "2.713", "5.494", "139.54"}},
      {"8 w/h = 0.1 (lower limit)",
       body(0.1, 1, 35, 4.3),
       {"143.86", "0.100", "2.713", "5.494", "139.54"}},
      {"10 thick copper, log argument just above 1",
       body(0.025, 0.025, 129, 4.3),
       {"0.12", "1.000", "2.713", "5.494", "139.54"}},
      {"12 about 50 Ω on the default stack-up",
       body(0.35, 0.2, 35, 4.3),
       {"48.57", "1.750", "2.713", "5.494", "139.54"}},
      {"13 RF laminate εr 3.38, 0.813 mm",
       body(1.5, 0.813, 35, 3.38),
       {"54.47", "1.845", "2.276", "5.032", "127.81"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(MicrostripImpedance, PermittivityAbove15Is422) {  // doc rows 3 and 5
  EXPECT_EQ(run_tool(tool(), body(10, 5, 210, 30)),
            "422:dielectric_constant:dielectric_constant of 30 is outside the IPC-2141A "
            "microstrip equation's range (εr at most 15); use a field solver for such a "
            "substrate");
  EXPECT_EQ(run_tool(tool(), body(0.3, 0.2, 35, 15.01)),
            "422:dielectric_constant:dielectric_constant of 15.01 is outside the IPC-2141A "
            "microstrip equation's range (εr at most 15); use a field solver for such a "
            "substrate");
}

TEST(MicrostripImpedance, WidthToHeightOutsideRangeIs422) {  // doc rows 7, 9 and 14
  EXPECT_EQ(run_tool(tool(), body(0.41, 0.2, 35, 4.3)),
            "422:trace_width_mm:trace_width_mm of 0.41 mm over dielectric_height_mm of 0.2 mm "
            "gives w/h = 2.050, outside the IPC-2141A microstrip equation's range (0.1 ≤ w/h ≤ "
            "2.0); use a field solver or the Hammerstad–Jensen equations for such a geometry");
  EXPECT_EQ(run_tool(tool(), body(0.09, 1, 35, 4.3)),
            "422:trace_width_mm:trace_width_mm of 0.09 mm over dielectric_height_mm of 1 mm "
            "gives w/h = 0.090, outside the IPC-2141A microstrip equation's range (0.1 ≤ w/h ≤ "
            "2.0); use a field solver or the Hammerstad–Jensen equations for such a geometry");
  EXPECT_EQ(run_tool(tool(), body(1.1, 0.508, 35, 3.48)),
            "422:trace_width_mm:trace_width_mm of 1.1 mm over dielectric_height_mm of 0.508 mm "
            "gives w/h = 2.165, outside the IPC-2141A microstrip equation's range (0.1 ≤ w/h ≤ "
            "2.0); use a field solver or the Hammerstad–Jensen equations for such a geometry");
}

TEST(MicrostripImpedance, CopperTooThickForAPositiveImpedanceIs422) {  // doc row 11
  EXPECT_EQ(run_tool(tool(), body(0.025, 0.025, 130, 4.3)),
            "422:copper_thickness_um:copper_thickness_um of 130 µm is too thick for this trace "
            "and dielectric: 0.8·w + t must be less than 5.98·h for the IPC-2141A equation to "
            "give a positive impedance");
}

TEST(MicrostripImpedance, ChecksRunInTheDocumentedOrder) {
  // εr first, then w/h, then the log argument.
  EXPECT_EQ(run_tool(tool(), body(0.09, 1, 35, 16)).rfind("422:dielectric_constant:", 0), 0u);
  EXPECT_EQ(run_tool(tool(), body(0.06, 0.025, 210, 4.3)).rfind("422:trace_width_mm:", 0), 0u);
}

TEST(MicrostripImpedance, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(0.3, 0.2, 35, 0.5)),
            "400:dielectric_constant:dielectric_constant must be at least 1");
  EXPECT_EQ(run_tool(tool(), body(0.3, 0.2, 35, 31)),
            "400:dielectric_constant:dielectric_constant must be at most 30");
  EXPECT_EQ(run_tool(tool(), body(0.3, 0.01, 35, 4.3)),
            "400:dielectric_height_mm:dielectric_height_mm must be at least 0.025");
}

TEST(MicrostripImpedance, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(2141);
  const auto& d = tool().descriptor;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const double h = tool_test::draw_number(d.inputs[1], rng);
    // Draw w/h inside the range (and sometimes outside) rather than w alone, so most draws
    // compute.
    const double ratio = 0.05 + 2.0 * unit(rng);
    const double w = std::fmin(std::fmax(ratio * h, 0.025), 10);
    const double t = tool_test::draw_number(d.inputs[2], rng);
    const double er = 1 + 19 * unit(rng);
    const auto result = compute_body(tool(), body(w, h, t, er));
    const double r = w / h;
    const bool valid = er <= 15 && r >= 0.1 && r <= 2.0 && 0.8 * w + t / 1000 < 5.98 * h;
    ASSERT_EQ(std::holds_alternative<catalog::Outputs>(result), valid)
        << w << " mm, " << h << " mm, " << t << " µm, εr " << er;
    if (!valid) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double z0 = out.number("z0_ohm");
    ASSERT_GT(z0, 0);
    ASSERT_NEAR(out.number("propagation_delay_ps_per_inch"),
                25.4 * out.number("propagation_delay_ps_per_mm"), 1e-9);
    // Impedance falls with width and with permittivity, rises with dielectric height.
    const double narrower = std::fmax(w * (0.9 + 0.09 * unit(rng)), 0.025);
    const auto n = compute_body(tool(), body(narrower, h, t, er));
    if (const auto* o = std::get_if<catalog::Outputs>(&n); o != nullptr && narrower < w) {
      ASSERT_GT(o->number("z0_ohm"), z0);
    }
    const double higher_er = er + (15 - er) * unit(rng);
    if (higher_er > er * (1 + 1e-9)) {
      const auto e = compute_body(tool(), body(w, h, t, higher_er));
      ASSERT_LT(std::get<catalog::Outputs>(e).number("z0_ohm"), z0);
    }
  }
  EXPECT_GT(computed, 1500);
}

}  // namespace
}  // namespace toolcalc::tools
