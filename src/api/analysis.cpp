// The analyses' second half (docs/api.md, "Analyses"): a job whose request was checked and
// whose quota units were reserved (api/handlers/analyses.cpp) runs (src/analysis) on the
// analysis pool when the thread runs an event loop (its place there taken fairly between
// keys: 429 TOO_MANY_ANALYSES for a key at its own limit, 503 SERVER_BUSY when the pool's
// queue is full), else right here, and its answer is written on the reading thread: 200
// keeps the units of the evaluations made and gives back the rest; 422 and 500 give back
// every unit.
#include <algorithm>
#include <exception>
#include <memory>

#include "api/analysis_job.hpp"
#include "api/limits.hpp"
#include "api/mcp.hpp"
#include "api/service.hpp"
#include "api/service_context.hpp"
#include "api/suspended_request.hpp"
#include "core/decimal.hpp"
#include "core/event_loop.hpp"
#include "core/log.hpp"

namespace toolcalc::api {

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

}  // namespace toolcalc::api
