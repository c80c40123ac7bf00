#pragma once
// The state of one request inside Service (private to src/api: the pipeline, service.cpp,
// and the endpoints' handlers, api/handlers/).
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "accounts/access_control.hpp"
#include "api/endpoints.hpp"
#include "api/envelope.hpp"
#include "api/mcp.hpp"
#include "api/request.hpp"
#include "api/response.hpp"
#include "api/routes.hpp"
#include "catalog/descriptor.hpp"
#include "catalog/registry.hpp"
#include "core/api_error.hpp"
#include "core/json_writer.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::api {

// application/json with optional parameters, case-insensitive (service.cpp).
bool is_json_media_type(std::string_view content_type);

class SuspendedRequest;  // api/suspended_request.hpp

struct ServiceContext {
  ServiceContext(const Request& request, Response& response, Route matched)
      : req(request), res(response), route(std::move(matched)) {}

  const Request& req;
  Response& res;
  Route route;
  accounts::Caller caller;
  accounts::RateDecision rate;
  bool rate_known = false;
  const catalog::ToolDescriptor* tool = nullptr;  // the tool this response is about
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  // JSON of the JSON-RPC request id, once parsed (MCP only). From a string_view: its length
  // is known when compiled, so no strlen on every request.
  std::string mcp_id{std::string_view("null")};
  bool revalidate = false;  // a playground file: Cache-Control no-cache instead of no-store
  // A quota unit reserved with the rate unit (AccessControl::rate_step's `early`) and not
  // yet used by run_tool; Service::end_request releases it when the request ends early.
  std::optional<accounts::QuotaReservation> early_quota;
  // The routes about one tool (api/endpoints.hpp): the tool, found once by dispatch.
  const catalog::RegisteredTool* registered = nullptr;
  // Set by Service::identify_caller: how the key checked out, and whether the rate step
  // also reserves the execution's quota unit (the endpoint counts as an execution:
  // AccessControl::rate_step's `for_execution`).
  accounts::AuthStatus auth_status = accounts::AuthStatus::Missing;
  bool for_execution = false;
  // The quota units this request counted: handed to every AccessControl call that counts
  // (Service::reserve_units, release_units, the rate step), which records in it what must
  // be durable before a 200 that holds some is sent (Service::end_request).
  accounts::CountedUnits counted;
  // Service::handle_async's `done` (empty for handle(): such a request never waits): a
  // request that finishes later, on its event loop, calls it. `deferred`: a handler handed
  // the request to such a later step (an analysis on the pool), which ends it; the
  // pipeline then leaves it alone.
  std::function<void()> done;
  bool deferred = false;
  // Where the request went when it first waited (api/suspended_request.hpp): set on the
  // context it moved to, and on the one it left, which only unwinds from then on.
  SuspendedRequest* suspended = nullptr;
  // The caller's month as this response reports it (the RateLimit header): from the rate
  // step, then from the request's own reservation and releases.
  std::optional<accounts::QuotaView> month;
  // What a tool call ended with, for the usage history: the status (200, or the error's
  // on MCP, whose tool errors answer 200) and the quota units it kept.
  int tool_status = 0;
  int64_t units_kept = 0;
  bool store_unavailable = false;  // answered 503 STORE_UNAVAILABLE: the month is unknown

  // The month after `reservation` (allowed or not).
  void note_quota(const accounts::QuotaReservation& reservation) {
    if (reservation.unlimited) return;
    month = accounts::QuotaView{reservation.limit, reservation.remaining};
  }
  void note_released(int64_t units) {
    if (month) month->remaining = std::min(month->limit, month->remaining + units);
  }

  // The one place an ApiError becomes a body, in the row's error format: the error
  // envelope, or a JSON-RPC error response (the MCP endpoint: MCP clients parse JSON-RPC,
  // not our envelope).
  void fail(const ApiError& error) {
    metrics::api_errors.inc(static_cast<size_t>(error.code));
    if (error.code == ErrorCode::RateLimited) metrics::limit_refusals.inc(metrics::kRateRefusal);
    if (error.code == ErrorCode::QuotaExceeded) metrics::limit_refusals.inc(metrics::kQuotaRefusal);
    res.status = error.status();
    res.body_prefix = {};
    res.body = endpoint(route.kind).errors == ErrorFormat::JsonRpc
                   ? mcp::error_body(error, mcp_id, res.request_id)
                   : error_body(error, res.request_id);
  }
  // A body endpoint's media-type check: false after answering 415 when the request is not
  // JSON; `what` names the body ("the inputs", "the sweep").
  bool require_json_body(std::string_view what) {
    if (is_json_media_type(req.content_type)) return true;
    fail({ErrorCode::UnsupportedMediaType,
          "send " + std::string(what) + " as a JSON object with Content-Type: application/json",
          {}});
    return false;
  }
  // Closes a successful execute or sweep body: ,"meta":{latency_ms, quota_remaining (null
  // without a quota), request_id}} and status 200.
  void finish_execution(std::optional<int64_t> quota_remaining) {
    const auto elapsed = std::chrono::steady_clock::now() - started;
    res.body += std::string_view(R"(,"meta":)");
    JsonWriter w(res.body);
    w.begin_object();
    w.member(R"(,"latency_ms":)")
        .integer(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
    w.member(R"(,"quota_remaining":)");
    if (quota_remaining)
      w.integer(*quota_remaining);
    else
      w.null();
    w.member(R"(,"request_id":)").string(res.request_id);
    w.end_object();
    res.body += '}';
    res.status = 200;
  }
  void ok_result(std::string_view result_json) {
    res.status = 200;
    res.body = result_body(result_json, res.request_id);
  }
  // ok_result of an answer rendered once: `envelope_prefix` is its result_body_prefix and
  // lives as long as the Service (sent without a copy).
  void ok_result_shared(std::string_view envelope_prefix) {
    res.status = 200;
    res.body_prefix = envelope_prefix;
    res.body.reserve(res.request_id.size() + result_body_suffix.size());
    res.body += res.request_id;
    res.body += result_body_suffix;
  }
};

}  // namespace toolcalc::api
