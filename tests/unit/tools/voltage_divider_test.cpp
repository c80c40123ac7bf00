// voltage-divider: descriptor per issue 10, the worked examples of
// docs/tools/voltage-divider.md (expected texts copied from that page), every IEC 60063
// value, and properties over random valid inputs. The tool has no 422 condition.
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
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.standard.has_value());
  EXPECT_EQ(d.endpoint(), "/v1/electronics/voltage-divider");
  EXPECT_GE(d.references.size(), 2u);
  EXPECT_FALSE(d.examples.empty());

  struct In {
    const char* key;
    bool required;
    const char* unit;
    double min, max, step, def;
  };
  const std::vector<In> numbers = {
      {"vin_v", true, "V", 0.001, 1000, 0.1, 12},
      {"r1_ohm", true, "Ω", 100, 10000000, 1, 27000},
      {"r2_ohm", true, "Ω", 100, 10000000, 1, 10000},
      {"load_ohm", false, "Ω", 0, 1e10, 1, 0},
  };
  ASSERT_EQ(d.inputs.size(), numbers.size() + 1);
  for (size_t i = 0; i < numbers.size(); ++i) {
    const auto& in = d.inputs[i];
    SCOPED_TRACE(numbers[i].key);
    EXPECT_EQ(in.key, numbers[i].key);
    EXPECT_EQ(in.type, InputType::Number);
    EXPECT_EQ(in.required, numbers[i].required);
    EXPECT_EQ(in.unit, numbers[i].unit);
    EXPECT_EQ(in.min, numbers[i].min);
    EXPECT_EQ(in.max, numbers[i].max);
    EXPECT_EQ(in.step, numbers[i].step);
    EXPECT_EQ(std::get<double>(in.default_value), numbers[i].def);
    EXPECT_FALSE(in.label.empty());
    EXPECT_TRUE(in.help.has_value());
  }
  // The help says what 0 means.
  EXPECT_NE(d.inputs[3].help->find("0 = no load"), std::string::npos);
  const auto& series = d.inputs[4];
  EXPECT_EQ(series.key, "e_series");
  EXPECT_EQ(series.type, InputType::Enum);
  EXPECT_FALSE(series.required);
  EXPECT_FALSE(series.unit.has_value());
  EXPECT_EQ(series.options, (std::vector<std::string>{"E12", "E24", "E96"}));
  EXPECT_EQ(std::get<std::string>(series.default_value), "E24");

  struct Out {
    const char* key;
    const char* unit;
    int precision;
  };
  const std::vector<Out> outputs = {
      {"vout_v", "V", 4},
      {"loaded_vout_v", "V", 4},
      {"load_error_pct", "%", 3},
      {"input_current_ua", "µA", 3},
      {"r1_power_mw", "mW", 3},
      {"r2_power_mw", "mW", 3},
      {"source_resistance_ohm", "Ω", 1},
      {"r1_e_ohm", "Ω", 0},
      {"r2_e_ohm", "Ω", 0},
      {"vout_e_v", "V", 4},
      {"vout_e_error_pct", "%", 3},
  };
  ASSERT_EQ(d.outputs.size(), outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    SCOPED_TRACE(outputs[i].key);
    EXPECT_EQ(d.outputs[i].key, outputs[i].key);
    EXPECT_EQ(d.outputs[i].type, OutputType::Number);
    EXPECT_EQ(d.outputs[i].unit, outputs[i].unit);
    EXPECT_EQ(d.outputs[i].precision, outputs[i].precision);
  }
}

TEST(VoltageDivider, DescriptorExamplesRun) {
  for (const auto& ex : tool().descriptor.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_EQ(run_tool(tool(), ex.request_json).front(), '{');
  }
}

TEST(VoltageDivider, LeavingOutTheLoadMeansNoLoad) {
  EXPECT_EQ(run_tool(tool(), R"({"vin_v":12,"r1_ohm":27000,"r2_ohm":10000})"),
            run_tool(tool(), body(12, 27000, 10000, 0, "E24")));
}

struct WorkedExample {
  const char* name;
  std::string body;
  // Vout, loaded, load %, I, P1, P2, Rs, R1e, R2e, Vout(E), E %
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/voltage-divider.md, row by row.
TEST(VoltageDivider, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 12 V, 27 kΩ / 10 kΩ",
       body(12, 27000, 10000, 0, "E24"),
       {"3.2432", "3.2432", "0.000", "324.324", "2.840", "1.052", "7297.3", "27000", "10000",
        "3.2432", "0.000"}},
      {"2 every number at its minimum",
       body(0.001, 100, 100, 0, "E12"),
       {"0.0005", "0.0005", "0.000", "5.000", "0.000", "0.000", "50.0", "100", "100", "0.0005",
        "0.000"}},
      {"3 every number at its maximum",
       body(1000, 10000000, 10000000, 1e10, "E96"),
       {"500.0000", "499.7501", "-0.050", "50.025", "25.025", "24.975", "5000000.0", "10000000",
        "10000000", "500.0000", "0.000"}},
      {"4 5 V halved into a 10 kΩ load",
       body(5, 10000, 10000, 10000, "E96"),
       {"2.5000", "1.6667", "-33.333", "333.333", "1.111", "0.278", "5000.0", "10000", "10000",
        "2.5000", "0.000"}},
      {"5 24 V into a 1 MΩ meter, E12",
       body(24, 200000, 33333, 1000000, "E12"),
       {"3.4285", "3.3333", "-2.778", "103.333", "2.136", "0.333", "28571.2", "220000", "33000",
        "3.1304", "-8.695"}},
      {"6 1 Ω load: output almost shorted",
       body(12, 27000, 10000, 1, "E24"),
       {"3.2432", "0.0004", "-99.986", "444.428", "5.333", "0.000", "7297.3", "27000", "10000",
        "3.2432", "0.000"}},
      {"7 26 kΩ / 9.5 kΩ rounded to E12",
       body(12, 26000, 9500, 0, "E12"),
       {"3.2113", "3.2113", "0.000", "338.028", "2.971", "1.085", "6957.7", "27000", "10000",
        "3.2432", "0.996"}},
      {"8 26 kΩ / 9.5 kΩ rounded to E24",
       body(12, 26000, 9500, 0, "E24"),
       {"3.2113", "3.2113", "0.000", "338.028", "2.971", "1.085", "6957.7", "27000", "9100",
        "3.0249", "-5.803"}},
      {"9 26 kΩ / 9.5 kΩ rounded to E96",
       body(12, 26000, 9500, 0, "E96"),
       {"3.2113", "3.2113", "0.000", "338.028", "2.971", "1.085", "6957.7", "26100", "9530",
        "3.2097", "-0.050"}},
      {"10 E12 across a decade: 9.6 kΩ → 10 kΩ",
       body(5, 9600, 1000, 0, "E12"),
       {"0.4717", "0.4717", "0.000", "471.698", "2.136", "0.222", "905.7", "10000", "1000",
        "0.4545", "-3.636"}},
      {"11 E12 just below the geometric midpoint of 1.0k/1.2k",
       body(5, 1095, 1000, 0, "E12"),
       {"2.3866", "2.3866", "0.000", "2386.635", "6.237", "5.696", "522.7", "1000", "1000",
        "2.5000", "4.750"}},
      {"12 E12 just above it",
       body(5, 1096, 1000, 0, "E12"),
       {"2.3855", "2.3855", "0.000", "2385.496", "6.237", "5.691", "522.9", "1200", "1000",
        "2.2727", "-4.727"}},
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
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));  // never a 422
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
