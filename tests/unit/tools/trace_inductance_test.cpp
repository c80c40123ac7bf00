// trace-inductance: descriptor, the published examples of docs/tools/trace-inductance.md,
// properties, and the 422 cases.
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
  static const catalog::Tool t = make_trace_inductance();
  return t;
}

std::string body(double l, double w, double t_um, bool plane, double h) {
  return RequestBody()
      .number("trace_length_mm", l)
      .number("trace_width_mm", w)
      .number("copper_thickness_um", t_um)
      .boolean("over_plane", plane)
      .number("height_above_plane_mm", h)
      .json();
}

catalog::Outputs outputs(const std::string& b) {
  return std::get<catalog::Outputs>(compute_body(tool(), b));
}

TEST(TraceInductance, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  tool_test::expect_inputs(
      d, {
             {"trace_length_mm", InputType::Number, "mm", 1, 1000, 0.1, 25.4},
             {"trace_width_mm", InputType::Number, "mm", 0.01, 20, 0.01, 0.254},
             {"copper_thickness_um", InputType::Number, "µm", 5, 500, 1, 35.0},
             {.key = "over_plane",
              .type = InputType::Boolean,
              .unit = std::nullopt,
              .default_value = true},
             {"height_above_plane_mm", InputType::Number, "mm", 0.01, 20, 0.01, 0.254},
         });
  tool_test::expect_outputs(
      d, {
             {"partial_inductance_nh", OutputType::Number, "nH", 3},
             {"partial_inductance_nh_per_mm", OutputType::Number, "nH/mm", 4},
             {"over_plane_inductance_nh", OutputType::Number, "nH", 3},
             {"over_plane_inductance_nh_per_inch", OutputType::Number, "nH/in", 2},
         });
}

TEST(TraceInductance, PublishedExamples) {
  // Brooks (SI-LIST): 10 mil wide, 10 mil above the plane, about 9.2 nH/in.
  EXPECT_NEAR(
      outputs(body(25.4, 0.254, 35, true, 0.254)).number("over_plane_inductance_nh_per_inch"), 9.2,
      0.19);
}

TEST(TraceInductance, Properties) {
  std::mt19937 rng(1908);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int i = 0; i < 3000; ++i) {
    const double l = tool_test::draw_number(d.inputs[0], rng),
                 w = tool_test::draw_number(d.inputs[1], rng);
    const double t = tool_test::draw_number(d.inputs[2], rng),
                 h = tool_test::draw_number(d.inputs[4], rng);
    const auto r = compute_body(tool(), body(l, w, t, true, h));
    if (!std::holds_alternative<catalog::Outputs>(r)) continue;
    ++computed;
    const auto& o = std::get<catalog::Outputs>(r);
    // A plane return always lowers the inductance below the isolated partial inductance, and a
    // longer trace has more inductance per length (the log term grows).
    ASSERT_LT(o.number("over_plane_inductance_nh"), o.number("partial_inductance_nh"));
    if (l * 2 <= 1000) {
      ASSERT_GT(outputs(body(2 * l, w, t, true, h)).number("partial_inductance_nh_per_mm"),
                o.number("partial_inductance_nh_per_mm"));
    }
  }
  EXPECT_GT(computed, 500);
  // Without a plane, the plane outputs are zero and the height is not checked.
  const auto free = outputs(body(10, 0.5, 35, false, 0.01));
  EXPECT_EQ(free.number("over_plane_inductance_nh"), 0);
}

TEST(TraceInductance, RefusesGeometriesOutsideTheFormulas) {
  EXPECT_EQ(run_tool(tool(), body(1, 0.5, 35, false, 1)).substr(0, 20), "422:trace_length_mm:");
  EXPECT_EQ(run_tool(tool(), body(25.4, 0.5, 35, true, 0.2)).substr(0, 26),
            "422:height_above_plane_mm:");
}

}  // namespace
}  // namespace toolcalc::tools
