// SLO error budget and burn rate: the budget over the SLO window, the burn rate of an observed
// error rate and the time to exhaust the budget at it, and the burn-rate alert threshold of the
// Google SRE Workbook's multiwindow, multi-burn-rate alerts. Formula, bounds, references and
// worked examples: docs/tools/error-budget-burn-rate.md.
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kHoursPerDay = 24;
constexpr double kMinPerHour = 60;
// The Workbook's guideline: a short window 1/12 of the long one (1 h / 5 min, 6 h / 30 min).
constexpr double kShortWindowFraction = 1.0 / 12;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "error-budget-burn-rate";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "SLO Error Budget and Burn Rate";
  t.description =
      "The error budget of an SLO over its window, the burn rate of an observed error rate and "
      "how long the budget lasts at it, and the burn-rate threshold (with its error rate and "
      "short window) of an alert that fires when a given share of the budget is spent within "
      "an alert window, as in the Google SRE Workbook's multiwindow, multi-burn-rate alerts.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "slo_pct",
                    .label = "SLO target",
                    .unit = "%",
                    .help = "Share of good events (or of good time) the SLO promises, from 90 to "
                            "99.999, e.g. 99.9.",
                    .min = 90,
                    .max = 99.999,
                    .step = 0.001,
                    .default_value = 99.9}),
      number_input({.key = "window_days",
                    .label = "SLO window",
                    .unit = "days",
                    .help = "The compliance period the budget is spent over, e.g. 30 (rolling) or "
                            "28; 1 to 365 days.",
                    .min = 1,
                    .max = 365,
                    .step = 1,
                    .default_value = 30}),
      number_input({.key = "observed_error_rate_pct",
                    .label = "Observed error rate",
                    .unit = "%",
                    .help = "Share of bad events over the recent period, e.g. 1 for 1 % of "
                            "requests failing; 0.01 to 100.",
                    .min = 0.01,
                    .max = 100,
                    .step = 0.01,
                    .default_value = 1}),
      number_input({.key = "alert_window_h",
                    .label = "Alert (long) window",
                    .unit = "h",
                    .help = "The window the alert averages the error rate over: 1 h and 6 h for "
                            "pages, 72 h (3 days) for tickets in the Workbook; at most the SLO "
                            "window.",
                    .min = 0.1,
                    .max = 8760,
                    .step = 0.1,
                    .default_value = 1}),
      number_input({.key = "budget_consumed_pct",
                    .label = "Budget spent before the alert fires",
                    .unit = "%",
                    .help = "Share of the window's error budget the alert window may consume "
                            "before the alert fires: 2 % (1 h page), 5 % (6 h page), 10 % "
                            "(3-day ticket) in the Workbook; 1 to 100.",
                    .min = 1,
                    .max = 100,
                    .step = 0.1,
                    .default_value = 2}),
  };
  t.outputs = {
      number_output({.key = "error_budget_pct",
                     .label = "Error budget (100 % − SLO)",
                     .unit = "%",
                     .precision = 5}),
      number_output({.key = "error_budget_min",
                     .label = "Error budget as time over the window",
                     .unit = "min",
                     .precision = 4}),
      number_output({.key = "burn_rate",
                     .label = "Burn rate (observed error rate / budget)",
                     .unit = "",
                     .precision = 5}),
      number_output({.key = "time_to_exhaustion_h",
                     .label = "Time to spend the whole budget at the observed rate",
                     .unit = "h",
                     .precision = 2,
                     .small_values_in = "time_to_exhaustion_min"}),
      number_output({.key = "time_to_exhaustion_min",
                     .label = "Time to spend the whole budget, in minutes",
                     .unit = "min",
                     .precision = 4}),
      number_output({.key = "alert_burn_rate_threshold",
                     .label = "Alert threshold: burn rate",
                     .unit = "",
                     .precision = 4}),
      number_output({.key = "alert_error_rate_pct",
                     .label = "Alert threshold: error rate over the alert window",
                     .unit = "%",
                     .precision = 4,
                     .small_values_in = "alert_error_rate_ppm"}),
      number_output({.key = "alert_error_rate_ppm",
                     .label = "Alert threshold: error rate in parts per million",
                     .unit = "ppm",
                     .precision = 3}),
      number_output({.key = "short_window_min",
                     .label = "Short window (1/12 of the alert window)",
                     .unit = "min",
                     .precision = 3}),
      text_output({.key = "observed_rate_fires_alert",
                   .label = "Would the observed error rate fire the alert?",
                   .options = {"yes", "no"}}),
  };
  t.references = {
      "B. Beyer, N. R. Murphy, D. K. Rensin, K. Kawahara, S. Thorne (eds.), \"The Site "
      "Reliability Workbook\", O'Reilly, 2018, ch. 5 \"Alerting on SLOs\" (burn rate; burn-rate "
      "threshold = budget consumed × SLO period / alert window; Table 5-8, recommended windows "
      "and burn rates for a 99.9 % SLO; short window 1/12 of the long window)",
      "B. Beyer, C. Jones, J. Petoff, N. R. Murphy (eds.), \"Site Reliability Engineering\", "
      "O'Reilly, 2016, ch. 3 \"Embracing Risk\" (the error budget = 1 − SLO over the window)",
      "Datadog documentation, \"Burn Rate Alerts\" (docs.datadoghq.com/service_level_objectives/"
      "burn_rate): time to exhaustion = SLO window / burn rate; observed error rate = burn rate "
      "× (1 − SLO)",
  };
  t.examples = {
      {.title = "Workbook page alert: 2 % of a 30-day 99.9 % budget in 1 h",
       .request_json = R"({"slo_pct":99.9,"window_days":30,"observed_error_rate_pct":1,)"
                       R"("alert_window_h":1,"budget_consumed_pct":2})",
       .expected_json = R"({"alert_burn_rate_threshold":14.4,"short_window_min":5})",
       .tolerance_pct = 0,
       .source = "Google SRE Workbook ch. 5, Table 5-8 (page: 1 hour long window, 5 minutes "
                 "short window, 14.4 burn rate, 2 % of the budget), as reproduced in Splunk "
                 "Observability Cloud documentation \"Burn rate alerts\" (help.splunk.com), table "
                 "for a 99.9 % SLO with a 30-day compliance window"},
      {.title = "Workbook page alert: 5 % of a 30-day budget in 6 h",
       .request_json = R"({"slo_pct":99.9,"window_days":30,"observed_error_rate_pct":1,)"
                       R"("alert_window_h":6,"budget_consumed_pct":5})",
       .expected_json = R"({"alert_burn_rate_threshold":6,"short_window_min":30})",
       .tolerance_pct = 0,
       .source = "Google SRE Workbook ch. 5, Table 5-8 (page: 6 hours, 30 minutes, 6 burn rate, "
                 "5 %), as reproduced in Splunk Observability Cloud documentation \"Burn rate "
                 "alerts\" (help.splunk.com), 30-day table"},
      {.title = "Workbook ticket: 10 % of a 30-day budget in 3 days",
       .request_json = R"({"slo_pct":99.9,"window_days":30,"observed_error_rate_pct":1,)"
                       R"("alert_window_h":72,"budget_consumed_pct":10})",
       .expected_json = R"({"alert_burn_rate_threshold":1,"short_window_min":360})",
       .tolerance_pct = 0,
       .source = "Google SRE Workbook ch. 5, Table 5-8 (ticket: 3 days, 6 hours, 1 burn rate, "
                 "10 %), as quoted in \"multiwindow-multi-burn-rate-alerting\" SKILL.md "
                 "(raw.githubusercontent.com/StevenACoffman/steve-skill-market)"},
      {.title = "7-day window: 10 % of the budget in 1 h",
       .request_json = R"({"slo_pct":99.9,"window_days":7,"observed_error_rate_pct":1,)"
                       R"("alert_window_h":1,"budget_consumed_pct":10})",
       .expected_json = R"({"alert_burn_rate_threshold":16.8,"short_window_min":5})",
       .tolerance_pct = 0,
       .source = "Splunk Observability Cloud documentation \"Burn rate alerts\" "
                 "(help.splunk.com), table for a 99.9 % SLO with a 7-day compliance window: 1 "
                 "hour / 5 minutes / 10 % / 16.8 (and 6 hours / 30 minutes / 20 % / 5.6)"},
      {.title = "Burn rate 10: 1 % errors against a 99.9 % SLO over 30 days",
       .request_json = R"({"slo_pct":99.9,"window_days":30,"observed_error_rate_pct":1,)"
                       R"("alert_window_h":1,"budget_consumed_pct":2})",
       .expected_json = R"({"burn_rate":10,"time_to_exhaustion_h":72})",
       .tolerance_pct = 0,
       .source = "Datadog documentation \"Burn Rate Alerts\" (docs.datadoghq.com/"
                 "service_level_objectives/burn_rate): for a 99.9 % SLO over 30 days, a burn "
                 "rate of 10 exhausts the budget in 3 days, the observed error rate being 10 × "
                 "0.001 = 0.01"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double budget = (100 - in.number("slo_pct")) / 100;  // a fraction of events or time
  const double window_h = in.number("window_days") * kHoursPerDay;
  const double error_rate = in.number("observed_error_rate_pct") / 100;
  const double alert_window_h = in.number("alert_window_h");
  const double consumed = in.number("budget_consumed_pct") / 100;
  if (alert_window_h > window_h) {
    std::string msg = "alert_window_h of ";
    append_shortest(msg, alert_window_h);
    msg += " h is longer than the ";
    append_shortest(msg, window_h);
    msg +=
        " h SLO window: the alert averages over part of the window; shorten it or lengthen "
        "window_days";
    return ToolError{"alert_window_h", std::move(msg)};
  }
  const double burn_rate = error_rate / budget;
  const double exhaustion_h = window_h / burn_rate;
  // Spending `consumed` of the budget within the alert window is a burn rate of
  // consumed × window / alert window (Workbook ch. 5).
  const double threshold = consumed * window_h / alert_window_h;
  const double alert_rate = threshold * budget;
  Outputs out;
  out.set("error_budget_pct", budget * 100)
      .set("error_budget_min", budget * window_h * kMinPerHour)
      .set("burn_rate", burn_rate)
      .set("time_to_exhaustion_h", exhaustion_h)
      .set("time_to_exhaustion_min", exhaustion_h * kMinPerHour)
      .set("alert_burn_rate_threshold", threshold)
      .set("alert_error_rate_pct", alert_rate * 100)
      .set("alert_error_rate_ppm", alert_rate * 1e6)
      .set("short_window_min", alert_window_h * kShortWindowFraction * kMinPerHour)
      .set("observed_rate_fires_alert", error_rate >= alert_rate ? "yes" : "no");
  return out;
}

}  // namespace

Tool make_error_budget_burn_rate() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
