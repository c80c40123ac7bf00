// i2c-pullup-resistor: the descriptor table (standard UM10204), the worked examples of
// docs/tools/i2c-pullup-resistor.md (expected texts copied from that page), every 422, and
// properties over random valid inputs.
#include <gtest/gtest.h>

#include <algorithm>
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
  static const catalog::Tool t = make_i2c_pullup_resistor();
  return t;
}

std::string body(double vdd, double cb_pf, const char* mode) {
  return RequestBody()
      .number("vdd_v", vdd)
      .number("bus_capacitance_pf", cb_pf)
      .text("mode", mode)
      .json();
}

TEST(I2cPullupResistor, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "i2c-pullup-resistor");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "1.1.0");
  EXPECT_EQ(d.standard, "UM10204");
  tool_test::expect_inputs(d,
                           {
                               {"vdd_v", InputType::Number, "V", 1.2, 5.5, 0.1, 3.3},
                               {"bus_capacitance_pf", InputType::Number, "pF", 10, 550, 10, 200.0},
                               {.key = "mode",
                                .type = InputType::Enum,
                                .unit = std::nullopt,
                                .default_value = std::string("fast"),
                                .options = {"standard", "fast", "fast-plus"}},
                           });
  tool_test::expect_outputs(d, {
                                   {"rp_min_ohm", OutputType::Number, "Ω", 1},
                                   {"rp_max_ohm", OutputType::Number, "Ω", 1},
                                   {"vol_max_v", OutputType::Number, "V", 3},
                                   {"iol_ma", OutputType::Number, "mA", 0},
                                   {"rise_time_max_ns", OutputType::Number, "ns", 0},
                                   {"max_bus_capacitance_pf", OutputType::Number, "pF", 1},
                               });
}

// 0.2·VDD below 2 V printed with two decimals as 0.25 for 1.234 V (VOL = 0.2468 V): now three.
TEST(I2cPullupResistor, LowSupplyVolKeepsThreeDigits) {
  EXPECT_EQ(tool_test::result_field(run_tool(tool(), body(1.234, 100, "standard")), "vol_max_v"),
            "0.247");
}

TEST(I2cPullupResistor, RecordCarriesTheStandard) {
  const std::string record = catalog::render_record(tool().descriptor);
  EXPECT_NE(record.find(R"("standard":"UM10204")"), std::string::npos) << record;
  EXPECT_NE(
      record.find(R"("type":"enum","default":"fast","options":["standard","fast","fast-plus"]})"),
      std::string::npos)
      << record;
}

struct WorkedExample {
  const char* name;
  std::string body;
  // Rp(min), Rp(max), VOL, IOL, tr, max Cb
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/i2c-pullup-resistor.md, row by row (the 422
// rows are in the tests below).
TEST(I2cPullupResistor, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults (TI SLVA689 example)",
       body(3.3, 200, "fast"),
       {"966.7", "1770.3", "0.400", "3", "300", "366.3"}},
      {"2 every number at its minimum",
       body(1.2, 10, "standard"),
       {"480.0", "118022.0", "0.240", "2", "1000", "400.0"}},
      {"3 every number at its maximum",
       body(5.5, 550, "fast-plus"),
       {"255.0", "257.5", "0.400", "20", "120", "550.0"}},
      {"4 Standard-mode at its 400 pF limit",
       body(5, 400, "standard"),
       {"1533.3", "2950.5", "0.400", "3", "1000", "400.0"}},
      {"6 Fast-mode, Rp(max) just above Rp(min)",
       body(3.3, 366, "fast"),
       {"966.7", "967.4", "0.400", "3", "300", "366.3"}},
      {"9 VDD = 2.0 V: low-supply rule",
       body(2, 100, "fast"),
       {"800.0", "3540.7", "0.400", "2", "300", "400.0"}},
      {"10 VDD = 2.1 V: normal rule",
       body(2.1, 100, "fast"),
       {"566.7", "3540.7", "0.400", "3", "300", "400.0"}},
      {"11 1.8 V sensor bus, Standard-mode",
       body(1.8, 100, "standard"),
       {"720.0", "11802.2", "0.360", "2", "1000", "400.0"}},
      {"12 Fast-mode Plus at 1.8 V, 190 pF",
       body(1.8, 190, "fast-plus"),
       {"720.0", "745.4", "0.360", "2", "120", "196.7"}},
      {"14 Fast-mode Plus, 5 V, 500 pF",
       body(5, 500, "fast-plus"),
       {"230.0", "283.3", "0.400", "20", "120", "550.0"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(I2cPullupResistor, CapacitanceAboveTheModeLimitIs422) {  // doc row 5
  EXPECT_EQ(run_tool(tool(), body(5, 410, "standard")),
            "422:bus_capacitance_pf:bus_capacitance_pf of 410 pF is above the 400 pF UM10204 "
            "allows per line in Standard-mode (100 kHz); shorten the wiring or move devices to a "
            "second bus behind a buffer (e.g. PCA9515 or P82B96), or use Fast-mode Plus parts "
            "(550 pF)");
  // Checked before the resistor window: 401 pF in Fast-mode is refused for its size alone.
  EXPECT_EQ(run_tool(tool(), body(2.1, 401, "fast")),
            "422:bus_capacitance_pf:bus_capacitance_pf of 401 pF is above the 400 pF UM10204 "
            "allows per line in Fast-mode (400 kHz); shorten the wiring or move devices to a "
            "second bus behind a buffer (e.g. PCA9515 or P82B96), or use Fast-mode Plus parts "
            "(550 pF)");
  // The same load is fine in Fast-mode Plus, whose limit is 550 pF.
  EXPECT_EQ(run_tool(tool(), body(3.3, 410, "fast-plus")).front(), '{');
}

TEST(I2cPullupResistor, EmptyResistorWindowIs422) {  // doc rows 7, 8 and 13
  EXPECT_EQ(run_tool(tool(), body(3.3, 367, "fast")),
            "422:bus_capacitance_pf:at 3.3 V a Fast-mode (400 kHz) bus needs a pull-up of at "
            "least 966.7 Ω (VOL 0.40 V at 3 mA), but 367 pF allows at most 964.8 Ω for its 300 "
            "ns rise time: no resistor meets both; keep the bus at or below 366.3 pF, use a "
            "slower mode or an active pull-up / bus buffer");
  EXPECT_EQ(run_tool(tool(), body(3.3, 400, "fast")),
            "422:bus_capacitance_pf:at 3.3 V a Fast-mode (400 kHz) bus needs a pull-up of at "
            "least 966.7 Ω (VOL 0.40 V at 3 mA), but 400 pF allows at most 885.2 Ω for its 300 "
            "ns rise time: no resistor meets both; keep the bus at or below 366.3 pF, use a "
            "slower mode or an active pull-up / bus buffer");
  EXPECT_EQ(run_tool(tool(), body(1.8, 200, "fast-plus")),
            "422:bus_capacitance_pf:at 1.8 V a Fast-mode Plus (1 MHz) bus needs a pull-up of at "
            "least 720.0 Ω (VOL 0.36 V at 2 mA), but 200 pF allows at most 708.1 Ω for its 120 "
            "ns rise time: no resistor meets both; keep the bus at or below 196.7 pF, use a "
            "slower mode or an active pull-up / bus buffer");
}

TEST(I2cPullupResistor, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(3.3, 600, "fast")),
            "400:bus_capacitance_pf:bus_capacitance_pf must be at most 550");
  EXPECT_EQ(run_tool(tool(), body(3.3, 200, "high-speed")),
            "400:mode:mode must be one of: standard, fast, fast-plus");
  EXPECT_EQ(run_tool(tool(), R"({"vdd_v":3.3,"bus_capacitance_pf":200})"),
            "400:mode:mode is required");
}

TEST(I2cPullupResistor, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(10204);
  const auto& d = tool().descriptor;
  const char* modes[] = {"standard", "fast", "fast-plus"};
  const double rise_ns[] = {1000, 300, 120};
  const double cb_max[] = {400, 400, 550};
  int computed = 0;
  for (int draw = 0; draw < 4000; ++draw) {
    const double vdd = tool_test::draw_number(d.inputs[0], rng);
    const double cb = tool_test::draw_number(d.inputs[1], rng);
    const int m = std::uniform_int_distribution<int>(0, 2)(rng);
    const auto result = compute_body(tool(), body(vdd, cb, modes[m]));
    if (cb > cb_max[m]) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result)) << cb << " pF";
      ASSERT_EQ(std::get<catalog::ToolError>(result).field, "bus_capacitance_pf");
      continue;
    }
    // The window is empty exactly when Rp(min) > Rp(max).
    const double vol = vdd > 2 ? 0.4 : 0.2 * vdd;
    const double iol = vdd > 2 ? (m == 2 ? 20 : 3) : 2;
    const double rp_min = (vdd - vol) / (iol / 1000);
    const double rp_max = rise_ns[m] * 1e-9 / (0.8473 * cb * 1e-12);
    if (std::fabs(rp_min - rp_max) < 1e-9 * rp_max) continue;  // too close to call from outside
    ASSERT_EQ(std::holds_alternative<catalog::ToolError>(result), rp_min > rp_max)
        << vdd << " V, " << cb << " pF, " << modes[m];
    if (rp_min > rp_max) {
      ASSERT_EQ(std::get<catalog::ToolError>(result).field, "bus_capacitance_pf");
      continue;
    }
    ++computed;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    ASSERT_LE(out.number("rp_min_ohm"), out.number("rp_max_ohm"));
    ASSERT_NEAR(out.number("rp_min_ohm"), rp_min, 1e-9 * rp_min);
    ASSERT_NEAR(out.number("rp_max_ohm"), rp_max, 1e-9 * rp_max);
    // The bus in hand always fits under the reported largest capacitance.
    ASSERT_LE(cb, out.number("max_bus_capacitance_pf") * (1 + 1e-9));
    ASSERT_LE(out.number("max_bus_capacitance_pf"), cb_max[m]);
    // More capacitance only ever lowers Rp(max); Rp(min) does not depend on it.
    const double more = std::min(cb * 1.5, cb_max[m]);
    const auto heavier = compute_body(tool(), body(vdd, more, modes[m]));
    if (const auto* h = std::get_if<catalog::Outputs>(&heavier)) {
      ASSERT_LE(h->number("rp_max_ohm"), out.number("rp_max_ohm"));
      ASSERT_EQ(h->number("rp_min_ohm"), out.number("rp_min_ohm"));
    }
  }
  EXPECT_GT(computed, 1500);
}

}  // namespace
}  // namespace toolcalc::tools
