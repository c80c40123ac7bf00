// voltage-divider: the descriptor table, the worked examples of docs/tools/voltage-divider.md
// (expected texts copied from that page), every IEC 60063 value, the 422 for outputs below
// 1 µV, and properties over random valid inputs.
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
  static const catalog::Tool t = make_voltage_divider();
  return t;
}

std::string body(double vin, double r1, double r2, double load, const char* series) {
  return RequestBody()
      .number("vin_v", vin)
      .number("r1_ohm", r1)
      .number("r2_ohm", r2)
      .number("load_ohm", load)
      .text("e_series", series)
      .json();
}

// IEC 60063:2015, as printed in the doc page's "Constants" table (values × 100 per decade).
const std::vector<int> kE12 = {100, 120, 150, 180, 220, 270, 330, 390, 470, 560, 680, 820};
const std::vector<int> kE24 = {100, 110, 120, 130, 150, 160, 180, 200, 220, 240, 270, 300,
                               330, 360, 390, 430, 470, 510, 560, 620, 680, 750, 820, 910};
const std::vector<int> kE96 = {100, 102, 105, 107, 110, 113, 115, 118, 121, 124, 127, 130, 133, 137,
                               140, 143, 147, 150, 154, 158, 162, 165, 169, 174, 178, 182, 187, 191,
                               196, 200, 205, 210, 215, 221, 226, 232, 237, 243, 249, 255, 261, 267,
                               274, 280, 287, 294, 301, 309, 316, 324, 332, 340, 348, 357, 365, 374,
                               383, 392, 402, 412, 422, 432, 442, 453, 464, 475, 487, 499, 511, 523,
                               536, 549, 562, 576, 590, 604, 619, 634, 649, 665, 681, 698, 715, 732,
                               750, 768, 787, 806, 825, 845, 866, 887, 909, 931, 953, 976};

TEST(VoltageDivider, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "voltage-divider");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "2.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d, {
                                  {"vin_v", InputType::Number, "V", 0.001, 1000, 0.1, 12.0},
                                  {"r1_ohm", InputType::Number, "Ω", 100, 10000000, 1, 27000.0},
                                  {"r2_ohm", InputType::Number, "Ω", 100, 10000000, 1, 10000.0},
                                  {"load_ohm", InputType::Number, "Ω", 0, 1e10, 1, 0.0, false},
                                  {.key = "e_series",
                                   .type = InputType::Enum,
                                   .unit = std::nullopt,
                                   .default_value = std::string("E24"),
                                   .required = false,
                                   .options = {"E12", "E24", "E96"}},
                              });
  // The help says what 0 means, and that "nearest" is on a log scale.
  EXPECT_NE(d.inputs[3].help->find("0 = no load"), std::string::npos);
  EXPECT_NE(d.inputs[4].help->find("logarithmic scale"), std::string::npos);
  tool_test::expect_outputs(d, {
                                   {"vout_v", OutputType::Number, "V", 4},
                                   {"vout_uv", OutputType::Number, "µV", 2},
                                   {"loaded_vout_v", OutputType::Number, "V", 4},
                                   {"loaded_vout_uv", OutputType::Number, "µV", 2},
                                   {"load_error_pct", OutputType::Number, "%", 3},
                                   {"load_error_ppm", OutputType::Number, "ppm", 5},
                                   {"input_current_ua", OutputType::Number, "µA", 3},
                                   {"input_current_na", OutputType::Number, "nA", 4},
                                   {"r1_power_mw", OutputType::Number, "mW", 3},
                                   {"r1_power_dbm", OutputType::Number, "dBm", 2},
                                   {"r2_power_mw", OutputType::Number, "mW", 3},
                                   {"r2_power_dbm", OutputType::Number, "dBm", 2},
                                   {"source_resistance_ohm", OutputType::Number, "Ω", 1},
                                   {"r1_e_ohm", OutputType::Number, "Ω", 0},
                                   {"r2_e_ohm", OutputType::Number, "Ω", 0},
                                   {"vout_e_v", OutputType::Number, "V", 4},
                                   {"vout_e_uv", OutputType::Number, "µV", 3},
                                   {"vout_e_error_pct", OutputType::Number, "%", 3},
                                   {"vout_e_error_ppm", OutputType::Number, "ppm", 7},
                               });
  // Where each output hands its small values on (docs/tools/voltage-divider.md, "Outputs").
  const std::vector<std::string> finer = {"vout_uv",
                                          "",
                                          "loaded_vout_uv",
                                          "",
                                          "load_error_ppm",
                                          "",
                                          "input_current_na",
                                          "",
                                          "r1_power_dbm",
                                          "r1_power_mw",
                                          "r2_power_dbm",
                                          "r2_power_mw",
                                          "",
                                          "",
                                          "",
                                          "vout_e_uv",
                                          "",
                                          "vout_e_error_ppm",
                                          ""};
  ASSERT_EQ(d.outputs.size(), finer.size());
  for (size_t i = 0; i < finer.size(); ++i)
    EXPECT_EQ(d.outputs[i].small_values_in, finer[i]) << d.outputs[i].key;
}

TEST(VoltageDivider, LeavingOutTheLoadMeansNoLoad) {
  EXPECT_EQ(run_tool(tool(), R"({"vin_v":12,"r1_ohm":27000,"r2_ohm":10000})"),
            run_tool(tool(), body(12, 27000, 10000, 0, "E24")));
}

struct WorkedExample {
  const char* name;
  std::string body;
  // in descriptor order: Vout V, µV; loaded V, µV; load %, ppm; I µA, nA; P1 mW, dBm;
  // P2 mW, dBm; Rs; R1e; R2e; Vout(E) V, µV; E %, ppm
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/voltage-divider.md, row by row.
TEST(VoltageDivider, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 12 V, 27 kΩ / 10 kΩ",
       body(12, 27000, 10000, 0, "E24"),
       {"3.2432", "3243243.24", "3.2432", "3243243.24", "0.000", "0.00000", "324.324",
        "324324.3243", "2.840", "4.53", "1.052", "0.22", "7297.3", "27000", "10000", "3.2432",
        "3243243.243", "0.000", "0.0000000"}},
      {"2 every number at its minimum",
       body(0.001, 100, 100, 0, "E12"),
       {"0.0005", "500.00", "0.0005", "500.00", "0.000", "0.00000", "5.000", "5000.0000", "0.000",
        "-56.02", "0.000", "-56.02", "50.0", "100", "100", "0.0005", "500.000", "0.000",
        "0.0000000"}},
      {"3 every number at its maximum",
       body(1000, 10000000, 10000000, 1e10, "E96"),
       {"500.0000", "500000000.00", "499.7501", "499750124.94", "-0.050", "-499.75012", "50.025",
        "50024.9875", "25.025", "13.98", "24.975", "13.98", "5000000.0", "10000000", "10000000",
        "500.0000", "500000000.000", "0.000", "0.0000000"}},
      {"4 5 V halved into a 10 kΩ load",
       body(5, 10000, 10000, 10000, "E96"),
       {"2.5000", "2500000.00", "1.6667", "1666666.67", "-33.333", "-333333.33333", "333.333",
        "333333.3333", "1.111", "0.46", "0.278", "-5.56", "5000.0", "10000", "10000", "2.5000",
        "2500000.000", "0.000", "0.0000000"}},
      {"5 24 V into a 1 MΩ meter, E12",
       body(24, 200000, 33333, 1000000, "E12"),
       {"3.4285", "3428542.04", "3.3333", "3333305.56", "-2.778", "-27777.54630", "103.333",
        "103333.4722", "2.136", "3.30", "0.333", "-4.77", "28571.2", "220000", "33000", "3.1304",
        "3130434.783", "-8.695", "-86948.6955739"}},
      {"6 1 Ω load: output almost shorted",
       body(12, 27000, 10000, 1, "E24"),
       {"3.2432", "3243243.24", "0.0004", "444.38", "-99.986", "-999862.98174", "444.428",
        "444427.9858", "5.333", "7.27", "0.000", "-77.04", "7297.3", "27000", "10000", "3.2432",
        "3243243.243", "0.000", "0.0000000"}},
      {"7 26 kΩ / 9.5 kΩ rounded to E12",
       body(12, 26000, 9500, 0, "E12"),
       {"3.2113", "3211267.61", "3.2113", "3211267.61", "0.000", "0.00000", "338.028",
        "338028.1690", "2.971", "4.73", "1.085", "0.36", "6957.7", "27000", "10000", "3.2432",
        "3243243.243", "0.996", "9957.3257468"}},
      {"8 26 kΩ / 9.5 kΩ rounded to E24",
       body(12, 26000, 9500, 0, "E24"),
       {"3.2113", "3211267.61", "3.2113", "3211267.61", "0.000", "0.00000", "338.028",
        "338028.1690", "2.971", "4.73", "1.085", "0.36", "6957.7", "27000", "9100", "3.0249",
        "3024930.748", "-5.803", "-58025.9513049"}},
      {"9 26 kΩ / 9.5 kΩ rounded to E96",
       body(12, 26000, 9500, 0, "E96"),
       {"3.2113", "3211267.61", "3.2113", "3211267.61", "0.000", "0.00000", "338.028",
        "338028.1690", "2.971", "4.73", "1.085", "0.36", "6957.7", "26100", "9530", "3.2097",
        "3209654.785", "-0.050", "-502.2379131"}},
      {"10 E12 across a decade: 9.6 kΩ → 10 kΩ",
       body(5, 9600, 1000, 0, "E12"),
       {"0.4717", "471698.11", "0.4717", "471698.11", "0.000", "0.00000", "471.698", "471698.1132",
        "2.136", "3.30", "0.222", "-6.53", "905.7", "10000", "1000", "0.4545", "454545.455",
        "-3.636", "-36363.6363636"}},
      {"11 E12 just below the geometric midpoint of 1.0k/1.2k",
       body(5, 1095, 1000, 0, "E12"),
       {"2.3866", "2386634.84", "2.3866", "2386634.84", "0.000", "0.00000", "2386.635",
        "2386634.8449", "6.237", "7.95", "5.696", "7.56", "522.7", "1000", "1000", "2.5000",
        "2500000.000", "4.750", "47500.0000000"}},
      {"12 E12 just above it",
       body(5, 1096, 1000, 0, "E12"),
       {"2.3855", "2385496.18", "2.3855", "2385496.18", "0.000", "0.00000", "2385.496",
        "2385496.1832", "6.237", "7.95", "5.691", "7.55", "522.9", "1200", "1000", "2.2727",
        "2272727.273", "-4.727", "-47272.7272727"}},
      {"13 output exactly 1 µV",
       body(0.1, 9999900, 100, 0, "E24"),
       {"0.0000", "1.00", "0.0000", "1.00", "0.000", "0.00000", "0.010", "10.0000", "0.000",
        "-60.00", "0.000", "-110.00", "100.0", "10000000", "100", "0.0000", "1.000", "-0.001",
        "-9.9999000"}},
      {"14 10 GΩ load on a 100 Ω source: 0.01 ppm",
       body(0.5, 10000000, 100, 1e10, "E96"),
       {"0.0000", "5.00", "0.0000", "5.00", "0.000", "-0.01000", "0.050", "49.9995", "0.000",
        "-46.02", "0.000", "-96.02", "100.0", "10000000", "100", "0.0000", "5.000", "0.000",
        "0.0000000"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

// Every IEC 60063 value in every decade the inputs reach maps to itself, and a value just
// inside the geometric midpoint to each neighbour maps to that neighbour: the tool's tables
// match the standard's entry by entry.
TEST(VoltageDivider, EveryPreferredValueOfIec60063) {
  const std::vector<std::pair<const char*, const std::vector<int>*>> all = {
      {"E12", &kE12}, {"E24", &kE24}, {"E96", &kE96}};
  for (const auto& [name, values] : all) {
    std::vector<double> ladder;  // 100 Ω … 10 MΩ
    for (double decade = 1; decade <= 1e4; decade *= 10)
      for (int m : *values) ladder.push_back(m * decade);
    ladder.push_back(1e7);
    for (size_t i = 0; i < ladder.size(); ++i) {
      const double v = ladder[i];
      SCOPED_TRACE(std::string(name) + " " + tool_test::json_number(v));
      EXPECT_EQ(result_field(run_tool(tool(), body(5, v, v, 0, name)), "r1_e_ohm"),
                tool_test::json_number(v));
      if (i + 1 < ladder.size()) {
        const double mid = std::sqrt(v * ladder[i + 1]);
        EXPECT_EQ(result_field(run_tool(tool(), body(5, mid * 0.9999, 1000, 0, name)), "r1_e_ohm"),
                  tool_test::json_number(v));
        EXPECT_EQ(result_field(run_tool(tool(), body(5, mid * 1.0001, 1000, 0, name)), "r1_e_ohm"),
                  tool_test::json_number(ladder[i + 1]));
      }
    }
  }
}

// Outputs below 1 µV are set by thermoelectric voltages, not by the resistors: refused, naming
// the input to change. Row 13 of the doc page (exactly 1 µV) computes.
TEST(VoltageDivider, OutputsBelowOneMicrovoltAre422) {
  EXPECT_EQ(run_tool(tool(), body(0.1, 10000000, 100, 0, "E24")),
            "422:vin_v:the unloaded output would be 0.999990 µV, below 1 µV, where the "
            "thermoelectric voltages of the joints (µV per °C) and not the resistor ratio set "
            "it; raise vin_v or make R2 larger relative to R1");
  EXPECT_EQ(run_tool(tool(), body(0.001, 10000000, 100, 0, "E24")).rfind("422:vin_v:", 0), 0u);
  EXPECT_EQ(run_tool(tool(), body(12, 27000, 10000, 0.001, "E24")),
            "422:load_ohm:load_ohm of 0.001 Ω pulls the output down to 0.444444 µV, below 1 µV, "
            "where thermoelectric voltages and not the divider set it: the load shorts the "
            "output; use a larger load resistance or a buffer");
  EXPECT_EQ(run_tool(tool(), body(0.1, 9999900, 100, 0, "E24")).front(), '{');
}

// The smallest results of the old precisions printed as zero (row 2: 2.5 nW shown as
// 0.000 mW; row 14: a 0.01 ppm load error shown as 0.000 %); their companions keep them.
TEST(VoltageDivider, SmallResultsKeepTheirDigits) {
  const std::string tiny = run_tool(tool(), body(0.001, 100, 100, 0, "E12"));
  EXPECT_EQ(result_field(tiny, "r1_power_mw"), "0.000");
  EXPECT_EQ(result_field(tiny, "r1_power_dbm"), "-56.02");  // 2.5 nW = 10·log10(2.5e-6 mW)
  EXPECT_EQ(result_field(tiny, "vout_uv"), "500.00");
  const std::string stiff = run_tool(tool(), body(0.5, 10000000, 100, 1e10, "E96"));
  EXPECT_EQ(result_field(stiff, "load_error_pct"), "0.000");
  EXPECT_EQ(result_field(stiff, "load_error_ppm"), "-0.01000");  // −Rs/(Rs + RL) = −100/1e10
}

TEST(VoltageDivider, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(12, 99, 10000, 0, "E24")),
            "400:r1_ohm:r1_ohm must be at least 100");
  EXPECT_EQ(run_tool(tool(), body(12, 27000, 10000, -1, "E24")),
            "400:load_ohm:load_ohm must be at least 0");
  EXPECT_EQ(run_tool(tool(), body(12, 27000, 10000, 0, "E48")),
            "400:e_series:e_series must be one of: E12, E24, E96");
}

TEST(VoltageDivider, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(60063);
  const auto& d = tool().descriptor;
  const char* series[] = {"E12", "E24", "E96"};
  // Half the widest gap between neighbours on a log scale: √1.25 (1.2 → 1.5), √(15/13)
  // (1.3 → 1.5) and √(1.37/1.33).
  const double max_ratio[] = {1.1181, 1.0742, 1.0150};
  for (int draw = 0; draw < 4000; ++draw) {
    const double vin = tool_test::draw_number(d.inputs[0], rng);
    const double r1 = tool_test::draw_number(d.inputs[1], rng);
    const double r2 = tool_test::draw_number(d.inputs[2], rng);
    // Half the draws unloaded; the rest over 1 Ω … 10 GΩ.
    const double load = std::bernoulli_distribution(0.5)(rng)
                            ? 0
                            : std::pow(10, std::uniform_real_distribution<double>(0, 10)(rng));
    const int s = std::uniform_int_distribution<int>(0, 2)(rng);
    const auto result = compute_body(tool(), body(vin, r1, r2, load, series[s]));
    // A 422 exactly when an output would be below 1 µV.
    const double r2_loaded = load > 0 ? r2 * load / (r2 + load) : r2;
    const bool too_small = vin * r2_loaded / (r1 + r2_loaded) < 1e-6;
    ASSERT_EQ(std::holds_alternative<catalog::ToolError>(result), too_small);
    if (too_small) continue;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double vout = out.number("vout_v");
    const double loaded = out.number("loaded_vout_v");
    ASSERT_GT(vout, 0);
    ASSERT_LT(vout, vin);
    // A load can only pull the output down.
    ASSERT_LE(loaded, vout * (1 + 1e-12));
    if (load == 0) {
      ASSERT_EQ(loaded, vout);
    }
    // Energy balance: the input delivers what R1, R2 and the load dissipate.
    const double p_in = vin * out.number("input_current_ua") * 1e-6;
    const double p_load = load > 0 ? loaded * loaded / load : 0;
    const double p_sum = (out.number("r1_power_mw") + out.number("r2_power_mw")) * 1e-3 + p_load;
    ASSERT_NEAR(p_in, p_sum, 1e-9 * p_in);
    // The companions are the same quantities on other scales.
    ASSERT_NEAR(out.number("r1_power_dbm"), 10 * std::log10(out.number("r1_power_mw")), 1e-9);
    ASSERT_NEAR(out.number("r2_power_dbm"), 10 * std::log10(out.number("r2_power_mw")), 1e-9);
    ASSERT_NEAR(out.number("vout_e_error_ppm"), 1e4 * out.number("vout_e_error_pct"),
                1e-9 * (1 + std::fabs(out.number("vout_e_error_ppm"))));
    ASSERT_NEAR(out.number("load_error_ppm"), 1e4 * out.number("load_error_pct"),
                1e-9 * (1 + std::fabs(out.number("load_error_ppm"))));
    // Thévenin: the loaded output is vout · RL / (RL + Rs).
    if (load > 0) {
      const double rs = out.number("source_resistance_ohm");
      ASSERT_NEAR(loaded, vout * load / (load + rs), 1e-9 * vout);
    }
    // Preferred values are within half a step (on a log scale) of the resistors.
    const double e1 = out.number("r1_e_ohm"), e2 = out.number("r2_e_ohm");
    ASSERT_LE(std::fmax(e1 / r1, r1 / e1), max_ratio[s]) << r1 << " → " << e1;
    ASSERT_LE(std::fmax(e2 / r2, r2 / e2), max_ratio[s]) << r2 << " → " << e2;
  }
}

}  // namespace
}  // namespace toolcalc::tools
