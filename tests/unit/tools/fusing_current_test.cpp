// fusing-current: descriptor, the published Onderdonk table of docs/tools/fusing-current.md
// and properties. The tool has no 422 condition.
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

const catalog::Tool& tool() {
  static const catalog::Tool t = make_fusing_current();
  return t;
}

catalog::Outputs run(double w_mm, double t_um, double s, double ta) {
  return std::get<catalog::Outputs>(compute_body(tool(), RequestBody()
                                                             .number("trace_width_mm", w_mm)
                                                             .number("copper_thickness_um", t_um)
                                                             .number("duration_s", s)
                                                             .number("ambient_c", ta)
                                                             .json()));
}

TEST(FusingCurrent, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  tool_test::expect_inputs(d,
                           {
                               {"trace_width_mm", InputType::Number, "mm", 0.05, 50, 0.01, 0.254},
                               {"copper_thickness_um", InputType::Number, "µm", 9, 500, 1, 35.0},
                               {"duration_s", InputType::Number, "s", 0.001, 10, 0.001, 1.0},
                               {"ambient_c", InputType::Number, "°C", -55, 150, 1, 25.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"fusing_current_a", OutputType::Number, "A", 4},
                                   {"cross_section_cmil", OutputType::Number, "cmil", 3},
                                   {"cross_section_mm2", OutputType::Number, "mm²", 6},
                                   {"i2t_a2s", OutputType::Number, "A²s", 4},
                               });
}

// pcbinsider.com's Onderdonk table for 1 oz copper at 1 s: width (mil) → cmil, fusing A.
TEST(FusingCurrent, PublishedOnderdonkTable) {
  const double rows[][3] = {{5, 9, 1.3},   {10, 18, 2.6},  {15, 26, 3.9},   {20, 35, 5.1},
                            {30, 53, 7.7}, {50, 88, 12.8}, {100, 175, 25.7}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row[0]);
    const auto o = run(row[0] * 0.0254, 35, 1, 25);
    EXPECT_NEAR(o.number("cross_section_cmil"), row[1], 0.5 + row[1] * 0.005);
    EXPECT_NEAR(o.number("fusing_current_a"), row[2], 0.05 + row[2] * 0.005);
  }
}

TEST(FusingCurrent, Properties) {
  std::mt19937 rng(1083);
  const auto& d = tool().descriptor;
  for (int i = 0; i < 2000; ++i) {
    const double w = tool_test::draw_number(d.inputs[0], rng);
    const double t = tool_test::draw_number(d.inputs[1], rng);
    const double s = tool_test::draw_number(d.inputs[2], rng);
    const double ta = tool_test::draw_number(d.inputs[3], rng);
    const auto o = run(w, t, s, ta);
    // I²·t is constant for a trace: four times the current fuses it in a sixteenth of the time.
    ASSERT_NEAR(o.number("fusing_current_a") * o.number("fusing_current_a") * s,
                o.number("i2t_a2s"), o.number("i2t_a2s") * 1e-12);
    // The current scales with the cross-section; a hotter start fuses with less.
    ASSERT_NEAR(run(2 * w > 50 ? w / 2 : 2 * w, t, s, ta).number("fusing_current_a"),
                o.number("fusing_current_a") * (2 * w > 50 ? 0.5 : 2),
                o.number("fusing_current_a") * 1e-12);
    if (ta + 10 <= 150) {
      ASSERT_LT(run(w, t, s, ta + 10).number("fusing_current_a"), o.number("fusing_current_a"));
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
