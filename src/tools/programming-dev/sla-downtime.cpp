// SLA downtime: the downtime an availability allows per day, week, month, quarter and year, or
// the availability a downtime per period amounts to. Formula, conventions, bounds, references
// and worked examples: docs/tools/sla-downtime.md.
#include <cmath>
#include <stdexcept>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// The mean Gregorian year of 365.2425 days (146 097 days in 400 years), the year of the
// availability table in the references; a month is a twelfth and a quarter a fourth of it.
constexpr double kDayS = 86400;
constexpr double kWeekS = 7 * kDayS;
constexpr double kYearS = 365.2425 * kDayS;
constexpr double kQuarterS = kYearS / 4;
constexpr double kMonthS = kYearS / 12;

// The availabilities the tool covers: one nine to seven nines.
constexpr double kMinAvailabilityPct = 90;
constexpr double kMaxAvailabilityPct = 99.99999;
constexpr double kMaxUnavailable = 0.1;   // 1 − 90 %
constexpr double kMinUnavailable = 1e-7;  // 1 − 99.99999 %

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "sla-downtime";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "SLA Downtime and Availability";
  t.description =
      "The downtime an availability target (99.9 %, \"three nines\") allows per day, week, "
      "month, quarter and year, or the availability that a downtime per period amounts to, "
      "with the number of nines.";
  t.standard = std::nullopt;
  t.inputs = {
      choice_input({.key = "solve_for",
                    .label = "Solve for",
                    .help = "downtime: the downtime allowed by availability_pct. availability: "
                            "the availability given downtime_min per downtime_period.",
                    .options = {"downtime", "availability"},
                    .default_value = "downtime"}),
      number_input({.key = "availability_pct",
                    .label = "Availability",
                    .unit = "%",
                    .help = "Share of time the service is up, from 90 (one nine) to 99.99999 "
                            "(seven nines), e.g. 99.95. Ignored when solve_for = availability.",
                    .min = kMinAvailabilityPct,
                    .max = kMaxAvailabilityPct,
                    .step = 0.00001,
                    .default_value = 99.9,
                    .required = false}),
      number_input({.key = "downtime_min",
                    .label = "Downtime",
                    .unit = "min",
                    .help = "Total downtime in one downtime_period, in minutes (90 s = 1.5). Used "
                            "only when solve_for = availability; must leave between 90 % and "
                            "99.99999 % availability.",
                    .min = 0.00001,
                    .max = 52596,
                    .step = 0.01,
                    .default_value = 43.83,
                    .required = false}),
      choice_input({.key = "downtime_period",
                    .label = "Downtime period",
                    .help = "The period downtime_min is measured over: a day, a week (7 days), a "
                            "month (1/12 year, 30.44 days), a quarter or a year (365.2425 days).",
                    .options = {"day", "week", "month", "quarter", "year"},
                    .default_value = "month",
                    .required = false}),
  };
  // Decimals chosen so that seven nines (the smallest downtime) keeps 3 significant digits:
  // 3.16 s a year, 0.789 s a quarter, 0.263 s a month, 0.0605 s a week, 0.00864 s a day.
  t.outputs = {
      number_output(
          {.key = "availability_pct", .label = "Availability", .unit = "%", .precision = 5}),
      number_output(
          {.key = "nines", .label = "Nines, −log10(1 − availability)", .unit = "", .precision = 2}),
      number_output({.key = "downtime_per_year_s",
                     .label = "Downtime per year (365.2425 days)",
                     .unit = "s",
                     .precision = 3}),
      number_output({.key = "downtime_per_quarter_s",
                     .label = "Downtime per quarter",
                     .unit = "s",
                     .precision = 3}),
      number_output({.key = "downtime_per_month_s",
                     .label = "Downtime per month (1/12 year)",
                     .unit = "s",
                     .precision = 3}),
      number_output({.key = "downtime_per_week_s",
                     .label = "Downtime per week",
                     .unit = "s",
                     .precision = 4}),
      number_output(
          {.key = "downtime_per_day_s", .label = "Downtime per day", .unit = "s", .precision = 5}),
  };
  t.references = {
      "B. Beyer, C. Jones, J. Petoff, N. R. Murphy (eds.), \"Site Reliability Engineering\", "
      "O'Reilly, 2016, ch. 3 \"Embracing Risk\" (time-based availability = uptime / (uptime + "
      "downtime); the yearly and per-period downtime of a target)",
      "D. Martin, \"The System Design Primer\" (github.com/donnemartin/system-design-primer), "
      "section \"Availability in numbers\" (downtime per year, month, week and day for three and "
      "four nines)",
      "ITU-T Recommendation E.800 (09/2008), \"Definitions of terms related to quality of "
      "service\", §3.1 (availability as the fraction of time in the up state)",
  };
  t.examples = {
      {.title = "Three nines: 99.9 %",
       .request_json = R"({"solve_for":"downtime","availability_pct":99.9})",
       .expected_json = R"({"nines":3,"downtime_per_year_s":31557,"downtime_per_month_s":2629.7,)"
                        R"("downtime_per_week_s":604.8,"downtime_per_day_s":86.4})",
       .tolerance_pct = 0.005,
       .source = "The System Design Primer (github.com/donnemartin/system-design-primer, "
                 "README.md, \"Availability in numbers\"), 99.9 % availability: 8h 45min 57s a "
                 "year, 43m 49.7s a month, 10m 4.8s a week, 1m 26.4s a day"},
      {.title = "Four nines: 99.99 %",
       .request_json = R"({"solve_for":"downtime","availability_pct":99.99})",
       .expected_json = R"({"downtime_per_year_s":3155.7,"downtime_per_month_s":263,)"
                        R"("downtime_per_day_s":8.6})",
       .tolerance_pct = 0.6,
       .source = "The System Design Primer (github.com/donnemartin/system-design-primer, "
                 "README.md, \"Availability in numbers\"), 99.99 % availability: 52min 35.7s a "
                 "year, 4m 23s a month, 8.6s a day (its 1m 5s a week is not 0.01 % of 7 days, "
                 "60.48 s, and is left out)"},
      {.title = "43m 49.7s of downtime in a month",
       .request_json = R"({"solve_for":"availability","downtime_min":43.82833333333333,)"
                       R"("downtime_period":"month"})",
       .expected_json = R"({"availability_pct":99.9,"nines":3})",
       .tolerance_pct = 0.0001,
       .source = "The System Design Primer (github.com/donnemartin/system-design-primer, "
                 "README.md, \"Availability in numbers\"), read backwards: 43m 49.7s of downtime "
                 "a month is 99.9 % availability, three nines"},
  };
  return t;
}

double period_s(const std::string& period) {
  if (period == "day") return kDayS;
  if (period == "week") return kWeekS;
  if (period == "month") return kMonthS;
  if (period == "quarter") return kQuarterS;
  if (period == "year") return kYearS;
  throw std::logic_error("sla-downtime: unknown downtime_period");  // validation prevents it
}

ComputeResult compute(const Inputs& in) {
  // The unavailable fraction u = 1 − A, taken from whichever input is given; (100 − A) is
  // exact enough at seven nines (1e-5 of 100 keeps 11 digits).
  double unavailable;
  if (in.enumeration("solve_for") == "downtime") {
    unavailable = (100 - in.number("availability_pct")) / 100;
  } else {
    const std::string& period = in.enumeration("downtime_period");
    const double length_min = period_s(period) / 60;
    const double downtime_min = in.number("downtime_min");
    unavailable = downtime_min / length_min;
    // The covered range with a little slack, so that a downtime read off a table at exactly
    // 90 % or seven nines is not refused for a rounding of its last bit.
    const bool too_low = unavailable > kMaxUnavailable * (1 + 1e-12);
    const bool too_high = unavailable < kMinUnavailable * (1 - 1e-9);
    if (too_low || too_high) {
      std::string msg = "downtime_min of ";
      append_shortest(msg, downtime_min);
      msg += " min in a " + period + " (";
      append_fixed(msg, length_min, 2);
      msg += " min) is ";
      append_fixed(msg, 100 * (1 - unavailable), 7);
      msg += too_low ? " % availability, below the 90 % (one nine) this tool covers; enter at most "
                     : " % availability, above the 99.99999 % (seven nines) this tool covers; "
                       "enter at least ";
      append_fixed(msg, length_min * (too_low ? kMaxUnavailable : kMinUnavailable), 6);
      msg += " min for a " + period;
      return ToolError{"downtime_min", std::move(msg)};
    }
  }
  Outputs out;
  out.set("availability_pct", 100 * (1 - unavailable))
      .set("nines", -std::log10(unavailable))
      .set("downtime_per_year_s", unavailable * kYearS)
      .set("downtime_per_quarter_s", unavailable * kQuarterS)
      .set("downtime_per_month_s", unavailable * kMonthS)
      .set("downtime_per_week_s", unavailable * kWeekS)
      .set("downtime_per_day_s", unavailable * kDayS);
  return out;
}

}  // namespace

Tool make_sla_downtime() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
