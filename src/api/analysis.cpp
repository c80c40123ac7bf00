// POST {base}/v1/{domain}/{slug}/tolerance and …/solve (docs/api.md, "Analyses"), and
// MCP's tolerance_analysis and solve_for_input: the body is checked on the thread that read
// it (api/tolerance_request, api/solve_request: 400), the quota units of the evaluations
// are reserved (429), the analysis runs (src/analysis) on the analysis pool when the thread
// runs an event loop (its place there taken fairly between keys: 429 TOO_MANY_ANALYSES for a
// key at its own limit, 503 SERVER_BUSY when the pool's queue is full), else right here, and its
// answer is written on the reading thread: 200 keeps the units of the evaluations made and gives
// back the rest; 422 and 500 give back every unit.
#include <algorithm>
#include <exception>
#include <memory>

#include "api/analysis_render.hpp"
#include "api/limits.hpp"
#include "api/mcp.hpp"
#include "api/service.hpp"
#include "api/service_context.hpp"
#include "api/solve_request.hpp"
#include "api/suspended_request.hpp"
#include "api/tolerance_request.hpp"
#include "core/decimal.hpp"
#include "core/event_loop.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::api {

// What an analysis produced, filled by the work (on the pool or inline).
struct AnalysisOutcome {
  bool ok = false;
  ApiError error;           // !ok: the 422 (UNPROCESSABLE, NO_SOLUTION)
  std::string result_json;  // ok: the `result` object
  int64_t evaluations = 0;
  std::string defect;  // an exception escaped the work: a 500
};

struct AnalysisJob {
  const catalog::RegisteredTool* tool = nullptr;
  std::string what;         // "tolerance analysis", "solve": for messages
  int64_t evaluations = 0;  // what the quota reserves units for (at most)
  accounts::QuotaReservation quota;
  std::function<void(AnalysisOutcome&)> work;  // may run on a pool thread: owns its data
  AnalysisOutcome outcome;
  // The request waiting for it, once the pool took it (never read by the pool thread).
  std::shared_ptr<SuspendedRequest> request;
};

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

}  // namespace

bool Service::prepare_tolerance(Context&, const catalog::RegisteredTool& tool,
                                std::string_view body, AnalysisJob& job, ApiError& error) {
  auto request = std::make_shared<ToleranceRequest>();
  if (!parse_tolerance_request(tool.tool.descriptor, body, *request, error)) return false;
  job.tool = &tool;
  job.what = "tolerance analysis";
  job.evaluations = request->evaluations;
  job.work = [request, t = &tool.tool](AnalysisOutcome& out) { tolerance_work(*t, *request, out); };
  return true;
}

bool Service::prepare_solve(Context&, const catalog::RegisteredTool& tool, std::string_view body,
                            AnalysisJob& job, ApiError& error) {
  auto request = std::make_shared<SolveRequest>();
  if (!parse_solve_request(tool.tool.descriptor, body, *request, error)) return false;
  job.tool = &tool;
  job.what = "solve";
  job.evaluations = analysis::kSolveEvaluationBudget;
  job.work = [request, t = &tool.tool](AnalysisOutcome& out) { solve_work(*t, *request, out); };
  return true;
}

bool Service::reserve_analysis_quota(Context& ctx, AnalysisJob& job, ApiError& error) {
  const int64_t cost_class = job.tool->analysis_cost_class;
  const int64_t units = analysis_quota_units(job.evaluations, cost_class);
  job.quota = reserve_units(ctx, units);
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

// Runs the job's work on the pool and finishes on this thread's event loop, or (no event
// loop, no pool, or a caller that waits: Service::handle) runs it here.
void Service::start_analysis(Context& ctx, std::shared_ptr<AnalysisJob> job) {
  auto work = [job] {
    try {
      job->work(job->outcome);
    } catch (const std::exception& e) {
      job->outcome = {};
      job->outcome.defect = e.what();
    } catch (...) {
      job->outcome = {};
      job->outcome.defect = "not a std::exception";
    }
  };
  boost::asio::io_context* loop = this_thread_event_loop();
  if (ctx.done && analyses_ && loop) {
    // The pool posts the finish to this thread's loop, which runs it only once this
    // returns: the request is suspended by then.
    const auto admission = analyses_->submit(ctx.caller.subject, work, *loop, [job] {
      std::shared_ptr<SuspendedRequest> request = std::move(job->request);
      request->analysis_done(job);
    });
    if (admission == AnalysisPool::Admission::Accepted) {
      job->request = SuspendedRequest::of(*this, ctx);
      ctx.deferred = true;
      return;
    }
    release_units(ctx, job->quota, job->quota.units);
    ctx.res.set_header("Retry-After", "1");
    if (admission == AnalysisPool::Admission::OwnerAtLimit) {
      ctx.tool_status = 429;
      const int limit = analyses_->per_owner_limit();
      return ctx.fail({ErrorCode::TooManyAnalyses,
                       "this key already has " + decimal_string(limit) +
                           (limit == 1 ? " analysis" : " analyses") +
                           " waiting or running, as many as one key may; retry when one has "
                           "answered",
                       {}});
    }
    ctx.tool_status = 503;
    return ctx.fail({ErrorCode::ServerBusy,
                     "the server is running as many analyses as it queues (" +
                         decimal_string(analyses_->threads() + analyses_->queue_limit()) +
                         "); retry shortly",
                     {}});
  }
  work();
  finish_analysis(ctx, *job);
}

void Service::finish_analysis(Context& ctx, AnalysisJob& job) {
  AnalysisOutcome& o = job.outcome;
  const bool mcp = ctx.route.kind == RouteKind::Mcp;
  if (!o.ok) {
    release_units(ctx, job.quota, job.quota.units);
    ctx.tool_status = o.defect.empty() ? o.error.status() : 500;
    if (!o.defect.empty()) {
      log::error("internal error", {{"request_id", ctx.res.request_id}, {"error", o.defect}});
      return ctx.fail(internal_error());
    }
    if (mcp) {
      ctx.res.status = 200;
      ctx.res.body = mcp::call_error(ctx.mcp_id, o.error, ctx.res.request_id);
      return;
    }
    return ctx.fail(o.error);
  }
  // Charged for the evaluations made; the rest of the reservation goes back.
  const int64_t kept =
      std::min(job.quota.units, analysis_quota_units(o.evaluations, job.tool->analysis_cost_class));
  const int64_t released = job.quota.units - kept;
  if (released > 0) release_units(ctx, job.quota, released);
  ctx.tool_status = 200;
  ctx.units_kept = kept;
  const std::optional<int64_t> remaining =
      job.quota.unlimited ? std::nullopt : std::optional<int64_t>(job.quota.remaining + released);
  if (mcp) {
    ctx.res.status = 200;
    ctx.res.body = mcp::call_result(ctx.mcp_id, o.result_json, ctx.res.request_id, remaining);
    return;
  }
  std::string& body = ctx.res.body;
  body.reserve(bodies_of(*job.tool).execute_prefix.size() + o.result_json.size() + 128);
  body += bodies_of(*job.tool).execute_prefix;
  body += o.result_json;
  ctx.finish_execution(remaining);
}

void Service::tolerance(Context& ctx) {
  if (!is_json_media_type(ctx.req.content_type))
    return ctx.fail({ErrorCode::UnsupportedMediaType,
                     "send the analysis as a JSON object with Content-Type: application/json",
                     {}});
  auto job = std::make_shared<AnalysisJob>();
  ApiError error;
  if (!prepare_tolerance(ctx, *ctx.registered, ctx.req.body, *job, error)) return ctx.fail(error);
  if (!reserve_analysis_quota(ctx, *job, error)) return ctx.fail(error);
  start_analysis(ctx, std::move(job));
}

void Service::solve(Context& ctx) {
  if (!is_json_media_type(ctx.req.content_type))
    return ctx.fail({ErrorCode::UnsupportedMediaType,
                     "send the solve as a JSON object with Content-Type: application/json",
                     {}});
  auto job = std::make_shared<AnalysisJob>();
  ApiError error;
  if (!prepare_solve(ctx, *ctx.registered, ctx.req.body, *job, error)) return ctx.fail(error);
  if (!reserve_analysis_quota(ctx, *job, error)) return ctx.fail(error);
  start_analysis(ctx, std::move(job));
}

void Service::mcp_analysis(Context& ctx, const catalog::RegisteredTool& tool, bool tolerance,
                           std::string_view body) {
  ctx.tool = &tool.tool.descriptor;
  auto job = std::make_shared<AnalysisJob>();
  ApiError error;
  const bool valid = tolerance ? prepare_tolerance(ctx, tool, body, *job, error)
                               : prepare_solve(ctx, tool, body, *job, error);
  if (!valid) {  // a tool error the model can correct, as for the catalog's tools
    ctx.tool_status = error.status();
    ctx.res.status = 200;
    ctx.res.body = mcp::call_error(ctx.mcp_id, error, ctx.res.request_id);
    return;
  }
  if (!reserve_analysis_quota(ctx, *job, error)) return ctx.fail(error);
  start_analysis(ctx, std::move(job));
}

}  // namespace toolcalc::api
