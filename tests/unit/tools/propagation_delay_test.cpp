// propagation-delay: descriptor, the published delays of docs/tools/propagation-delay.md and
// properties. The tool has no 422 condition.
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
  static const catalog::Tool t = make_propagation_delay();
  return t;
}

catalog::Outputs run(const char* type, double er, double length, double skew) {
  return std::get<catalog::Outputs>(compute_body(tool(), RequestBody()
                                                             .text("line_type", type)
                                                             .number("dielectric_constant", er)
                                                             .number("length_mm", length)
                                                             .number("skew_budget_ps", skew)
                                                             .json()));
}

TEST(PropagationDelay, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  tool_test::expect_inputs(d,
                           {
                               {.key = "line_type",
                                .type = InputType::Enum,
                                .unit = std::nullopt,
                                .default_value = std::string("stripline"),
                                .options = {"stripline", "microstrip", "effective"}},
                               {"dielectric_constant", InputType::Number, "", 1, 20, 0.01, 4.3},
                               {"length_mm", InputType::Number, "mm", 0.1, 10000, 0.1, 100.0},
                               {"skew_budget_ps", InputType::Number, "ps", 0.1, 100000, 0.1, 10.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"effective_dielectric_constant", OutputType::Number, "", 3},
                                   {"delay_ps_per_mm", OutputType::Number, "ps/mm", 3},
                                   {"delay_ps_per_inch", OutputType::Number, "ps/in", 2},
                                   {"velocity_factor", OutputType::Number, "", 4},
                                   {"delay_ps", OutputType::Number, "ps", 3},
                                   {"skew_length_mm", OutputType::Number, "mm", 3},
                                   {"skew_length_um", OutputType::Number, "µm", 2},
                               });
}

TEST(PropagationDelay, PublishedDelays) {
  // Ott's rules of thumb and Intel AN 958: about 180 ps/in for FR-4 (εr 4.5) stripline; Intel's
  // 85·√εr ps/in gives 85 ps/in in air.
  EXPECT_NEAR(run("stripline", 4.5, 25.4, 10).number("delay_ps_per_inch"), 180, 0.9);
  EXPECT_NEAR(run("stripline", 1, 25.4, 10).number("delay_ps_per_inch"), 85, 0.43);
  // MECL: microstrip t_pd = 1.017·√(0.475·εr + 0.67) ns/ft.
  EXPECT_NEAR(run("microstrip", 4.5, 304.8, 10).number("delay_ps"),
              1017 * std::sqrt(0.475 * 4.5 + 0.67), 1.0);
  EXPECT_DOUBLE_EQ(run("effective", 3.2, 10, 10).number("effective_dielectric_constant"), 3.2);
}

TEST(PropagationDelay, RoundTripAndScaling) {
  std::mt19937 rng(85);
  const auto& d = tool().descriptor;
  for (int i = 0; i < 2000; ++i) {
    const double er = tool_test::draw_number(d.inputs[1], rng);
    const double len = tool_test::draw_number(d.inputs[2], rng);
    const double skew = tool_test::draw_number(d.inputs[3], rng);
    for (const char* type : {"stripline", "microstrip", "effective"}) {
      const auto o = run(type, er, len, skew);
      // The matched-length difference delays by exactly the skew budget.
      ASSERT_NEAR(o.number("skew_length_mm") * o.number("delay_ps_per_mm"), skew, skew * 1e-12);
      ASSERT_NEAR(o.number("delay_ps"), len * o.number("delay_ps_per_mm"),
                  o.number("delay_ps") * 1e-12);
      ASSERT_NEAR(o.number("velocity_factor") * o.number("delay_ps_per_mm"), 1 / 0.299792458, 1e-9);
      ASSERT_LE(o.number("velocity_factor"), 1);
    }
    // A microstrip (partly in air) is faster than a stripline in the same laminate.
    // (0.475·εr + 0.67 ≤ εr from εr = 1.28 up.)
    if (er >= 1.28) {
      ASSERT_LE(run("microstrip", er, len, skew).number("delay_ps"),
                run("stripline", er, len, skew).number("delay_ps"));
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
