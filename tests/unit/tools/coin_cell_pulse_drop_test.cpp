// coin-cell-pulse-drop: descriptor, the published CR2032 examples of
// docs/tools/coin-cell-pulse-drop.md, the statuses, each 422, and properties over random
// valid inputs.
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
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_coin_cell_pulse_drop();
  return t;
}

std::string body(double voc, double r, double r_eol, double pulse_ma, double brownout) {
  return RequestBody()
      .number("open_circuit_voltage_v", voc)
      .number("internal_resistance_ohm", r)
      .number("end_of_life_resistance_ohm", r_eol)
      .number("pulse_current_ma", pulse_ma)
      .number("brownout_voltage_v", brownout)
      .json();
}

TEST(CoinCellPulseDrop, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "coin-cell-pulse-drop");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"open_circuit_voltage_v", InputType::Number, "V", 1, 4.2, 0.01, 3.0},
             {"internal_resistance_ohm", InputType::Number, "Ω", 1, 1000, 0.1, 20.0},
             {"end_of_life_resistance_ohm", InputType::Number, "Ω", 1, 1000, 0.1, 30.0},
             {"pulse_current_ma", InputType::Number, "mA", 1, 500, 0.1, 15.0},
             {"brownout_voltage_v", InputType::Number, "V", 0.5, 4, 0.01, 1.8},
         });
  tool_test::expect_outputs(d, {
                                   {"voltage_drop_mv", OutputType::Number, "mV", 2},
                                   {"loaded_voltage_v", OutputType::Number, "V", 3},
                                   {"eol_voltage_drop_mv", OutputType::Number, "mV", 2},
                                   {"eol_loaded_voltage_v", OutputType::Number, "V", 3},
                                   {"max_pulse_current_ma", OutputType::Number, "mA", 3},
                                   {"eol_max_pulse_current_ma", OutputType::Number, "mA", 3},
                                   {.key = "status",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"ok", "brown-out at end of life", "brown-out"}},
                               });
}

TEST(CoinCellPulseDrop, PublishedExamples) {
  // embedwise: 5 mA × 20 Ω = 100 mV; 40 mA × 20 Ω = 800 mV.
  EXPECT_EQ(result_field(run_tool(tool(), body(3, 20, 30, 5, 1.8)), "voltage_drop_mv"), "100.00");
  EXPECT_EQ(result_field(run_tool(tool(), body(3, 20, 30, 40, 1.8)), "voltage_drop_mv"), "800.00");
  // Interactive Matter: 3 V, 20 Ω, no more than 1.2 V of drop to stay above 1.8 V → 60 mA.
  const std::string r = run_tool(tool(), body(3, 20, 30, 60, 1.8));
  EXPECT_EQ(result_field(r, "max_pulse_current_ma"), "60.000");
  EXPECT_EQ(result_field(r, "loaded_voltage_v"), "1.800");
}

TEST(CoinCellPulseDrop, Statuses) {
  // The defaults: 15 mA from a 3.0 V CR2032 of 20 Ω, 30 Ω at end of life.
  EXPECT_EQ(
      run_tool(tool(), body(3, 20, 30, 15, 1.8)),
      expected_result(tool(), {"300.00", "2.700", "450.00", "2.550", "60.000", "40.000", "ok"}));
  // 50 mA: 2.0 V fresh, 1.5 V at 30 Ω.
  EXPECT_EQ(result_field(run_tool(tool(), body(3, 20, 30, 50, 1.8)), "status"),
            "brown-out at end of life");
  // 70 mA: 1.6 V fresh.
  EXPECT_EQ(result_field(run_tool(tool(), body(3, 20, 30, 70, 1.8)), "status"), "brown-out");
  // 140 mA through 20 Ω asks for 2.8 V of the 3 V: beyond 90 % of the short-circuit current,
  // reported as a collapse to 0 V.
  const std::string collapse = run_tool(tool(), body(3, 20, 30, 140, 1.8));
  EXPECT_EQ(result_field(collapse, "loaded_voltage_v"), "0.000");
  EXPECT_EQ(result_field(collapse, "eol_loaded_voltage_v"), "0.000");
  EXPECT_EQ(result_field(collapse, "status"), "brown-out");
}

TEST(CoinCellPulseDrop, ImpossibleCombinationsAre422) {
  EXPECT_EQ(run_tool(tool(), body(3, 20, 10, 15, 1.8)),
            "422:end_of_life_resistance_ohm:end_of_life_resistance_ohm (10.0 Ω) is below the "
            "fresh internal_resistance_ohm (20.0 Ω); a coin cell's resistance rises as it "
            "discharges, so enter at least the fresh value.");
  EXPECT_EQ(run_tool(tool(), body(3, 20, 30, 15, 2.95)),
            "422:brownout_voltage_v:brownout_voltage_v (2.950 V) leaves less than 0.1 V below "
            "the open-circuit voltage (3.000 V): the device browns out with almost no load. "
            "Enter a brown-out voltage at least 0.1 V below open_circuit_voltage_v.");
}

TEST(CoinCellPulseDrop, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(2032);
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const std::string b = tool_test::random_body(tool(), rng);
    const auto result = compute_body(tool(), b);
    if (!std::holds_alternative<catalog::Outputs>(result)) continue;
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    const double voc = std::stod(result_field(b, "open_circuit_voltage_v"));
    const double vbo = std::stod(result_field(b, "brownout_voltage_v"));
    const double i_ma = std::stod(result_field(b, "pulse_current_ma"));
    const double v = out.number("loaded_voltage_v");
    const double v_eol = out.number("eol_loaded_voltage_v");
    // Ohm's law, or a collapse to 0 V below a tenth of Voc.
    const double model = voc - out.number("voltage_drop_mv") / 1000;
    if (model < 0.1 * voc - 1e-12) {
      ASSERT_EQ(v, 0) << b;
    } else {
      ASSERT_NEAR(v, model, 1e-12) << b;
    }
    // End of life is never better than fresh.
    ASSERT_LE(v_eol, v);
    ASSERT_LE(out.number("eol_max_pulse_current_ma"), out.number("max_pulse_current_ma"));
    // The largest pulse lands exactly on the brown-out voltage.
    ASSERT_NEAR(
        voc - out.number("max_pulse_current_ma") * out.number("voltage_drop_mv") / i_ma / 1000, vbo,
        1e-9);
    const std::string status = out.text("status");
    ASSERT_EQ(status == "ok", i_ma <= out.number("eol_max_pulse_current_ma") * (1 + 1e-9)) << b;
    ASSERT_EQ(status == "brown-out", i_ma > out.number("max_pulse_current_ma") * (1 + 1e-9)) << b;
  }
  EXPECT_GT(computed, 1000);
}

}  // namespace
}  // namespace toolcalc::tools
