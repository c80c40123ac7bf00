// stripline-impedance: descriptor, the published field-solver values of
// docs/tools/stripline-impedance.md, properties over random valid inputs, and the 422 cases.
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
  static const catalog::Tool t = make_stripline_impedance();
  return t;
}

std::string body(double w, double b, double t_um, double er) {
  return RequestBody()
      .number("trace_width_mm", w)
      .number("plane_spacing_mm", b)
      .number("copper_thickness_um", t_um)
      .number("dielectric_constant", er)
      .json();
}

catalog::Outputs outputs(const std::string& b) {
  return std::get<catalog::Outputs>(compute_body(tool(), b));
}

TEST(StriplineImpedance, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "stripline-impedance");
  EXPECT_EQ(d.domain, "pcb-design");
  EXPECT_EQ(d.standard, std::nullopt);
  tool_test::expect_inputs(d,
                           {
                               {"trace_width_mm", InputType::Number, "mm", 0.01, 50, 0.01, 0.15},
                               {"plane_spacing_mm", InputType::Number, "mm", 0.02, 50, 0.01, 0.5},
                               {"copper_thickness_um", InputType::Number, "µm", 0, 500, 1, 17.5},
                               {"dielectric_constant", InputType::Number, "", 1, 15, 0.01, 4.2},
                           });
  tool_test::expect_outputs(d,
                            {
                                {"z0_ohm", OutputType::Number, "Ω", 2},
                                {"effective_dielectric_constant", OutputType::Number, "", 3},
                                {"propagation_delay_ps_per_mm", OutputType::Number, "ps/mm", 3},
                                {"propagation_delay_ps_per_inch", OutputType::Number, "ps/in", 2},
                                {"capacitance_pf_per_m", OutputType::Number, "pF/m", 2},
                                {"inductance_nh_per_m", OutputType::Number, "nH/m", 1},
                            });
}

// atlc's test suite: a thin strip, w/b = 68/201, in air gives 122.44 Ω; a 20 × 20 conductor in
// a box 100 high gives 340.8 nH/m.
TEST(StriplineImpedance, ReproducesTheFieldSolverCases) {
  EXPECT_NEAR(outputs(body(0.68, 2.01, 0, 1)).number("z0_ohm"), 122.44, 122.44 * 0.005);
  EXPECT_NEAR(outputs(body(0.2, 1, 200, 1)).number("inductance_nh_per_m"), 340.8, 340.8 * 0.015);
}

// Cohn's exact zero-thickness solution Z0 = 30π/√εr·K(k)/K(k′), k = sech(πw/2b), which
// Wheeler's formula follows within 0.5 % up to w/b = 10.
double cohn_exact(double w_over_b, double er) {
  auto complete_k = [](double k) {
    double a = 1, b = std::sqrt(1 - k * k);
    for (int i = 0; i < 30; ++i) {
      const double a1 = (a + b) / 2;
      b = std::sqrt(a * b);
      a = a1;
    }
    return std::acos(-1.0) / (2 * a);
  };
  const double k = 1 / std::cosh(std::acos(-1.0) * w_over_b / 2);
  return 30 * std::acos(-1.0) / std::sqrt(er) * complete_k(k) / complete_k(std::sqrt(1 - k * k));
}

TEST(StriplineImpedance, ThinStripFollowsCohnsExactSolution) {
  for (double wb : {0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0}) {
    SCOPED_TRACE(wb);
    const double z = outputs(body(wb, 1, 0, 2.2)).number("z0_ohm");
    EXPECT_NEAR(z, cohn_exact(wb, 2.2), cohn_exact(wb, 2.2) * 0.005);
  }
}

TEST(StriplineImpedance, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(2141);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 3000; ++draw) {
    const double w = tool_test::draw_number(d.inputs[0], rng);
    const double b = tool_test::draw_number(d.inputs[1], rng);
    const double t = tool_test::draw_number(d.inputs[2], rng);
    const double er = tool_test::draw_number(d.inputs[3], rng);
    const auto r = compute_body(tool(), body(w, b, t, er));
    if (!std::holds_alternative<catalog::Outputs>(r)) continue;
    ++computed;
    const auto& o = std::get<catalog::Outputs>(r);
    const double z = o.number("z0_ohm");
    ASSERT_TRUE(std::isfinite(z) && z > 0);
    // Z0 = √(L/C) and 1/√(LC) = c/√εr, whatever the geometry.
    const double l = o.number("inductance_nh_per_m") * 1e-9,
                 c = o.number("capacitance_pf_per_m") * 1e-12;
    ASSERT_NEAR(std::sqrt(l / c), z, z * 1e-9);
    // A wider trace lowers the impedance; a higher εr lowers it as 1/√εr.
    if (w * 1.1 <= 50) {
      const auto wider = compute_body(tool(), body(w * 1.1, b, t, er));
      if (std::holds_alternative<catalog::Outputs>(wider)) {
        ASSERT_LT(std::get<catalog::Outputs>(wider).number("z0_ohm"), z);
      }
    }
    ASSERT_NEAR(outputs(body(w, b, t, 1)).number("z0_ohm") / std::sqrt(er), z, z * 1e-9);
  }
  EXPECT_GT(computed, 1000);
}

TEST(StriplineImpedance, RefusesGeometriesOutsideTheFormula) {
  EXPECT_EQ(run_tool(tool(), body(0.15, 0.1, 30, 4.2)).substr(0, 24), "422:copper_thickness_um:");
  EXPECT_EQ(run_tool(tool(), body(6, 0.5, 17.5, 4.2)).substr(0, 19), "422:trace_width_mm:");
}

}  // namespace
}  // namespace toolcalc::tools
