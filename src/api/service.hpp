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
#include "api/admin_guard.hpp"
#include "api/analysis_pool.hpp"
#include "api/mcp.hpp"
#include "api/query.hpp"
#include "api/request.hpp"
#include "api/request_metrics.hpp"
#include "api/response.hpp"
#include "api/static_assets.hpp"
#include "catalog/registry.hpp"
#include "core/api_error.hpp"
#include "core/clock.hpp"

namespace boost::json {
class object;
}

namespace toolcalc::api {

struct ServiceOptions {
  std::string base_path;  // "" or "/api"
  std::string version = TOOLCALC_VERSION;
  LineBuffer* access_log = nullptr;  // JSON lines (api/access_log.hpp); nullptr: no access log
  // Browser origins (e.g. "https://app.example.com") allowed on the MCP endpoint besides
  // loopback ones; a request with any other Origin header is 403 (DNS-rebinding guard).
  std::vector<std::string> mcp_allowed_origins = {};
  // The key the playground page pre-fills (serve --dev on a loopback address); "" = none.
  std::string playground_dev_key = {};
  // Threads that run tolerance analyses and solves off the I/O threads (docs/api.md,
  // "Analyses"); 0 runs them on the thread that read the request.
  int analysis_threads = 1;
  // The store backend named by toolcalc_build_info ("sqlite" or "redis").
  std::string store_backend = "sqlite";
  // The admin API (/admin/v1/…): on when both are set, else every admin path is 404.
  // `key_admin` must outlive the Service.
  std::string admin_token = {};
  accounts::KeyAdmin* key_admin = nullptr;
  // Analyses one key may have waiting or running on the analysis pool (one more is 429
  // TOO_MANY_ANALYSES); 0: analysis_threads + 2.
  int analyses_per_key = 0;
};

struct ServiceContext;
struct AnalysisJob;      // api/analysis.cpp
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
  const std::string& openapi_json() const { return openapi_json_; }
  // GET /admin/v1/openapi.json's body.
  const std::string& admin_openapi_json() const { return admin_openapi_json_; }

  // Development mode (serve --dev; docs/playground.md, "Development mode"): a request is
  // served only when its Host is one of `hosts` ("127.0.0.1:8080", compared ignoring case)
  // and any Origin it carries is that host's own ("http://" + Host); others are 403
  // FORBIDDEN. Responses carry no CORS headers, so that no page of another origin reads the
  // dev key or an answer. Call before serving.
  void serve_same_origin_only(std::vector<std::string> hosts);

 private:
  friend struct EndpointRows;     // api/endpoints.cpp: the handlers of the endpoint table
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
  // The handlers, one per row of the endpoint table.
  void no_such_path(Context& ctx);
  void execute(Context& ctx);
  void schema(Context& ctx);
  void tools(Context& ctx);
  std::string render_tools_page(const ToolsQuery& query) const;
  void tool_by_slug(Context& ctx);
  void domains(Context& ctx);
  void me(Context& ctx);
  void usage(Context& ctx);  // api/usage.cpp
  void health(Context& ctx);
  void ready(Context& ctx);
  void prometheus_metrics(Context& ctx);
  void openapi(Context& ctx);
  void mcp_endpoint(Context& ctx);  // api/mcp.cpp
  // `repeated_argument`: a key repeated in params.arguments (the tool error to answer).
  void mcp_analysis_call(Context& ctx, const boost::json::object& params, bool tolerance,
                         const ApiError* repeated_argument);
  void sweep(Context& ctx);      // api/sweep.cpp
  void tolerance(Context& ctx);  // api/analysis.cpp
  void solve(Context& ctx);      // api/analysis.cpp
  void asset(Context& ctx);      // the playground's files
  void llms_txt(Context& ctx);   // GET /llms.txt

  // The admin API (api/admin.cpp): the admin token's check, then the operation's row.
  bool admin_enabled() const { return options_.key_admin && !options_.admin_token.empty(); }
  void admin(Context& ctx);

  // The one execution path of REST execute and MCP tools/call: validate `body` (400),
  // reserve one unit of the caller's monthly quota (429 QUOTA_EXCEEDED, with Retry-After
  // set on the response), compute and append the rendered `result` object to `out` (422
  // releases the unit). On failure `out` is left as it was and `error` says why.
  bool run_tool(Context& ctx, const catalog::Tool& tool, std::string_view body, std::string& out,
                accounts::QuotaReservation& quota, ApiError& error);

  // Analyses (api/analysis.cpp): quota reserved, the work, then its answer written on the
  // thread that read the request, inline or after the pool ran the work.
  bool prepare_tolerance(Context& ctx, const catalog::RegisteredTool& tool, std::string_view body,
                         AnalysisJob& job, ApiError& error);
  bool prepare_solve(Context& ctx, const catalog::RegisteredTool& tool, std::string_view body,
                     AnalysisJob& job, ApiError& error);
  bool reserve_analysis_quota(Context& ctx, AnalysisJob& job, ApiError& error);
  void start_analysis(Context& ctx, std::shared_ptr<AnalysisJob> job);
  void finish_analysis(Context& ctx, AnalysisJob& job);
  // MCP's tolerance_analysis and solve_for_input (mcp.cpp → analysis.cpp): `body` is the
  // call's arguments without `tool`, as the REST body.
  void mcp_analysis(Context& ctx, const catalog::RegisteredTool& tool, bool tolerance,
                    std::string_view body);

  const catalog::Registry& registry_;
  accounts::AccessControl& access_;
  const Clock& clock_;
  ServiceOptions options_;
  AccessLog access_log_;
  int64_t started_ms_;
  std::string openapi_json_;
  std::string llms_txt_;  // GET /llms.txt's body (api/llms_txt.hpp), rendered once
  std::string admin_openapi_json_;
  std::string admin_token_digest_;  // SHA-256 of the admin token (compared in constant time)
  std::string admin_token_id_;      // "admin-" + 8 hex digits of that digest: the audit log's who
  AdminGuard admin_guard_;          // failed admin authentications per source address
  // Answers that never change, rendered once up to their request id (result_body_prefix)
  // and sent without a copy (Response::body_prefix).
  std::map<std::string, std::string, std::less<>> first_tools_pages_;  // domain ("": all) → page 1
  struct ToolBodies {
    std::string schema;          // GET /v1/{domain}/{slug}/schema
    std::string details;         // GET /v1/tools/{slug}
    std::string execute_prefix;  // execute_body_prefix: a 200 of execute or sweep
  };
  std::vector<ToolBodies> tool_bodies_;  // in the order of registry_.tools()
  const ToolBodies& bodies_of(const catalog::RegisteredTool& tool) const;
  mcp::ToolIndex mcp_tools_;
  StaticAssets assets_;
  HeaderBlock uncached_headers_;            // CORS and Cache-Control: no-store (the API)
  HeaderBlock revalidated_headers_;         // CORS and Cache-Control: no-cache (the playground)
  std::vector<std::string> local_hosts_;    // serve_same_origin_only's; empty: any Host
  std::unique_ptr<AnalysisPool> analyses_;  // null when analysis_threads is 0
  RequestMetrics request_metrics_;
  // The anonymous plan's per-minute limit, read once: connection_refused reports it.
  int64_t anonymous_rate_limit_ = 0;
  std::atomic<bool> draining_{false};
};

}  // namespace toolcalc::api
