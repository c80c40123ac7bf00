// POST {base}/v1/{domain}/{slug}/tolerance and …/solve (docs/api.md, "Analyses"), and
// MCP's tolerance_analysis and solve_for_input, up to the analysis's start: the body is
// checked on the thread that read it (api/tolerance_request, api/solve_request: 400), the
// quota units of the evaluations are reserved (429), and the job (its work: src/analysis,
// and its result's rendering) goes to Service::start_analysis (api/analysis.cpp), which
// runs it on the analysis pool or here and writes its answer.
#include <algorithm>
#include <memory>
#include <variant>

#include "api/analysis_job.hpp"
#include "api/analysis_render.hpp"
#include "api/handlers/handlers.hpp"
#include "api/limits.hpp"
#include "api/mcp.hpp"
#include "api/solve_request.hpp"
#include "api/tolerance_request.hpp"
#include "core/decimal.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::api::handlers {
namespace {

std::string point_text(const catalog::ToolDescriptor& tool,
                       const analysis::ToleranceOptions& options, const analysis::Point& at) {
  std::string s;
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    if (i) s += ", ";
    s += tool.inputs[options.inputs[i].input].key + " = ";
    append_shortest(s, at[i]);
  }
  return s;
}

std::string inputs_field(const std::string& field) {
  return field.empty() ? field : "inputs." + field;
}

void tolerance_work(const catalog::Tool& tool, const ToleranceRequest& request,
                    AnalysisOutcome& out) {
  const analysis::ToleranceOutcome r =
      analysis::run_tolerance(tool, request.nominal, request.options);
  if (const auto* failure = std::get_if<analysis::ToleranceFailure>(&r)) {
    if (failure->kind == analysis::ToleranceFailure::Kind::Nominal) {
      out.error = unprocessable(inputs_field(failure->error.field),
                                "at the nominal inputs: " + failure->error.message);
    } else {
      out.error =
          unprocessable(inputs_field(failure->error.field),
                        "the tool computes no result for any of the " +
                            std::to_string(request.options.samples) + " samples; the first, at " +
                            point_text(tool.descriptor, request.options, failure->at) + ": " +
                            failure->error.message);
    }
    return;
  }
  const auto& result = std::get<analysis::ToleranceResult>(r);
  out.evaluations = result.evaluations;
  metrics::analysis_samples.inc(static_cast<uint64_t>(result.evaluations));
  render_tolerance_result(out.result_json, tool.descriptor, request, result);
  out.ok = true;
}

void solve_work(const catalog::Tool& tool, const SolveRequest& request, AnalysisOutcome& out) {
  const analysis::SolveResult r = analysis::run_solve(tool, request.nominal, request.options);
  out.evaluations = r.evaluations;
  metrics::analysis_samples.inc(static_cast<uint64_t>(r.evaluations));
  if (!r.solutions.empty()) {
    render_solve_result(out.result_json, tool.descriptor, request, r);
    out.ok = true;
    return;
  }
  const auto& d = tool.descriptor;
  const auto& in = d.inputs[request.options.input];
  const std::string& output = d.outputs[request.options.output].key;
  std::string range = in.key + " from ";
  append_shortest(range, in.min.value_or(0));
  range += " to ";
  append_shortest(range, in.max.value_or(0));
  std::string msg;
  if (!r.reach_min) {
    msg = "the tool computes no result for " + range;
    if (r.first_failure) msg += ": " + r.first_failure->message;
  } else {
    const double v = request.options.target;
    std::string reach;
    append_shortest(reach, *r.reach_min);
    reach += " to ";
    append_shortest(reach, *r.reach_max);
    std::string target;
    append_shortest(target, v);
    if (v < *r.reach_min || v > *r.reach_max)
      msg = "no value of " + range + " gives " + output + " = " + target + ": " + output +
            " reaches " + reach + " there";
    else
      msg = output + " reaches " + reach + " for " + range + ", but it does not pass through " +
            target + " continuously (it jumps there, or the tool refuses the values between)";
    if (!r.complete) msg += "; the search stopped at its budget of evaluations";
  }
  out.error = {ErrorCode::NoSolution, msg, "target.value"};
}

bool prepare_tolerance(const catalog::RegisteredTool& tool, std::string_view body, AnalysisJob& job,
                       ApiError& error) {
  auto request = std::make_shared<ToleranceRequest>();
  if (!parse_tolerance_request(tool.tool.descriptor, body, *request, error)) return false;
  job.tool = &tool;
  job.what = "tolerance analysis";
  job.evaluations = request->evaluations;
  job.work = [request, t = &tool.tool](AnalysisOutcome& out) { tolerance_work(*t, *request, out); };
  return true;
}

bool prepare_solve(const catalog::RegisteredTool& tool, std::string_view body, AnalysisJob& job,
                   ApiError& error) {
  auto request = std::make_shared<SolveRequest>();
  if (!parse_solve_request(tool.tool.descriptor, body, *request, error)) return false;
  job.tool = &tool;
  job.what = "solve";
  job.evaluations = analysis::kSolveEvaluationBudget;
  job.work = [request, t = &tool.tool](AnalysisOutcome& out) { solve_work(*t, *request, out); };
  return true;
}

// The units of the job's evaluations at the tool's cost class (429 when the month has fewer).
bool reserve_analysis_quota(HandlerEnv& env, ServiceContext& ctx, AnalysisJob& job,
                            ApiError& error) {
  const int64_t cost_class = job.tool->analysis_cost_class;
  const int64_t units = analysis_quota_units(job.evaluations, cost_class);
  job.quota = env.reserve_units(ctx, units);
  if (job.quota.allowed) return true;
  ctx.tool_status = 429;
  ctx.res.set_header("Retry-After", decimal_string(std::max<int64_t>(1, job.quota.retry_after_s)));
  error = {
      ErrorCode::QuotaExceeded,
      "this " + job.what + " needs " + decimal_string(units) + " units of the monthly quota (" +
          decimal_string(cost_class) + " per " + decimal_string(kEvaluationsPerQuotaUnit) +
          " evaluations of " + job.tool->tool.descriptor.slug + ", whose analysis cost class is " +
          decimal_string(cost_class) + "; up to " + decimal_string(job.evaluations) +
          " evaluations) but the monthly quota of " + decimal_string(job.quota.limit) + " has " +
          decimal_string(job.quota.remaining) + " left; it resets at " + job.quota.resets_at,
      {}};
  return false;
}

}  // namespace

void tolerance(HandlerEnv& env, ServiceContext& ctx) {
  if (!ctx.require_json_body("the analysis")) return;
  auto job = std::make_shared<AnalysisJob>();
  ApiError error;
  if (!prepare_tolerance(*ctx.registered, ctx.req.body, *job, error)) return ctx.fail(error);
  if (!reserve_analysis_quota(env, ctx, *job, error)) return ctx.fail(error);
  env.start_analysis(ctx, std::move(job));
}

void solve(HandlerEnv& env, ServiceContext& ctx) {
  if (!ctx.require_json_body("the solve")) return;
  auto job = std::make_shared<AnalysisJob>();
  ApiError error;
  if (!prepare_solve(*ctx.registered, ctx.req.body, *job, error)) return ctx.fail(error);
  if (!reserve_analysis_quota(env, ctx, *job, error)) return ctx.fail(error);
  env.start_analysis(ctx, std::move(job));
}

void mcp_analysis(HandlerEnv& env, ServiceContext& ctx, const catalog::RegisteredTool& tool,
                  bool tolerance, std::string_view body) {
  ctx.tool = &tool.tool.descriptor;
  auto job = std::make_shared<AnalysisJob>();
  ApiError error;
  const bool valid = tolerance ? prepare_tolerance(tool, body, *job, error)
                               : prepare_solve(tool, body, *job, error);
  if (!valid) {  // a tool error the model can correct, as for the catalog's tools
    ctx.tool_status = error.status();
    ctx.res.status = 200;
    ctx.res.body = mcp::call_error(ctx.mcp_id, error, ctx.res.request_id);
    return;
  }
  if (!reserve_analysis_quota(env, ctx, *job, error)) return ctx.fail(error);
  env.start_analysis(ctx, std::move(job));
}

}  // namespace toolcalc::api::handlers
