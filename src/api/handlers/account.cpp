// The caller's own account: GET {base}/v1/me (plan, limits, the month's quota) and
// GET {base}/v1/usage?month=YYYY-MM, the caller's daily usage per tool in one month
// (default: the current one), from the usage history the accounts layer keeps for the
// current month and the 12 before it. docs/api.md, "Usage history".
#include <boost/url/params_view.hpp>
#include <boost/url/parse_query.hpp>
#include <map>

#include "accounts/monthly_quota.hpp"
#include "accounts/usage_history.hpp"
#include "accounts/utc_month.hpp"
#include "api/handlers/handlers.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::handlers {
namespace {

// The months GET /v1/usage serves: the current one and the ones before it still kept.
constexpr int64_t kHistoryMonths = store::kHistoryMonths;

// `month` as a month index (accounts::UtcMonth::index), or -1 with `error` set.
int64_t parse_usage_query(std::string_view query_view, int64_t current, ApiError& error) {
  int64_t month = current;
  if (query_view.empty()) return month;
  // A NUL-terminated copy: Boost.URL 1.81's parse_query reads its argument with strlen.
  const std::string query(query_view);
  if (!boost::urls::parse_query(query)) {
    error = {ErrorCode::ValidationError, "malformed query string", {}};
    return -1;
  }
  bool seen = false;
  for (const auto& p : boost::urls::params_view(query)) {
    if (p.key.empty() && !p.has_value) continue;  // stray '&'
    if (p.key != "month") {
      error = validation_error(p.key, "unknown query parameter '" + p.key + "' (expected month)");
      return -1;
    }
    if (seen) {
      error = validation_error("month", "month is given more than once");
      return -1;
    }
    seen = true;
    month = accounts::month_index_of_period(p.value);
    if (month < 0) {
      error = validation_error("month",
                               "month must be YYYY-MM, e.g. " + accounts::period_of_index(current));
      return -1;
    }
  }
  if (month > current || month <= current - kHistoryMonths) {
    error = validation_error("month", "month must be one of the " + std::to_string(kHistoryMonths) +
                                          " months kept, " +
                                          accounts::period_of_index(current - kHistoryMonths + 1) +
                                          " to " + accounts::period_of_index(current));
    return -1;
  }
  return month;
}

struct ToolDay {
  int64_t executions = 0, units = 0;
  std::map<int32_t, int64_t> refusals;  // HTTP status → count

  void add(int32_t metric, int64_t n) {
    if (metric == store::kHistoryExecutions)
      executions += n;
    else if (metric == store::kHistoryUnits)
      units += n;
    else
      refusals[metric] += n;
  }
  void write_counts(JsonWriter& w) const {
    w.field("executions", executions).field("units", units).key("refusals").begin_object();
    for (const auto& [status, n] : refusals) w.key(std::to_string(status)).integer(n);
    w.end_object();
  }
};

}  // namespace

void me(HandlerEnv& env, ServiceContext& ctx) {
  const accounts::QuotaStatus q = env.access.quota_status(ctx.caller);
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("plan", ctx.caller.plan.name).field("key_prefix", ctx.caller.key_prefix);
  w.field("label", ctx.caller.label);
  w.field("rate_limit_per_minute", ctx.caller.plan.rate_per_minute);
  w.key("quota").begin_object();
  if (q.unlimited)
    w.key("limit").null().field("used", q.used).key("remaining").null();
  else
    w.field("limit", q.limit).field("used", q.used).field("remaining", q.remaining);
  w.field("period", q.period).field("resets_at", q.resets_at).end_object();
  // The effective limits and where each comes from: the plan, or the key's own.
  w.key("limits").begin_object();
  w.key("rate_per_minute").begin_object().field("value", ctx.caller.plan.rate_per_minute);
  w.field("source", ctx.caller.rate_from_key ? "key" : "plan").end_object();
  w.key("monthly_quota").begin_object().key("value");
  if (ctx.caller.plan.monthly_quota)
    w.integer(*ctx.caller.plan.monthly_quota);
  else
    w.null();
  w.field("source", ctx.caller.quota_from_key ? "key" : "plan").end_object();
  w.end_object();
  w.end_object();
  // The month on the same response agrees with the body.
  if (!q.unlimited) ctx.month = accounts::QuotaView{q.limit, q.remaining};
  ctx.ok_result(result);
}

void usage(HandlerEnv& env, ServiceContext& ctx) {
  const int64_t now_s = env.clock.now_s();
  const accounts::UtcMonth current = accounts::utc_month_of(now_s);
  ApiError error;
  const int64_t month = parse_usage_query(ctx.route.query, current.index(), error);
  if (month < 0) return ctx.fail(error);
  accounts::UtcMonth m = current;
  while (m.index() > month) m = accounts::utc_month_of(m.start_s - 1);

  const auto rows = env.access.usage_history(ctx.caller, accounts::utc_day_of(m.start_s),
                                             accounts::utc_day_of(m.end_s));
  // Rows come ordered by day, tool and metric: one entry per (day, tool).
  std::map<int32_t, std::map<std::string, ToolDay>> days;
  ToolDay total;
  for (const auto& r : rows) {
    days[r.day][r.tool].add(r.metric, r.count);
    total.add(r.metric, r.count);
  }

  std::string result;
  JsonWriter w(result);
  w.begin_object().field("period", m.period()).field("key_prefix", ctx.caller.key_prefix);
  w.key("days").begin_array();
  for (const auto& [day, tools] : days) {
    w.begin_object().field("date", accounts::iso8601_utc(int64_t{day} * 86'400).substr(0, 10));
    w.key("tools").begin_array();
    for (const auto& [tool, counts] : tools) {
      const size_t slash = tool.find('/');
      w.begin_object().field("domain", tool.substr(0, slash));
      w.field("tool", slash == std::string::npos ? std::string() : tool.substr(slash + 1));
      counts.write_counts(w);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array();
  w.key("totals").begin_object();
  total.write_counts(w);
  w.end_object().end_object();
  ctx.ok_result(result);
}

}  // namespace toolcalc::api::handlers
