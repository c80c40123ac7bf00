#pragma once
// The API: Response handle(const Request&), transport-free (DESIGN.md). One request goes
// request id → CORS → route → auth → rate limit → handler → envelope and headers.
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "api/access_log.hpp"
#include "api/mcp.hpp"
#include "api/query.hpp"
#include "api/request.hpp"
#include "api/response.hpp"
#include "api/static_assets.hpp"
#include "catalog/registry.hpp"
#include "core/api_error.hpp"
#include "core/clock.hpp"

namespace toolcalc::api {

struct ServiceOptions {
  std::string base_path;  // "" or "/api"
  std::string version = TOOLCALC_VERSION;
  LineWriter* access_log = nullptr;  // JSON lines; nullptr disables the access log
  // Browser origins (e.g. "https://app.example.com") allowed on the MCP endpoint besides
  // loopback ones; a request with any other Origin header is 403 (DNS-rebinding guard).
  std::vector<std::string> mcp_allowed_origins = {};
  // The key the playground page pre-fills (serve --dev on a loopback address); "" = none.
  std::string playground_dev_key = {};
};

struct ServiceContext;

class Service {
 public:
  Service(const catalog::Registry& registry, accounts::AccessControl& access, const Clock& clock,
          ServiceOptions options);

  // Answers one request; a rate step on a shared store blocks the calling thread.
  Response handle(const Request& request);
  // handle() for a transport running an event loop; `res` is new or clear()ed. When the
  // request's rate step goes to a shared store that answers asynchronously
  // (AccessControl::start_rate_step), returns false at once and fills `res` later, on this
  // thread, then calls `done`; the caller keeps `request` and `res` alive until then.
  // Otherwise (and always when `done` is empty) fills `res` and returns true without
  // calling `done`.
  bool handle_async(const Request& request, Response& res, std::function<void()> done);
  // An error the transport found before a request could be handled (413, 431, 400 for
  // unparsable HTTP, 503 over the connection cap): same envelope and headers, not counted.
  Response transport_error(const ApiError& error, std::string_view peer_ip);

  const catalog::Registry& registry() const { return registry_; }
  const ServiceOptions& options() const { return options_; }
  // GET /v1/openapi.json's body, rendered once (the registry is immutable).
  const std::string& openapi_json() const { return openapi_json_; }

 private:
  using Context = ServiceContext;
  // The pipeline (service.cpp): the steps every request goes through, in order.
  bool answer_uncounted(Context& ctx);  // true: answered, nothing else to do
  void identify_caller(Context& ctx);
  accounts::RateStep take_rate_step(Context& ctx);  // blocking
  void after_rate_step(Context& ctx, accounts::RateStep&& step, std::exception_ptr failure);
  // Ends the request (end_request) once what it counted is durable: true when it has
  // ended; false when `done` (taken) is called once it has.
  bool finish(Context& ctx, std::function<void()>& done);
  void end_request(Context& ctx);
  class FinishWhenDurable;
  // Runs `step`; a store outage or an exception escaping it becomes its error answer.
  template <typename Step>
  void run_or_answer_failure(Context& ctx, Step&& step);
  void answer_store_unavailable(Context& ctx);
  void add_response_headers(Context& ctx);
  void log_access(const Request& req, const Response& res,
                  std::chrono::steady_clock::time_point started);

  void dispatch(Context& ctx);
  void execute(Context& ctx);
  void schema(Context& ctx);
  void tools(Context& ctx);
  std::string render_tools_page(const ToolsQuery& query) const;
  void tool_by_slug(Context& ctx);
  void domains(Context& ctx);
  void me(Context& ctx);
  void health(Context& ctx);
  void openapi(Context& ctx);
  void mcp_endpoint(Context& ctx);  // api/mcp.cpp
  void sweep(Context& ctx);         // api/sweep.cpp
  void asset(Context& ctx);         // the playground's files

  // The one execution path of REST execute and MCP tools/call: validate `body` (400),
  // reserve one unit of the caller's monthly quota (429 QUOTA_EXCEEDED, with Retry-After
  // set on the response), compute and append the rendered `result` object to `out` (422
  // releases the unit). On failure `out` is left as it was and `error` says why.
  bool run_tool(Context& ctx, const catalog::Tool& tool, std::string_view body, std::string& out,
                accounts::QuotaReservation& quota, ApiError& error);

  const catalog::Registry& registry_;
  accounts::AccessControl& access_;
  const Clock& clock_;
  ServiceOptions options_;
  AccessLog access_log_;
  int64_t started_ms_;
  std::string openapi_json_;
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
  HeaderBlock uncached_headers_;     // CORS and Cache-Control: no-store (the API)
  HeaderBlock revalidated_headers_;  // CORS and Cache-Control: no-cache (the playground)
};

}  // namespace toolcalc::api
