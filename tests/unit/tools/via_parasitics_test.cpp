// via-parasitics: descriptor, the published examples of docs/tools/via-parasitics.md,
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
  static const catalog::Tool t = make_via_parasitics();
  return t;
}

std::string body(double h, double d, double pad, double antipad, double er, double z0) {
  return RequestBody()
      .number("via_length_mm", h)
      .number("barrel_diameter_mm", d)
      .number("pad_diameter_mm", pad)
      .number("antipad_diameter_mm", antipad)
      .number("dielectric_constant", er)
      .number("line_impedance_ohm", z0)
      .json();
}

catalog::Outputs outputs(const std::string& b) {
  return std::get<catalog::Outputs>(compute_body(tool(), b));
}

TEST(ViaParasitics, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  tool_test::expect_inputs(d,
                           {
                               {"via_length_mm", InputType::Number, "mm", 0.1, 10, 0.01, 1.6},
                               {"barrel_diameter_mm", InputType::Number, "mm", 0.05, 2, 0.01, 0.3},
                               {"pad_diameter_mm", InputType::Number, "mm", 0.1, 3, 0.01, 0.6},
                               {"antipad_diameter_mm", InputType::Number, "mm", 0.2, 5, 0.01, 1.0},
                               {"dielectric_constant", InputType::Number, "", 1, 15, 0.01, 4.4},
                               {"line_impedance_ohm", InputType::Number, "Ω", 10, 200, 1, 50.0},
                           });
  tool_test::expect_outputs(d, {
                                   {"inductance_nh", OutputType::Number, "nH", 4},
                                   {"capacitance_pf", OutputType::Number, "pF", 4},
                                   {"capacitance_ff", OutputType::Number, "fF", 4},
                                   {"via_impedance_ohm", OutputType::Number, "Ω", 3},
                                   {"rise_time_capacitive_ps", OutputType::Number, "ps", 3},
                                   {"rise_time_capacitive_fs", OutputType::Number, "fs", 3},
                                   {"rise_time_inductive_ps", OutputType::Number, "ps", 3},
                               });
}

TEST(ViaParasitics, PublishedExamples) {
  // Altair Pollex: 0.157 cm board, 0.041 cm via → 1.2 nH.
  EXPECT_NEAR(outputs(body(1.57, 0.41, 0.71, 1.27, 4.7, 50)).number("inductance_nh"), 1.2, 0.06);
  // SI-LIST (Cantin): 1.41·4.7·0.063·0.028/(0.050 − 0.028) = 0.53 pF.
  EXPECT_NEAR(outputs(body(1.6002, 0.4, 0.7112, 1.27, 4.7, 50)).number("capacitance_pf"), 0.53,
              0.006);
}

TEST(ViaParasitics, Properties) {
  std::mt19937 rng(72);
  const auto& d = tool().descriptor;
  int computed = 0;
  for (int i = 0; i < 3000; ++i) {
    double v[6];
    for (int k = 0; k < 6; ++k) v[k] = tool_test::draw_number(d.inputs[k], rng);
    const auto r = compute_body(tool(), body(v[0], v[1], v[2], v[3], v[4], v[5]));
    if (!std::holds_alternative<catalog::Outputs>(r)) continue;
    ++computed;
    const auto& o = std::get<catalog::Outputs>(r);
    const double l = o.number("inductance_nh"), c = o.number("capacitance_pf");
    ASSERT_GT(l, 0);
    ASSERT_GT(c, 0);
    ASSERT_NEAR(o.number("via_impedance_ohm"), std::sqrt(l * 1e-9 / (c * 1e-12)),
                o.number("via_impedance_ohm") * 1e-12);
    // The two rise-time terms: 2.2·C·Z0/2 and 2.2·L/(2·Z0).
    ASSERT_NEAR(o.number("rise_time_capacitive_ps"), 1.1 * c * v[5], 1e-9 * c * v[5]);
    ASSERT_NEAR(o.number("rise_time_inductive_ps"), 1100 * l / v[5], 1e-9 * l / v[5] * 1000);
    // Capacitance grows with εr in proportion; inductance does not depend on it.
    const auto o2 = outputs(body(v[0], v[1], v[2], v[3], 1, v[5]));
    ASSERT_NEAR(c, o2.number("capacitance_pf") * v[4], c * 1e-12);
    ASSERT_DOUBLE_EQ(l, o2.number("inductance_nh"));
  }
  EXPECT_GT(computed, 300);
}

TEST(ViaParasitics, RefusesImpossibleGeometries) {
  EXPECT_EQ(run_tool(tool(), body(0.2, 0.3, 0.6, 1.0, 4.4, 50)).substr(0, 23),
            "422:barrel_diameter_mm:");
  EXPECT_EQ(run_tool(tool(), body(1.6, 0.5, 0.4, 1.0, 4.4, 50)).substr(0, 20),
            "422:pad_diameter_mm:");
  EXPECT_EQ(run_tool(tool(), body(1.6, 0.3, 0.6, 0.62, 4.4, 50)).substr(0, 24),
            "422:antipad_diameter_mm:");
}

}  // namespace
}  // namespace toolcalc::tools
