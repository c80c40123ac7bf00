#pragma once
// The API: Response handle(const Request&), transport-free (docs/architecture.md). One request goes
// request id → CORS → route → auth → rate limit → handler → envelope and headers.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/key_admin.hpp"
#include "api/access_log.hpp"
#include "api/analysis_pool.hpp"
#include "api/handler_env.hpp"
#include "api/mcp.hpp"
#include "api/query.hpp"
#include "api/request.hpp"
#include "api/request_metrics.hpp"
#include "api/response.hpp"
#include "api/service_options.hpp"
#include "api/static_assets.hpp"
#include "catalog/registry.hpp"
#include "core/api_error.hpp"
#include "core/clock.hpp"

namespace toolcalc::api {

struct ServiceContext;
struct AnalysisJob;      // api/analysis_job.hpp
class SuspendedRequest;  // api/suspended_request.hpp

class Service {
 public:
  Service(const catalog::Registry& registry, accounts::AccessControl& access, const Clock& clock,
          ServiceOptions options);

  // Answers one request; a rate step on a shared store blocks the calling thread.
  Response handle(const Request& request);
  // handle() for a transport running an event loop; `res` is new or clear()ed. When the
  // request waits (its rate step for a shared store that answers asynchronously, its
  // analysis for the analysis pool, its 200 for the group commit of its counts), returns
  // false at once and fills `res` later, on this thread, then calls `done`; the caller
  // keeps `request` and `res` alive until then. Otherwise (and always when `done` is
  // empty) fills `res` and returns true without calling `done`. An analysis (tolerance,
  // solve) runs on the analysis pool when the calling thread runs an event loop
  // (core/event_loop.hpp) and is finished on that loop's thread.
  bool handle_async(const Request& request, Response& res, std::function<void()> done);
  // Stops the analysis pool: analyses still waiting are dropped. Call once the transport's
  // event loops have stopped, before they are destroyed (the destructor does it too).
  void stop_analyses();
  // An error the transport found before a request could be handled (413, 431, 400 for
  // unparsable HTTP): same envelope and headers, not counted.
  Response transport_error(const ApiError& error, std::string_view peer_ip);
  // 503 SERVER_BUSY for a connection refused as it is accepted (over a connection cap, or
  // out of descriptors), before any request is read. Built from memory only: no
  // AccessControl or store call (a shared store's would be a round trip on the accepting
  // event loop) and no access-log line, so that a flood of connects from an address at
  // its cap costs the refusals alone. Its X-RateLimit-* figures are the anonymous plan's
  // with nothing counted (docs/operations.md, "Connection limits").
  Response connection_refused(const ApiError& error);

  // From SIGTERM on (http::Server::stop): GET /v1/ready answers 503 and responses close
  // their connection, while the server still serves for server.drain_delay_s.
  void set_draining() { draining_.store(true, std::memory_order_relaxed); }
  bool draining() const { return draining_.load(std::memory_order_relaxed); }

  const catalog::Registry& registry() const { return registry_; }
  const ServiceOptions& options() const { return options_; }
  // GET /v1/openapi.json's body, rendered once (the registry is immutable).
  const std::string& openapi_json() const { return env_.bodies.openapi_json; }
  // GET /admin/v1/openapi.json's body.
  const std::string& admin_openapi_json() const { return env_.bodies.admin_openapi_json; }

  // Development mode (serve --dev; docs/playground.md, "Development mode"): a request is
  // served only when its Host is one of `hosts` ("127.0.0.1:8080", compared ignoring case)
  // and any Origin it carries is that host's own ("http://" + Host); others are 403
  // FORBIDDEN. Responses carry no CORS headers, so that no page of another origin reads the
  // dev key or an answer. Call before serving.
  void serve_same_origin_only(std::vector<std::string> hosts);

 private:
  friend class HandlerEnv;        // the pipeline's steps a handler takes part in
  friend class SuspendedRequest;  // resumes through resume()
  using Context = ServiceContext;
  // The pipeline (service.cpp): the steps every request goes through, in order.
  bool refuse_foreign_host(Context& ctx);  // with local_hosts_ set; true: answered 403
  bool answer_uncounted(Context& ctx);     // true: answered, nothing else to do
  void show_ip_window(Context& ctx);       // for the uncounted: the client IP's window, not taken
  void identify_caller(Context& ctx);
  // False when the request has not ended yet: a handler deferred it, or its 200 waits for
  // its counts' group commit; ctx.done is called once it has.
  bool after_rate_step(Context& ctx, accounts::RateStep&& step, std::exception_ptr failure);
  // Gives back an unused early unit, then sends the answer (send) once what the request
  // counted is durable: true when sent now; false when it waits (suspended; ctx.done is
  // called once it is sent).
  bool end_request(Context& ctx);
  // The request's last step: the usage history, the headers, the metrics and the access
  // log. `durable` false: its counts could not be stored, the answer becomes 503.
  void send(Context& ctx, bool durable);
  // Takes a suspended request up where it waited (api/suspended_request.hpp), on the
  // thread that read it: it goes on, waits again, or ends and calls its `done`.
  void resume(SuspendedRequest& request);
  // Quota units reserved and given back for a request, noted on it for the RateLimit
  // header's month (ServiceContext::month).
  accounts::QuotaReservation reserve_units(Context& ctx, int64_t units);
  void release_units(Context& ctx, const accounts::QuotaReservation& reservation, int64_t units);
  void record_tool_usage(Context& ctx);
  // Runs `step`; a store outage or an exception escaping it becomes its error answer.
  template <typename Step>
  void run_or_answer_failure(Context& ctx, Step&& step);
  void answer_store_unavailable(Context& ctx);
  void add_response_headers(Context& ctx);
  void log_access(const Context& ctx, int64_t elapsed_ns);

  // The rate step's checks, then the endpoint's handler (api/endpoints.hpp).
  void dispatch(Context& ctx);
  // The admin API exists (api/handlers/admin.cpp).
  bool admin_enabled() const { return options_.key_admin && !options_.admin_token.empty(); }

  // Analyses (api/analysis.cpp): a job prepared by its handler (quota reserved) runs, then
  // its answer is written on the thread that read the request, inline or after the pool
  // ran the work.
  void start_analysis(Context& ctx, std::shared_ptr<AnalysisJob> job);
  void finish_analysis(Context& ctx, AnalysisJob& job);
  // A tool's bodies rendered once (RenderedBodies).
  const RenderedBodies::ToolBodies& bodies_of(const catalog::RegisteredTool& tool) const {
    return env_.bodies.of(tool);
  }

  const catalog::Registry& registry_;
  accounts::AccessControl& access_;
  const Clock& clock_;
  ServiceOptions options_;
  AccessLog access_log_;
  HeaderBlock uncached_headers_;            // CORS and Cache-Control: no-store (the API)
  HeaderBlock revalidated_headers_;         // CORS and Cache-Control: no-cache (the playground)
  std::vector<std::string> local_hosts_;    // serve_same_origin_only's; empty: any Host
  std::unique_ptr<AnalysisPool> analyses_;  // null when analysis_threads is 0
  RequestMetrics request_metrics_;
  // The anonymous plan's per-minute limit, read once: connection_refused reports it.
  int64_t anonymous_rate_limit_ = 0;
  std::atomic<bool> draining_{false};
  HandlerEnv env_;  // what the endpoints' handlers work with (api/handler_env.hpp)
};

}  // namespace toolcalc::api
