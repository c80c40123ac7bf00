// attenuator-pad: descriptor table, published pad tables (besides the verification vectors,
// which all_tools_test.cpp checks), and properties over random valid inputs: an exact pad is
// matched (Z_in = Z0) and has the requested loss. The tool has no 422 condition.
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
  static const catalog::Tool t = make_attenuator_pad();
  return t;
}

catalog::Outputs pad(double db, double z0, const char* topology, const char* series = "E96") {
  const auto result = compute_body(tool(), RequestBody()
                                               .number("attenuation_db", db)
                                               .number("impedance_ohm", z0)
                                               .text("topology", topology)
                                               .text("e_series", series)
                                               .json());
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result));
  return std::get<catalog::Outputs>(result);
}

TEST(AttenuatorPad, DescriptorTable) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "attenuator-pad");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  // The help says how "nearest" is measured (on a log scale, as the docs page does).
  EXPECT_NE(d.inputs[3].help->find("logarithmic scale"), std::string::npos);
  tool_test::expect_inputs(d, {
                                  {"attenuation_db", InputType::Number, "dB", 0.1, 60, 0.1, 6.0},
                                  {"impedance_ohm", InputType::Number, "Ω", 10, 10000, 1, 50.0},
                                  {.key = "topology",
                                   .type = InputType::Enum,
                                   .unit = std::nullopt,
                                   .default_value = std::string("pi"),
                                   .options = {"pi", "tee"}},
                                  {.key = "e_series",
                                   .type = InputType::Enum,
                                   .unit = std::nullopt,
                                   .default_value = std::string("E96"),
                                   .required = false,
                                   .options = {"E12", "E24", "E96"}},
                              });
  tool_test::expect_outputs(d, {
                                   {"voltage_ratio", OutputType::Number, "", 4},
                                   {"series_ohm", OutputType::Number, "Ω", 4},
                                   {"shunt_ohm", OutputType::Number, "Ω", 4},
                                   {"series_e_ohm", OutputType::Number, "Ω", 4},
                                   {"shunt_e_ohm", OutputType::Number, "Ω", 4},
                                   {"e_attenuation_db", OutputType::Number, "dB", 4},
                                   {"e_input_impedance_ohm", OutputType::Number, "Ω", 3},
                               });
}

// Electronics Notes, "RF Attenuator Resistor Values Table" (50 Ω): T R1/R2 and π R3/R4 for
// 1, 2 dB; the brief's 3 dB π (292.4 / 17.6 Ω); the 600 Ω scaling of the vias.org text
// (multiply the 50 Ω values by 600/50).
TEST(AttenuatorPad, PublishedTables) {
  const auto t1 = pad(1, 50, "tee"), p1 = pad(1, 50, "pi");
  EXPECT_NEAR(t1.number("series_ohm"), 2.9, 0.05);
  EXPECT_NEAR(t1.number("shunt_ohm"), 433, 0.5);
  EXPECT_NEAR(p1.number("shunt_ohm"), 870, 0.5);
  EXPECT_NEAR(p1.number("series_ohm"), 5.8, 0.05);
  const auto t2 = pad(2, 50, "tee"), p2 = pad(2, 50, "pi");
  EXPECT_NEAR(t2.number("series_ohm"), 5.7, 0.05);
  EXPECT_NEAR(t2.number("shunt_ohm"), 215, 0.5);
  EXPECT_NEAR(p2.number("shunt_ohm"), 436, 0.5);
  EXPECT_NEAR(p2.number("series_ohm"), 11.6, 0.05);
  const auto p3 = pad(3, 50, "pi");
  EXPECT_NEAR(p3.number("shunt_ohm"), 292.4, 0.05);
  EXPECT_NEAR(p3.number("series_ohm"), 17.6, 0.05);
  const auto t10 = pad(10, 600, "tee");
  EXPECT_NEAR(t10.number("series_ohm"), 25.97 * 12, 0.01 * 12);
  EXPECT_NEAR(t10.number("shunt_ohm"), 35.14 * 12, 0.01 * 12);
}

TEST(AttenuatorPad, PreferredValuesAndTheirLoss) {
  // 3 dB π in 50 Ω: 292.4 → 294 (E96), 17.61 → 17.8; E12: 270 and 18.
  const auto e96 = pad(3, 50, "pi", "E96");
  EXPECT_DOUBLE_EQ(e96.number("shunt_e_ohm"), 294);
  EXPECT_DOUBLE_EQ(e96.number("series_e_ohm"), 17.8);
  const auto e12 = pad(3, 50, "pi", "E12");
  EXPECT_DOUBLE_EQ(e12.number("shunt_e_ohm"), 270);
  EXPECT_DOUBLE_EQ(e12.number("series_e_ohm"), 18);
  // Rounding moves the loss and the match only a little.
  EXPECT_NEAR(e96.number("e_attenuation_db"), 3, 0.05);
  EXPECT_NEAR(e96.number("e_input_impedance_ohm"), 50, 0.5);
}

// With the exact resistors, a pad terminated in Z0 presents Z0 at its input and loses exactly
// the requested attenuation (network analysis written out here independently of the tool's
// own check of its preferred values), and the π and T pads of one attenuation are duals.
TEST(AttenuatorPad, ExactPadsAreMatchedOverRandomInputs) {
  std::mt19937 rng(60063);
  const auto& d = tool().descriptor;
  for (int i = 0; i < 3000; ++i) {
    const double db = tool_test::draw_number(d.inputs[0], rng);
    const double z0 = tool_test::draw_number(d.inputs[1], rng);
    const bool pi = i % 2 == 0;
    const auto out = pad(db, z0, pi ? "pi" : "tee");
    const double rs = out.number("series_ohm"), rp = out.number("shunt_ohm");
    double zin = 0, vout_over_vin = 0;
    if (pi) {
      const double load = rp * z0 / (rp + z0);
      const double through = rs + load;
      zin = rp * through / (rp + through);
      vout_over_vin = load / through;
    } else {
      const double arm = rs + z0;
      const double middle = rp * arm / (rp + arm);
      zin = rs + middle;
      vout_over_vin = middle / zin * z0 / arm;
    }
    ASSERT_NEAR(zin, z0, 1e-9 * z0) << db << " dB " << (pi ? "pi" : "tee");
    ASSERT_NEAR(-20 * std::log10(vout_over_vin), db, 1e-9 * (1 + db));
    ASSERT_NEAR(out.number("voltage_ratio"), std::pow(10.0, db / 20),
                1e-9 * std::pow(10.0, db / 20));
    // π and T are duals: Rs_T · Rp_π = Rs_π · Rp_T = Z0².
    if (pi) {
      const auto tee = pad(db, z0, "tee");
      ASSERT_NEAR(tee.number("series_ohm") * rp, z0 * z0, 1e-9 * z0 * z0);
      ASSERT_NEAR(rs * tee.number("shunt_ohm"), z0 * z0, 1e-9 * z0 * z0);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
