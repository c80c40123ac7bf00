// sla-downtime: the descriptor table, the published examples of docs/tools/sla-downtime.md
// (expected values from that source), the page's worked-example rows, each 422, and the round
// trip availability → downtime → availability over random valid inputs.
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
  static const catalog::Tool t = make_sla_downtime();
  return t;
}

std::string downtime_of(double availability_pct) {
  return RequestBody()
      .text("solve_for", "downtime")
      .number("availability_pct", availability_pct)
      .json();
}

std::string availability_of(double downtime_min, const char* period) {
  return RequestBody()
      .text("solve_for", "availability")
      .number("downtime_min", downtime_min)
      .text("downtime_period", period)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(SlaDowntime, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "sla-downtime");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "solve_for",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("downtime"),
              .options = {"downtime", "availability"}},
             {"availability_pct", InputType::Number, "%", 90, 99.99999, 0.00001, 99.9, false},
             {"downtime_min", InputType::Number, "min", 0.00001, 52596, 0.01, 43.83, false},
             {.key = "downtime_period",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("month"),
              .required = false,
              .options = {"day", "week", "month", "quarter", "year"}},
         });
  tool_test::expect_outputs(d, {
                                   {"availability_pct", OutputType::Number, "%", 5},
                                   {"nines", OutputType::Number, "", 2},
                                   {"downtime_per_year_s", OutputType::Number, "s", 3},
                                   {"downtime_per_quarter_s", OutputType::Number, "s", 3},
                                   {"downtime_per_month_s", OutputType::Number, "s", 3},
                                   {"downtime_per_week_s", OutputType::Number, "s", 4},
                                   {"downtime_per_day_s", OutputType::Number, "s", 5},
                               });
}

// The System Design Primer's "Availability in numbers", as it prints it.
TEST(SlaDowntime, ReproducesPublishedExamples) {
  const std::string three = run_tool(tool(), downtime_of(99.9));
  EXPECT_NEAR(field(three, "downtime_per_year_s"), 8 * 3600 + 45 * 60 + 57, 0.5);  // 8h 45min 57s
  EXPECT_NEAR(field(three, "downtime_per_month_s"), 43 * 60 + 49.7, 0.05);         // 43m 49.7s
  EXPECT_NEAR(field(three, "downtime_per_week_s"), 10 * 60 + 4.8, 0.05);           // 10m 4.8s
  EXPECT_NEAR(field(three, "downtime_per_day_s"), 60 + 26.4, 0.05);                // 1m 26.4s
  const std::string four = run_tool(tool(), downtime_of(99.99));
  EXPECT_NEAR(field(four, "downtime_per_year_s"), 52 * 60 + 35.7, 0.05);  // 52min 35.7s
  EXPECT_NEAR(field(four, "downtime_per_month_s"), 4 * 60 + 23, 0.5);     // 4m 23s
  EXPECT_NEAR(field(four, "downtime_per_day_s"), 8.6, 0.05);              // 8.6s
  // Read backwards: 43m 49.7s a month is three nines.
  const std::string back = run_tool(tool(), availability_of(43 + 49.7 / 60, "month"));
  EXPECT_NEAR(field(back, "availability_pct"), 99.9, 0.00001);
  EXPECT_EQ(result_field(back, "nines"), "3.00");
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/sla-downtime.md, row by row.
TEST(SlaDowntime, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 three nines",
       downtime_of(99.9),
       {"99.90000", "3.00", "31556.952", "7889.238", "2629.746", "604.8000", "86.40000"}},
      {"2 four nines",
       downtime_of(99.99),
       {"99.99000", "4.00", "3155.695", "788.924", "262.975", "60.4800", "8.64000"}},
      {"3 one nine",
       downtime_of(90),
       {"90.00000", "1.00", "3155695.200", "788923.800", "262974.600", "60480.0000", "8640.00000"}},
      {"4 seven nines",
       downtime_of(99.99999),
       {"99.99999", "7.00", "3.156", "0.789", "0.263", "0.0605", "0.00864"}},
      {"5 99.95 %",
       downtime_of(99.95),
       {"99.95000", "3.30", "15778.476", "3944.619", "1314.873", "302.4000", "43.20000"}},
      {"6 43.83 min in a month",
       availability_of(43.83, "month"),
       {"99.90000", "3.00", "31557.600", "7889.400", "2629.800", "604.8124", "86.40177"}},
      {"7 one minute a day",
       availability_of(1, "day"),
       {"99.93056", "3.16", "21914.550", "5478.638", "1826.213", "420.0000", "60.00000"}},
      {"8 five minutes a year",
       availability_of(5, "year"),
       {"99.99905", "5.02", "300.000", "75.000", "25.000", "5.7496", "0.82137"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(SlaDowntime, DowntimeOutsideOneToSevenNinesIs422) {
  EXPECT_EQ(run_tool(tool(), availability_of(180, "day")),
            "422:downtime_min:downtime_min of 180 min in a day (1440.00 min) is 87.5000000 % "
            "availability, below the 90 % (one nine) this tool covers; enter at most 144.000000 "
            "min for a day");
  EXPECT_EQ(run_tool(tool(), availability_of(0.001, "year")),
            "422:downtime_min:downtime_min of 0.001 min in a year (525949.20 min) is 99.9999998 "
            "% availability, above the 99.99999 % (seven nines) this tool covers; enter at least "
            "0.052595 min for a year");
  // A downtime longer than the period is refused the same way.
  EXPECT_EQ(run_tool(tool(), availability_of(2000, "day")).rfind("422:downtime_min:", 0), 0u);
}

TEST(SlaDowntime, RoundTripOverRandomValidInputs) {
  std::mt19937 rng(2016);
  const auto& d = tool().descriptor;
  const char* periods[] = {"day", "week", "month", "quarter", "year"};
  const char* keys[] = {"downtime_per_day_s", "downtime_per_week_s", "downtime_per_month_s",
                        "downtime_per_quarter_s", "downtime_per_year_s"};
  const double lengths_s[] = {86400, 604800, 31556952.0 / 12, 31556952.0 / 4, 31556952};
  for (int draw = 0; draw < 2000; ++draw) {
    const double availability = tool_test::draw_number(d.inputs[1], rng);
    const auto result = compute_body(tool(), downtime_of(availability));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));
    const auto& out = std::get<catalog::Outputs>(result);
    ASSERT_NEAR(out.number("nines"), -std::log10(1 - availability / 100), 1e-6);
    const int i = draw % 5;
    // Each period's downtime is the same share of its length ...
    ASSERT_NEAR(out.number(keys[i]) / lengths_s[i], 1 - availability / 100, 1e-12);
    // ... and read back as a downtime per that period it gives the availability again.
    const auto back = compute_body(tool(), availability_of(out.number(keys[i]) / 60, periods[i]));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(back)) << availability;
    ASSERT_NEAR(std::get<catalog::Outputs>(back).number("availability_pct"), availability, 1e-9);
  }
}

}  // namespace
}  // namespace toolcalc::tools
