// error-budget-burn-rate: the descriptor table, the published examples of
// docs/tools/error-budget-burn-rate.md (the SRE Workbook's Table 5-8 and vendor documentation),
// the page's worked-example rows, the 422, and properties over random valid inputs.
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
  static const catalog::Tool t = make_error_budget_burn_rate();
  return t;
}

std::string body(double slo, double window_days, double error_pct, double alert_h,
                 double consumed_pct) {
  return RequestBody()
      .number("slo_pct", slo)
      .number("window_days", window_days)
      .number("observed_error_rate_pct", error_pct)
      .number("alert_window_h", alert_h)
      .number("budget_consumed_pct", consumed_pct)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(ErrorBudgetBurnRate, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "error-budget-burn-rate");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {"slo_pct", InputType::Number, "%", 90, 99.999, 0.001, 99.9},
             {"window_days", InputType::Number, "days", 1, 365, 1, 30.0},
             {"observed_error_rate_pct", InputType::Number, "%", 0.01, 100, 0.01, 1.0},
             {"alert_window_h", InputType::Number, "h", 0.1, 8760, 0.1, 1.0},
             {"budget_consumed_pct", InputType::Number, "%", 1, 100, 0.1, 2.0},
         });
  tool_test::expect_outputs(d, {
                                   {"error_budget_pct", OutputType::Number, "%", 5},
                                   {"error_budget_min", OutputType::Number, "min", 4},
                                   {"burn_rate", OutputType::Number, "", 5},
                                   {"time_to_exhaustion_h", OutputType::Number, "h", 2},
                                   {"time_to_exhaustion_min", OutputType::Number, "min", 4},
                                   {"alert_burn_rate_threshold", OutputType::Number, "", 4},
                                   {"alert_error_rate_pct", OutputType::Number, "%", 4},
                                   {"alert_error_rate_ppm", OutputType::Number, "ppm", 3},
                                   {"short_window_min", OutputType::Number, "min", 3},
                                   {.key = "observed_rate_fires_alert",
                                    .type = OutputType::String,
                                    .unit = std::nullopt,
                                    .options = {"yes", "no"}},
                               });
}

// The published numbers, as their sources print them.
TEST(ErrorBudgetBurnRate, ReproducesPublishedExamples) {
  // SRE Workbook Table 5-8, 99.9 % over 30 days: 1 h / 5 min / 14.4 / 2 %, 6 h / 30 min / 6 /
  // 5 %, 3 days / 6 h / 1 / 10 %.
  const std::string page = run_tool(tool(), body(99.9, 30, 1, 1, 2));
  EXPECT_NEAR(field(page, "alert_burn_rate_threshold"), 14.4, 1e-9);
  EXPECT_NEAR(field(page, "short_window_min"), 5, 1e-9);
  EXPECT_NEAR(field(run_tool(tool(), body(99.9, 30, 1, 6, 5)), "alert_burn_rate_threshold"), 6,
              1e-9);
  const std::string ticket = run_tool(tool(), body(99.9, 30, 1, 72, 10));
  EXPECT_NEAR(field(ticket, "alert_burn_rate_threshold"), 1, 1e-9);
  EXPECT_NEAR(field(ticket, "short_window_min"), 360, 1e-9);
  // Splunk, 7-day window: 1 h / 10 % → 16.8, 6 h / 20 % → 5.6.
  EXPECT_NEAR(field(run_tool(tool(), body(99.9, 7, 1, 1, 10)), "alert_burn_rate_threshold"), 16.8,
              1e-9);
  EXPECT_NEAR(field(run_tool(tool(), body(99.9, 7, 1, 6, 20)), "alert_burn_rate_threshold"), 5.6,
              1e-9);
  // Datadog: 99.9 % over 30 days, burn rate 10 (1 % errors) empties the budget in 3 days; a
  // burn rate of 2 (0.2 %) in 15 days.
  const std::string ten = run_tool(tool(), body(99.9, 30, 1, 1, 2));
  EXPECT_NEAR(field(ten, "burn_rate"), 10, 1e-5);
  EXPECT_NEAR(field(ten, "time_to_exhaustion_h"), 3 * 24, 0.005);
  EXPECT_NEAR(field(run_tool(tool(), body(99.9, 30, 0.2, 1, 2)), "time_to_exhaustion_h"), 15 * 24,
              0.005);
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/error-budget-burn-rate.md, row by row.
TEST(ErrorBudgetBurnRate, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: Workbook page, 1 h / 2 %",
       body(99.9, 30, 1, 1, 2),
       {"0.10000", "43.2000", "10.00000", "72.00", "4320.0000", "14.4000", "1.4400", "14400.000",
        "5.000", "no"}},
      {"2 Workbook page, 6 h / 5 %",
       body(99.9, 30, 1, 6, 5),
       {"0.10000", "43.2000", "10.00000", "72.00", "4320.0000", "6.0000", "0.6000", "6000.000",
        "30.000", "yes"}},
      {"3 Workbook ticket, 3 days / 10 %",
       body(99.9, 30, 1, 72, 10),
       {"0.10000", "43.2000", "10.00000", "72.00", "4320.0000", "1.0000", "0.1000", "1000.000",
        "360.000", "yes"}},
      {"4 7-day window, 1 h / 10 %",
       body(99.9, 7, 1, 1, 10),
       {"0.10000", "10.0800", "10.00000", "16.80", "1008.0000", "16.8000", "1.6800", "16800.000",
        "5.000", "no"}},
      {"5 four nines over 28 days, 0.05 % errors",
       body(99.99, 28, 0.05, 1, 2),
       {"0.01000", "4.0320", "5.00000", "134.40", "8064.0000", "13.4400", "0.1344", "1344.000",
        "5.000", "no"}},
      {"6 largest budget, full outage",
       body(90, 1, 100, 24, 100),
       {"10.00000", "144.0000", "10.00000", "2.40", "144.0000", "1.0000", "10.0000", "100000.000",
        "120.000", "yes"}},
      {"7 smallest budget, shortest alert",
       body(99.999, 365, 0.01, 0.1, 1),
       {"0.00100", "5.2560", "10.00000", "876.00", "52560.0000", "876.0000", "0.8760", "8760.000",
        "0.500", "no"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(ErrorBudgetBurnRate, AlertWindowLongerThanTheSloWindowIs422) {
  EXPECT_EQ(run_tool(tool(), body(99.9, 1, 1, 48, 2)),
            "422:alert_window_h:alert_window_h of 48 h is longer than the 24 h SLO window: the "
            "alert averages over part of the window; shorten it or lengthen window_days");
}

TEST(ErrorBudgetBurnRate, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(2018);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double slo = tool_test::draw_number(d.inputs[0], rng);
    const double window = tool_test::draw_number(d.inputs[1], rng);
    const double error = tool_test::draw_number(d.inputs[2], rng);
    const double alert_h = tool_test::draw_number(d.inputs[3], rng);
    const double consumed = tool_test::draw_number(d.inputs[4], rng);
    const auto result = compute_body(tool(), body(slo, window, error, alert_h, consumed));
    if (alert_h > window * 24) {
      ASSERT_TRUE(std::holds_alternative<catalog::ToolError>(result));
      continue;
    }
    const auto& out = std::get<catalog::Outputs>(result);
    const double burn = out.number("burn_rate");
    // The whole budget lasts window / burn rate; at burn rate 1 exactly the window.
    ASSERT_NEAR(out.number("time_to_exhaustion_h") * burn, window * 24, 1e-9 * window * 24);
    // An alert window of the threshold burn rate spends exactly the chosen share of the budget.
    const double threshold = out.number("alert_burn_rate_threshold");
    ASSERT_NEAR(threshold * alert_h / (window * 24), consumed / 100, 1e-12);
    // The alert fires exactly when the observed burn rate reaches the threshold.
    ASSERT_EQ(out.text("observed_rate_fires_alert"), burn >= threshold * (1 + 1e-12) ? "yes"
                                                     : burn < threshold * (1 - 1e-12)
                                                         ? "no"
                                                         : out.text("observed_rate_fires_alert"));
    ASSERT_NEAR(out.number("alert_error_rate_ppm"), out.number("alert_error_rate_pct") * 1e4,
                1e-9 * out.number("alert_error_rate_ppm"));
  }
}

}  // namespace
}  // namespace toolcalc::tools
