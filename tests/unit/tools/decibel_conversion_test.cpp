// decibel-conversion: descriptor table, published conversions (besides the verification
// vectors, which all_tools_test.cpp checks), round trips over random valid inputs, and the
// 422 cases.
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
using tool_test::RequestBody;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_decibel_conversion();
  return t;
}

catalog::Outputs outputs(const std::string& body) {
  auto result = compute_body(tool(), body);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result)) << body;
  return std::get<catalog::Outputs>(result);
}

std::string from_db(const char* quantity, double level, double impedance = 50) {
  return RequestBody()
      .text("quantity", quantity)
      .text("direction", "from-db")
      .number("level_db", level)
      .number("impedance_ohm", impedance)
      .json();
}

TEST(DecibelConversion, DescriptorTable) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "decibel-conversion");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_EQ(d.standard, "IEC 60027-3:2002");
  tool_test::expect_inputs(
      d, {
             {.key = "quantity",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("power-ratio"),
              .options = {"power-ratio", "amplitude-ratio", "dBm", "dBW", "dBV", "dBu"}},
             {.key = "direction",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("to-db"),
              .options = {"to-db", "from-db"}},
             {"level_db", InputType::Number, "dB", -120, 120, 0.01, 3.0, false},
             {"ratio", InputType::Number, "", 1e-12, 1e12, 0.001, 2.0, false},
             {"power_w", InputType::Number, "W", 1e-15, 1e12, 0.001, 0.001, false},
             {"voltage_v", InputType::Number, "V", 1e-7, 1e7, 0.001, 1.0, false},
             {"impedance_ohm", InputType::Number, "Ω", 1, 10000, 1, 50.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {"level_db", OutputType::Number, "dB", 3},
                                   {"power_ratio", OutputType::Number, "", 4},
                                   {"amplitude_ratio", OutputType::Number, "", 8},
                                   {"power_w", OutputType::Number, "W", 4},
                                   {"power_pw", OutputType::Number, "pW", 7},
                                   {"voltage_v", OutputType::Number, "V", 4},
                                   {"voltage_uv", OutputType::Number, "µV", 4},
                                   {"dbm", OutputType::Number, "dBm", 3},
                                   {"dbv", OutputType::Number, "dBV", 3},
                                   {"dbu", OutputType::Number, "dBu", 3},
                               });
}

// Published values other than the descriptor's vectors. Each row: the source's number and
// its printed rounding.
TEST(DecibelConversion, PublishedTables) {
  // Delta (shopdelta.eu), "dBm – logarithmic power unit", Table 2: 14 dBm = 25,119 mW,
  // 18 dBm = 63,096 mW, 26 dBm = 398,107 mW.
  EXPECT_NEAR(outputs(from_db("dBm", 14)).number("power_w"), 0.025119, 0.0000005);
  EXPECT_NEAR(outputs(from_db("dBm", 18)).number("power_w"), 0.063096, 0.0000005);
  EXPECT_NEAR(outputs(from_db("dBm", 26)).number("power_w"), 0.398107, 0.0000005);
  // "Conversion of dBm to mW, Veff, Vp, Vpp" (50 Ω): 0 dBm = 223.6 mV, −20 dBm = 22.4 mV,
  // 13 dBm = 19.95 mW and 1.00 V.
  EXPECT_NEAR(outputs(from_db("dBm", 0)).number("voltage_uv"), 223600, 50);
  EXPECT_NEAR(outputs(from_db("dBm", -20)).number("voltage_uv"), 22400, 50);
  EXPECT_NEAR(outputs(from_db("dBm", 13)).number("power_w"), 0.01995, 0.000005);
  EXPECT_NEAR(outputs(from_db("dBm", 13)).number("voltage_v"), 1.00, 0.005);
  // WB6WUI, "All about dB": 0.1 dB = power ratio 1.023, voltage ratio 1.012.
  EXPECT_NEAR(outputs(from_db("power-ratio", 0.1)).number("power_ratio"), 1.023, 0.0005);
  EXPECT_NEAR(outputs(from_db("power-ratio", 0.1)).number("amplitude_ratio"), 1.012, 0.0005);
  // cinema8.com, "Line level": 0 dBu = 0.775 V, +4 dBu = 1.228 V, −10 dBV = 0.316 V, and the
  // two reference levels are 11.79 dB apart (with 0.775 V; 11.78 with 0.7746 V).
  EXPECT_NEAR(outputs(from_db("dBu", 0)).number("voltage_v"), 0.775, 0.0005);
  EXPECT_NEAR(outputs(from_db("dBu", 4)).number("voltage_v"), 1.228, 0.0005);
  const auto consumer = outputs(from_db("dBV", -10));
  EXPECT_NEAR(4 - consumer.number("dbu"), 11.79, 0.01);
  // J. Vautin, "+4 dBu / -10 dBV": +4 dBu = +1.8 dBV.
  EXPECT_NEAR(outputs(from_db("dBu", 4)).number("dbv"), 1.8, 0.05);
  // STX manual, Table 5: 0.7746 V across 600 Ω is 1 mW (0 dBu = 0 dBm at 600 Ω).
  EXPECT_NEAR(outputs(from_db("dBu", 0, 600)).number("dbm"), 0, 0.001);
}

TEST(DecibelConversion, RatiosHaveNoAbsoluteLevel) {
  const auto out = outputs(from_db("amplitude-ratio", 20));
  EXPECT_DOUBLE_EQ(out.number("amplitude_ratio"), 10);
  EXPECT_DOUBLE_EQ(out.number("power_ratio"), 100);
  for (const char* key : {"power_w", "power_pw", "voltage_v", "voltage_uv", "dbm", "dbv", "dbu"})
    EXPECT_EQ(out.number(key), 0) << key;
}

// to-db then from-db returns the linear value; a dB level is the same for power and
// amplitude (10·lg p = 20·lg a); dBW is dBm − 30.
TEST(DecibelConversion, RoundTripsOverRandomInputs) {
  std::mt19937 rng(60027);
  std::uniform_real_distribution<double> level(-119, 119), unit(0, 1);
  const std::vector<std::string> kinds = {"power-ratio", "amplitude-ratio", "dBm", "dBW", "dBV",
                                          "dBu"};
  for (int i = 0; i < 3000; ++i) {
    const std::string& kind = kinds[i % kinds.size()];
    const double l = level(rng);
    const double z = std::pow(10.0, 4 * unit(rng));
    const auto there = outputs(from_db(kind.c_str(), l, z));
    ASSERT_NEAR(10 * std::log10(there.number("power_ratio")), l, 1e-9);
    ASSERT_NEAR(20 * std::log10(there.number("amplitude_ratio")), l, 1e-9);
    RequestBody back;
    back.text("quantity", kind).text("direction", "to-db").number("impedance_ohm", z);
    if (kind == "power-ratio") back.number("ratio", there.number("power_ratio"));
    if (kind == "amplitude-ratio") back.number("ratio", there.number("amplitude_ratio"));
    if (kind == "dBm" || kind == "dBW") back.number("power_w", there.number("power_w"));
    if (kind == "dBV" || kind == "dBu") back.number("voltage_v", there.number("voltage_v"));
    const auto again = outputs(back.json());
    ASSERT_NEAR(again.number("level_db"), l, 1e-9) << kind;
    if (kind == "dBW") {
      ASSERT_NEAR(there.number("dbm"), l + 30, 1e-9);
    }
    if (kind != "power-ratio" && kind != "amplitude-ratio") {
      // P = V²/R whichever side was entered.
      ASSERT_NEAR(there.number("power_w") * z,
                  there.number("voltage_v") * there.number("voltage_v"),
                  1e-9 * there.number("power_w") * z);
    }
  }
}

TEST(DecibelConversion, LevelsBeyond120DbAreRefused) {
  // An amplitude ratio of 1e7 is 140 dB.
  const std::string amp = RequestBody()
                              .text("quantity", "amplitude-ratio")
                              .text("direction", "to-db")
                              .number("ratio", 1e7)
                              .json();
  EXPECT_EQ(run_tool(tool(), amp).rfind("422:ratio:that is 140.0 dB", 0), 0u)
      << run_tool(tool(), amp);
  // 1e-15 W is −150 dBW (but −120 dBm, which is allowed).
  const std::string dbw = RequestBody()
                              .text("quantity", "dBW")
                              .text("direction", "to-db")
                              .number("power_w", 1e-15)
                              .json();
  EXPECT_EQ(run_tool(tool(), dbw).rfind("422:power_w:", 0), 0u);
  const std::string dbm = RequestBody()
                              .text("quantity", "dBm")
                              .text("direction", "to-db")
                              .number("power_w", 1e-15)
                              .json();
  EXPECT_EQ(run_tool(tool(), dbm).front(), '{');
  // 1e7 V is +140 dBV.
  const std::string dbv = RequestBody()
                              .text("quantity", "dBV")
                              .text("direction", "to-db")
                              .number("voltage_v", 1e7)
                              .json();
  EXPECT_EQ(run_tool(tool(), dbv).rfind("422:voltage_v:", 0), 0u);
}

}  // namespace
}  // namespace toolcalc::tools
