// What every tool of the catalog must satisfy, checked over the whole registry
// (src/tools/all.cpp), so that a new tool is held to it without a line of its own test:
// its verification vectors reproduce their published sources, and no in-bounds input hides
// a result behind rounding (a non-zero output keeps at least 3 significant digits, or
// another output carries the same quantity with them).
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tools/all.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

namespace json = boost::json;

const std::vector<catalog::Tool>& catalog_tools() {
  static const std::vector<catalog::Tool> tools =
      all_tools(ToolContext{std::filesystem::path(TOOLCALC_SOURCE_DIR) / "catalog"});
  return tools;
}

std::vector<size_t> tool_indexes() {
  std::vector<size_t> v(catalog_tools().size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

std::string test_name(const testing::TestParamInfo<size_t>& info) {
  std::string name = catalog_tools()[info.param].descriptor.slug;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// The seed tools whose output precisions the API contract fixes (spec §2.2–2.4 and the
// trace-width tool it references): their rounding is not ours to change.
const std::set<std::string> kContractPrecision = {"mcu-deep-sleep-battery",
                                                  "mosfet-thermal-junction",
                                                  "llm-api-cost-calculator", "pcb-trace-width"};

class EveryTool : public testing::TestWithParam<size_t> {
 protected:
  const catalog::Tool& tool() const { return catalog_tools()[GetParam()]; }
};

// --- what every descriptor carries ---------------------------------------------------------

TEST_P(EveryTool, DescribesEveryInputAndOutput) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.endpoint(), "/v1/" + d.domain + "/" + d.slug);
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.description.empty());
  EXPECT_GE(d.references.size(), 2u) << "a formula and its constants need two references";
  for (const auto& in : d.inputs) {
    SCOPED_TRACE(in.key);
    EXPECT_FALSE(in.label.empty());
    EXPECT_TRUE(in.help && !in.help->empty()) << "help says what to enter";
    const bool numeric =
        in.type == catalog::InputType::Number || in.type == catalog::InputType::Integer;
    if (numeric) {
      EXPECT_TRUE(in.unit.has_value()) << "a number has a unit (\"\" when dimensionless)";
      EXPECT_LT(*in.min, *in.max);
    }
  }
  for (const auto& out : d.outputs) {
    SCOPED_TRACE(out.key);
    EXPECT_FALSE(out.label.empty());
    if (out.type == catalog::OutputType::Number) {
      EXPECT_TRUE(out.unit.has_value());
    }
  }
}

// Every example, rendered at each output's precision: a result, never a 400 or 422.
TEST_P(EveryTool, ExamplesAndDefaultsCompute) {
  const auto& d = tool().descriptor;
  for (const auto& ex : d.examples) {
    SCOPED_TRACE(ex.title);
    const std::string result = tool_test::run_tool(tool(), ex.request_json);
    EXPECT_EQ(result.front(), '{') << result;
  }
  tool_test::RequestBody defaults;
  for (const auto& in : d.inputs) {
    if (const double* v = std::get_if<double>(&in.default_value))
      defaults.number(in.key, *v);
    else if (const auto* s = std::get_if<std::string>(&in.default_value))
      defaults.text(in.key, *s);
    else
      defaults.boolean(in.key, std::get<bool>(in.default_value));
  }
  const std::string result = tool_test::run_tool(tool(), defaults.json());
  EXPECT_EQ(result.front(), '{') << "every input at its default: " << result;
}

// --- verification vectors -----------------------------------------------------------------

// The rendered number `text` matches `expected` within the vector's tolerance plus half a
// unit in the last place of the output's precision (docs/api.md, "Verification vectors").
bool number_matches(const std::string& text, double expected, double tolerance_pct, int precision) {
  const double actual = std::stod(text);
  const double allowed =
      std::fabs(expected) * tolerance_pct / 100 + 0.5 * std::pow(10.0, -precision) + 1e-12;
  return std::fabs(actual - expected) <= allowed;
}

TEST_P(EveryTool, PublishesAtLeastTwoVectorsWithTheirSources) {
  const auto& d = tool().descriptor;
  EXPECT_GE(d.examples.size(), 2u);
  for (const auto& ex : d.examples) {
    SCOPED_TRACE(ex.title);
    EXPECT_FALSE(ex.expected_json.empty()) << "every example is a verification vector";
    EXPECT_FALSE(ex.source.empty());
  }
}

TEST_P(EveryTool, VerificationVectorsReproduceTheirSources) {
  const auto& d = tool().descriptor;
  for (const auto& ex : d.examples) {
    if (ex.expected_json.empty()) continue;
    SCOPED_TRACE(ex.title);
    const std::string result = tool_test::run_tool(tool(), ex.request_json);
    ASSERT_EQ(result.front(), '{') << result;
    const json::value expected = json::parse(ex.expected_json);
    for (const auto& [key, value] : expected.as_object()) {
      SCOPED_TRACE(std::string(key));
      const auto out = std::find_if(d.outputs.begin(), d.outputs.end(),
                                    [&](const auto& o) { return o.key == key; });
      ASSERT_NE(out, d.outputs.end());
      const std::string text = tool_test::result_field(result, key);
      if (value.is_string()) {
        EXPECT_EQ(text, value.as_string());
      } else {
        EXPECT_TRUE(
            number_matches(text, value.to_number<double>(), ex.tolerance_pct, out->precision))
            << "got " << text << ", the source gives " << json::serialize(value) << " ±"
            << ex.tolerance_pct << " %";
      }
    }
  }
}

// --- no result hidden by rounding ---------------------------------------------------------

// The significant digits of a rendered fixed-point number: "0.0012" has 2, "120.50" has 5.
int significant_digits(const std::string& text) {
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

// Whether `value` reads without loss at `precision` decimal places, or keeps at least 3
// significant digits there.
bool keeps_its_digits(double value, int precision) {
  if (value == 0) return true;
  std::string text;
  append_fixed(text, value, precision);
  if (std::fabs(std::stod(text) - value) <= std::fabs(value) * 1e-12) return true;  // exact
  return significant_digits(text) >= 3;
}

// A value of a numeric input: mostly log-uniform over its range (so that small values are
// drawn as often as large ones), sometimes uniform, sometimes a bound itself.
double draw(const catalog::InputDescriptor& in, std::mt19937_64& rng) {
  const double lo = *in.min, hi = *in.max;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double pick = unit(rng);
  double v;
  if (pick < 0.05) {
    v = lo;
  } else if (pick < 0.10) {
    v = hi;
  } else if (pick < 0.35 || hi <= 0) {
    v = lo + (hi - lo) * unit(rng);
  } else {
    // Log-uniform over the positive part of the range, from its smallest meaningful value.
    const double floor = lo > 0 ? lo : std::max(std::min(*in.step, hi) * 1e-3, hi * 1e-12);
    v = floor * std::pow(hi / floor, unit(rng));
  }
  v = std::clamp(v, lo, hi);
  if (in.type == catalog::InputType::Integer) v = std::clamp(std::round(v), std::ceil(lo), hi);
  return v;
}

std::string random_body(const catalog::ToolDescriptor& d, std::mt19937_64& rng) {
  tool_test::RequestBody body;
  for (const auto& in : d.inputs) {
    switch (in.type) {
      case catalog::InputType::Number:
      case catalog::InputType::Integer:
        body.number(in.key, draw(in, rng));
        break;
      case catalog::InputType::Enum:
        body.text(in.key,
                  in.options[std::uniform_int_distribution<size_t>(0, in.options.size() - 1)(rng)]);
        break;
      case catalog::InputType::Boolean:
        body.boolean(in.key, rng() & 1);
        break;
    }
  }
  return body.json();
}

TEST_P(EveryTool, NoInBoundsResultIsHiddenByRounding) {
  const auto& d = tool().descriptor;
  if (kContractPrecision.count(d.slug)) GTEST_SKIP() << "precisions fixed by the API contract";
  std::mt19937_64 rng(20261123);
  int reported = 0;
  for (int sample = 0; sample < 4000 && reported < 5; ++sample) {
    const std::string body = random_body(d, rng);
    const catalog::ComputeResult result = tool_test::compute_body(tool(), body);
    const auto* outputs = std::get_if<catalog::Outputs>(&result);
    if (!outputs) continue;  // a 422 case
    for (const auto& out : d.outputs) {
      if (out.type != catalog::OutputType::Number) continue;
      // This output, or the next finer one that reports the same quantity, and so on. Two
      // outputs may name each other (a ratio and its reciprocal, mW and dBm), so the walk
      // stops after visiting every output once.
      bool kept = false;
      size_t visited = 0;
      for (const catalog::OutputDescriptor* o = &out; o && !kept && visited++ < d.outputs.size();) {
        kept = keeps_its_digits(outputs->number(o->key), o->precision);
        const auto finer = std::find_if(d.outputs.begin(), d.outputs.end(),
                                        [&](const auto& f) { return f.key == o->small_values_in; });
        o = finer == d.outputs.end() ? nullptr : &*finer;
      }
      if (kept) continue;
      ADD_FAILURE() << out.key << " = " << outputs->number(out.key)
                    << " keeps fewer than 3 significant digits at " << out.precision
                    << " decimals, for " << body;
      ++reported;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryTool, testing::ValuesIn(tool_indexes()), test_name);

TEST(SignificantDigits, CountsFromTheFirstNonZeroDigit) {
  EXPECT_EQ(significant_digits("0.0012"), 2);
  EXPECT_EQ(significant_digits("-120.50"), 5);
  EXPECT_EQ(significant_digits("0.0"), 0);
  EXPECT_TRUE(keeps_its_digits(0.125, 3));
  EXPECT_TRUE(keeps_its_digits(3, 0));           // exact at its precision
  EXPECT_FALSE(keeps_its_digits(0.0000159, 4));  // rc-filter's 15.9 µHz at 4 decimals
  EXPECT_FALSE(keeps_its_digits(12.4, 0));       // "12": two digits, and 0.4 lost
  EXPECT_TRUE(keeps_its_digits(124.4, 0));
}

}  // namespace
}  // namespace toolcalc::tools
