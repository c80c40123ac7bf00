// mosfet-thermal-junction: the descriptor table per spec §2.3, the worked examples of
// docs/tools/mosfet-thermal-junction.md (expected texts copied from that page), and
// properties over random valid inputs. The tool has no 422 condition.
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
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_mosfet_thermal_junction();
  return t;
}

std::string body(double current, double rds_mohm, double theta, double ambient, double duty,
                 double tj_max) {
  return RequestBody()
      .number("drain_current_a", current)
      .number("rds_on_mohm", rds_mohm)
      .number("theta_ja_c_per_w", theta)
      .number("ambient_temp_c", ambient)
      .number("duty_cycle", duty)
      .number("max_junction_temp_c", tj_max)
      .json();
}

TEST(MosfetThermalJunction, DescriptorMatchesSpec) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "mosfet-thermal-junction");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d,
      {
          {"drain_current_a", InputType::Number, "A", 0.001, 1000, 0.1, 5.0},
          {"rds_on_mohm", InputType::Number, "mΩ", 0.1, 10000, 0.1, 20.0},
          {"theta_ja_c_per_w", InputType::Number, "°C/W (junction-to-ambient)", 0.1, 500, 0.5,
           62.0},
          {"ambient_temp_c", InputType::Number, "°C", -40, 125, 1, 25.0},
          {"duty_cycle", InputType::Number, "(fraction; 1 = continuously on)", 0.01, 1, 0.01, 1.0},
          {"max_junction_temp_c", InputType::Number, "°C", 100, 200, 5, 150.0},
      });
  // The doc page and the help both say R_DS(on) must be the hot value, where the status
  // thresholds lie, and when the duty-cycle average holds.
  EXPECT_NE(d.inputs[1].help->find("hot value"), std::string::npos);
  EXPECT_NE(d.inputs[4].help->find("thermal time constant"), std::string::npos);
  EXPECT_NE(d.inputs[5].help->find("80 %"), std::string::npos);
  tool_test::expect_outputs(d, {
                                   {"power_dissipation_w", OutputType::Number, "W", 3},
                                   {"temp_rise_c", OutputType::Number, "°C", 1},
                                   {"junction_temp_c", OutputType::Number, "°C", 1},
                                   {"headroom_c", OutputType::Number, "°C", 1},
                                   {.key = "status",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"ok", "marginal", "danger"}},
                               });
}

TEST(MosfetThermalJunction, StatusRendersWithOptionsAndNoUnitOrPrecision) {
  const std::string record = catalog::render_record(tool().descriptor);
  EXPECT_NE(record.find(R"({"key":"status","label":"Thermal status","type":"string",)"
                        R"("options":["ok","marginal","danger"]})"),
            std::string::npos)
      << record;
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // P, rise, Tj, headroom, status
};

// The "Worked examples" table of docs/tools/mosfet-thermal-junction.md, row by row.
TEST(MosfetThermalJunction, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults", body(5, 20, 62, 25, 1, 150), {"0.500", "31.0", "56.0", "94.0", "ok"}},
      {"2 every input at its minimum",
       body(0.001, 0.1, 0.1, -40, 0.01, 100),
       {"0.000", "0.0", "-40.0", "140.0", "ok"}},
      {"3 every input at its maximum",
       body(1000, 10000, 500, 125, 1, 200),
       {"10000000.000", "5000000000.0", "5000000125.0", "-4999999925.0", "danger"}},
      {"4 Tj exactly 80 % of Tj,max",
       body(1, 1000, 95, 25, 1, 150),
       {"1.000", "95.0", "120.0", "30.0", "ok"}},
      {"5 Tj just above 80 % (shown as 120.0)",
       body(1, 1000.4, 95, 25, 1, 150),
       {"1.000", "95.0", "120.0", "30.0", "marginal"}},
      {"6 Tj 1 °C above 80 %",
       body(1, 1000, 96, 25, 1, 150),
       {"1.000", "96.0", "121.0", "29.0", "marginal"}},
      {"7 Tj 1 °C below Tj,max",
       body(1, 1000, 124, 25, 1, 150),
       {"1.000", "124.0", "149.0", "1.0", "marginal"}},
      {"8 Tj just below Tj,max (shown as 150.0)",
       body(1, 999.68, 125, 25, 1, 150),
       {"1.000", "125.0", "150.0", "0.0", "marginal"}},
      {"9 Tj exactly Tj,max",
       body(1, 1000, 125, 25, 1, 150),
       {"1.000", "125.0", "150.0", "0.0", "danger"}},
      {"10 PWM at 50 %, hot R_DS(on)",
       body(10, 8, 40, 50, 0.5, 175),
       {"0.400", "16.0", "66.0", "109.0", "ok"}},
      {"11 overload", body(12, 20, 62, 25, 1, 150), {"2.880", "178.6", "203.6", "-53.6", "danger"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(MosfetThermalJunction, OutOfBoundsIsRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(5, 20, 62, -41, 1, 150)),
            "400:ambient_temp_c:ambient_temp_c must be at least -40");
  EXPECT_EQ(run_tool(tool(), body(5, 20, 62, 25, 0, 150)),
            "400:duty_cycle:duty_cycle must be at least 0.01");
}

TEST(MosfetThermalJunction, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(175);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 4000; ++draw) {
    double v[6];
    for (int i = 0; i < 6; ++i)
      v[i] = tool_test::draw_number(d.inputs[static_cast<size_t>(i)], rng);
    const auto result = compute_body(tool(), body(v[0], v[1], v[2], v[3], v[4], v[5]));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) {
      if (o.type == OutputType::Number) {
        ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
      }
    }
    const double tj = out.number("junction_temp_c");
    ASSERT_GE(out.number("power_dissipation_w"), 0);
    // v[] are the values sent; the tool sees them as parsed from JSON text, so allow an ulp.
    const double ulp = 1e-12 * std::fmax(1.0, std::fabs(tj));
    ASSERT_GE(tj, v[3] - ulp);
    ASSERT_NEAR(out.number("headroom_c"), v[5] - tj, ulp);
    // Status follows the unrounded junction temperature.
    const std::string expected = tj >= v[5] ? "danger" : tj > 0.8 * v[5] ? "marginal" : "ok";
    ASSERT_EQ(out.text("status"), expected) << tj << " °C of " << v[5];

    // More current never cools the junction, and the loss grows as I².
    const double more = v[0] * 2;
    if (more <= 1000) {
      const auto hotter = compute_body(tool(), body(more, v[1], v[2], v[3], v[4], v[5]));
      const auto& h = std::get<catalog::Outputs>(hotter);
      ASSERT_GE(h.number("junction_temp_c"), tj);
      ASSERT_NEAR(h.number("power_dissipation_w"), 4 * out.number("power_dissipation_w"),
                  1e-12 * h.number("power_dissipation_w"));
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
