// The service's own state: liveness (GET /v1/health), readiness (/v1/ready) and the
// Prometheus metrics (/metrics); and the answer to a path that is no endpoint's.
#include "api/handlers/handlers.hpp"
#include "api/request_metrics.hpp"
#include "core/json_writer.hpp"
#include "core/metrics.hpp"

namespace toolcalc::api::handlers {

void health(HandlerEnv& env, ServiceContext& ctx) {
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("status", "ok").field("version", env.options.version);
  w.field("uptime_s", (env.clock.now_ms() - env.started_ms) / 1000).end_object();
  ctx.ok_result(result);
}

// Readiness: whether this instance should get traffic now. Liveness (/v1/health) stays 200
// in both cases: restarting would not help.
void ready(HandlerEnv& env, ServiceContext& ctx) {
  if (env.draining())
    return ctx.fail({ErrorCode::NotReady,
                     "draining: the server received SIGTERM and stops soon; send requests to "
                     "another instance",
                     {}});
  if (!env.access.store_reachable())
    return ctx.fail({ErrorCode::NotReady,
                     "the shared accounts store is unreachable: requests that must be counted "
                     "are answered 503 STORE_UNAVAILABLE",
                     {}});
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("status", "ready").end_object();
  ctx.ok_result(result);
}

// The Prometheus text exposition format 0.0.4 (docs/operations.md "Metrics").
void prometheus_metrics(HandlerEnv& env, ServiceContext& ctx) {
  std::string& out = ctx.res.body;
  out.reserve(16 * 1024);
  std::string labels;
  metrics::label_pair(labels, "version", env.options.version);
  metrics::label_pair(labels, "store", env.options.store_backend);
  metrics::write_family(out, "toolcalc_build_info",
                        "The running build: version and accounts store backend.", "gauge");
  metrics::write_sample(out, "toolcalc_build_info", labels, int64_t{1});
  metrics::write_family(out, "toolcalc_start_time_seconds",
                        "When the service started, in seconds since the Unix epoch.", "gauge");
  metrics::write_sample(out, "toolcalc_start_time_seconds", "",
                        static_cast<double>(env.started_ms) / 1000.0);
  env.request_metrics().render(out);
  metrics::render_registered(out);
  ctx.res.status = 200;
  ctx.res.content_type = "text/plain; version=0.0.4; charset=utf-8";
}

void no_such_path(HandlerEnv&, ServiceContext& ctx) {
  ctx.fail(not_found("no such path"));
}

}  // namespace toolcalc::api::handlers
