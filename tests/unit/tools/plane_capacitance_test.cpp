// plane-capacitance: descriptor, the published examples of docs/tools/plane-capacitance.md and
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
  static const catalog::Tool t = make_plane_capacitance();
  return t;
}

catalog::Outputs run(double l, double w, double d_um, double er) {
  return std::get<catalog::Outputs>(
      compute_body(tool(), RequestBody()
                               .number("overlap_length_mm", l)
                               .number("overlap_width_mm", w)
                               .number("dielectric_thickness_um", d_um)
                               .number("dielectric_constant", er)
                               .json()));
}

TEST(PlaneCapacitance, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  tool_test::expect_inputs(
      d, {
             {"overlap_length_mm", InputType::Number, "mm", 1, 1000, 1, 100.0},
             {"overlap_width_mm", InputType::Number, "mm", 1, 1000, 1, 100.0},
             {"dielectric_thickness_um", InputType::Number, "µm", 1, 3000, 1, 100.0},
             {"dielectric_constant", InputType::Number, "", 1, 100, 0.01, 4.3},
         });
  tool_test::expect_outputs(
      d, {
             {"capacitance_nf", OutputType::Number, "nF", 3},
             {"capacitance_pf", OutputType::Number, "pF", 4},
             {"capacitance_ff", OutputType::Number, "fF", 3},
             {"capacitance_pf_per_cm2", OutputType::Number, "pF/cm²", 3},
             {"capacitance_pf_per_in2", OutputType::Number, "pF/in²", 2},
             {"spreading_inductance_nh_per_square", OutputType::Number, "nH/sq", 4},
             {"spreading_inductance_ph_per_square", OutputType::Number, "pH/sq", 3},
         });
}

TEST(PlaneCapacitance, PublishedExamples) {
  // VEE OS ppCap(1 mm², 0.25 mm, 9.9) = 0.35 pF.
  EXPECT_NEAR(run(1, 1, 250, 9.9).number("capacitance_pf"), 0.35, 0.005);
  // Anderson (SI-LIST): planes 4 mil apart, about 0.13 nH per square.
  EXPECT_NEAR(run(100, 150, 101.6, 4).number("spreading_inductance_nh_per_square"), 0.13, 0.003);
}

TEST(PlaneCapacitance, Properties) {
  std::mt19937 rng(8854);
  const auto& d = tool().descriptor;
  for (int i = 0; i < 2000; ++i) {
    const double l = tool_test::draw_number(d.inputs[0], rng),
                 w = tool_test::draw_number(d.inputs[1], rng);
    const double t = tool_test::draw_number(d.inputs[2], rng),
                 er = tool_test::draw_number(d.inputs[3], rng);
    const auto o = run(l, w, t, er);
    // Total = per-area × area (1 cm² = 100 mm²); halving the gap doubles C.
    ASSERT_NEAR(o.number("capacitance_pf"), o.number("capacitance_pf_per_cm2") * l * w / 100,
                o.number("capacitance_pf") * 1e-12);
    if (t / 2 >= 1) {
      ASSERT_NEAR(run(l, w, t / 2, er).number("capacitance_pf"), 2 * o.number("capacitance_pf"),
                  o.number("capacitance_pf") * 1e-12);
    }
    // C·L per square = ε·µ0·area-free: ε0·εr·µ0 = εr/c².
    const double c_per_m2 = o.number("capacitance_pf_per_cm2") * 1e-12 * 1e4;
    const double l_sq = o.number("spreading_inductance_nh_per_square") * 1e-9;
    ASSERT_NEAR(c_per_m2 * l_sq, er / (299792458.0 * 299792458.0),
                er / (299792458.0 * 299792458.0) * 1e-9);
  }
}

}  // namespace
}  // namespace toolcalc::tools
