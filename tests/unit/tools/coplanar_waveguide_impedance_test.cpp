// coplanar-waveguide-impedance: descriptor, the AppCAD values of
// docs/tools/coplanar-waveguide-impedance.md, properties, and the 422 cases.
#include <gtest/gtest.h>

#include <algorithm>
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

constexpr double kMil = 0.0254;  // mm

const catalog::Tool& tool() {
  static const catalog::Tool t = make_coplanar_waveguide_impedance();
  return t;
}

std::string body(bool grounded, double w, double s, double h, double t_um, double er) {
  return RequestBody()
      .boolean("bottom_ground", grounded)
      .number("trace_width_mm", w)
      .number("gap_mm", s)
      .number("dielectric_height_mm", h)
      .number("copper_thickness_um", t_um)
      .number("dielectric_constant", er)
      .json();
}

catalog::Outputs outputs(const std::string& b) {
  return std::get<catalog::Outputs>(compute_body(tool(), b));
}

TEST(CoplanarWaveguideImpedance, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.standard, std::nullopt);
  tool_test::expect_inputs(
      d, {
             {.key = "bottom_ground",
              .type = InputType::Boolean,
              .unit = std::nullopt,
              .default_value = true},
             {"trace_width_mm", InputType::Number, "mm", 0.01, 20, 0.01, 0.3},
             {"gap_mm", InputType::Number, "mm", 0.01, 20, 0.01, 0.15},
             {"dielectric_height_mm", InputType::Number, "mm", 0.02, 10, 0.01, 0.2},
             {"copper_thickness_um", InputType::Number, "µm", 0, 200, 1, 35.0},
             {"dielectric_constant", InputType::Number, "", 1, 20, 0.01, 4.3},
         });
  tool_test::expect_outputs(d, {
                                   {"z0_ohm", OutputType::Number, "Ω", 2},
                                   {"effective_dielectric_constant", OutputType::Number, "", 3},
                                   {"propagation_delay_ps_per_mm", OutputType::Number, "ps/mm", 3},
                               });
}

// Agilent AppCAD v3.0.2 as recorded in wcalc's benchmarks/freefem/coplanar.dat: a 10 mil trace
// with 5 mil gaps on 25 mil of substrate, metal from 1e-6 to 1 mil thick. Where the strip is
// thin, or the line is in air, the model and AppCAD agree to AppCAD's three digits.
struct AppCadRow {
  double er;
  bool grounded;
  double t_mil;
  double z0, keff;
};

constexpr AppCadRow kAppCad[] = {
    {1.0, false, 1e-6, 120.6, 1.0}, {1.0, false, 0.1, 117.2, 1.0}, {1.0, false, 0.5, 106.9, 1.0},
    {1.0, false, 1.0, 95.5, 1.0},   {1.0, true, 1e-6, 117.4, 1.0}, {1.0, true, 0.1, 115.7, 1.0},
    {1.0, true, 0.5, 110.5, 1.0},   {1.0, true, 1.0, 104.1, 1.0},  {4.8, false, 1e-6, 71.4, 2.85},
    {4.8, true, 1e-6, 68.3, 2.95},
};

TEST(CoplanarWaveguideImpedance, ReproducesAppCad) {
  for (const auto& row : kAppCad) {
    SCOPED_TRACE(testing::Message() << "er " << row.er << (row.grounded ? " grounded" : "") << " t "
                                    << row.t_mil << " mil");
    const auto o = outputs(
        body(row.grounded, 10 * kMil, 5 * kMil, 25 * kMil, row.t_mil * kMil * 1000, row.er));
    EXPECT_NEAR(o.number("z0_ohm"), row.z0, row.z0 * 0.002);
    EXPECT_NEAR(o.number("effective_dielectric_constant"), row.keff, 0.005);
  }
}

// With εr 4.8 and thick metal AppCAD lowers εeff about half as much as the published
// correction the tool follows (Gupta et al., as KiCad); the docs page compares both with a 2-D
// field solution. The direction and the size of the effect agree.
TEST(CoplanarWaveguideImpedance, ThickCopperLowersImpedanceAndPermittivityAsAppCadDoes) {
  constexpr AppCadRow kThick[] = {
      {4.8, false, 0.1, 69.6, 2.83}, {4.8, false, 0.5, 64.2, 2.77}, {4.8, false, 1.0, 58.1, 2.70},
      {4.8, true, 0.1, 67.9, 2.91},  {4.8, true, 0.5, 66.5, 2.76},  {4.8, true, 1.0, 64.7, 2.59},
  };
  for (const auto& row : kThick) {
    SCOPED_TRACE(testing::Message() << (row.grounded ? "grounded" : "") << " t " << row.t_mil);
    const auto thin = outputs(body(row.grounded, 10 * kMil, 5 * kMil, 25 * kMil, 0, 4.8));
    const auto o =
        outputs(body(row.grounded, 10 * kMil, 5 * kMil, 25 * kMil, row.t_mil * kMil * 1000, 4.8));
    EXPECT_LT(o.number("z0_ohm"), thin.number("z0_ohm"));
    EXPECT_LT(o.number("effective_dielectric_constant"),
              thin.number("effective_dielectric_constant"));
    EXPECT_NEAR(o.number("z0_ohm"), row.z0, row.z0 * 0.03);
    EXPECT_NEAR(o.number("effective_dielectric_constant"), row.keff, row.keff * 0.06);
  }
}

// Limiting cases of the conformal mapping: in air (εr 1) εeff is 1; with no bottom plane and
// a substrate deep next to the line, half the field is in the dielectric, εeff → (εr + 1)/2,
// and Z0 → η0/4 · K'(k)/K(k)/√εeff (Wen 1969) — for w = 2s (k = 1/2) K'/K = 1.279261.
TEST(CoplanarWaveguideImpedance, LimitingCases) {
  const auto air = outputs(body(true, 0.3, 0.15, 0.2, 35, 1));
  EXPECT_NEAR(air.number("effective_dielectric_constant"), 1, 1e-12);
  const auto deep = outputs(body(false, 0.02, 0.01, 10, 0, 4.4));
  EXPECT_NEAR(deep.number("effective_dielectric_constant"), 2.7, 1e-5);
  EXPECT_NEAR(deep.number("z0_ohm"), 376.730313668 / 4 * 1.279261 / std::sqrt(2.7), 0.001);
}

TEST(CoplanarWaveguideImpedance, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1984);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int draw = 0; draw < 3000; ++draw) {
    const bool grounded = rng() & 1;
    const double w = tool_test::draw_number(d.inputs[1], rng);
    const double s = tool_test::draw_number(d.inputs[2], rng);
    const double h = tool_test::draw_number(d.inputs[3], rng);
    const double t = std::uniform_real_distribution<double>(0, std::min(200.0, 200 * s))(rng);
    const double er = tool_test::draw_number(d.inputs[5], rng);
    const auto r = compute_body(tool(), body(grounded, w, s, h, t, er));
    if (!std::holds_alternative<catalog::Outputs>(r)) continue;
    ++computed;
    const auto& o = std::get<catalog::Outputs>(r);
    const double e_eff = o.number("effective_dielectric_constant");
    ASSERT_GE(e_eff, 1 - 1e-12);
    ASSERT_LE(e_eff, er + 1e-12);
    // Without a bottom plane at most the lower half-space is dielectric.
    if (!grounded) {
      ASSERT_LE(e_eff, (er + 1) / 2 + 1e-12);
    }
    ASSERT_GT(o.number("z0_ohm"), 0);
    // With a thin strip (the thickness correction is an approximation, and near t = s/4 it
    // can bend these by a fraction of a per cent): a wider gap raises the impedance, and a
    // bottom plane, which adds capacitance, lowers it.
    const double z_thin = outputs(body(grounded, w, s, h, 0, er)).number("z0_ohm");
    if (s * 1.2 <= 20) {
      ASSERT_GT(outputs(body(grounded, w, s * 1.2, h, 0, er)).number("z0_ohm"), z_thin);
    }
    if (w / h <= 20) {
      const auto with_plane = outputs(body(true, w, s, h, 0, er));
      const auto without = outputs(body(false, w, s, h, 0, er));
      ASSERT_LT(with_plane.number("z0_ohm"), without.number("z0_ohm"));
    }
  }
  EXPECT_GT(computed, 1500);
}

TEST(CoplanarWaveguideImpedance, RefusesGeometriesOutsideTheModel) {
  // A 5 mm strip over 0.2 mm to a plane: w/h = 25, a microstrip.
  EXPECT_EQ(run_tool(tool(), body(true, 5, 0.2, 0.2, 35, 4.3)).substr(0, 19),
            "422:trace_width_mm:");
  // Without the plane the same strip is a CPW on a thin substrate.
  EXPECT_EQ(run_tool(tool(), body(false, 5, 0.2, 0.2, 35, 4.3)).front(), '{');
  // 50 µm of copper in a 0.15 mm gap: t/s = 0.33.
  EXPECT_EQ(run_tool(tool(), body(true, 0.3, 0.15, 0.2, 50, 4.3)).substr(0, 24),
            "422:copper_thickness_um:");
  // t/s = 0.25, but a 20 mm strip: the correction's widening would close the 0.1 mm gap.
  EXPECT_EQ(run_tool(tool(), body(false, 20, 0.1, 1, 25, 4.3)).substr(0, 24),
            "422:copper_thickness_um:");
}

}  // namespace
}  // namespace toolcalc::tools
