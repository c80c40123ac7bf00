#include "api/service.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>

#include "accounts/rate_window.hpp"
#include "accounts/utc_month.hpp"
#include "api/endpoints.hpp"
#include "api/envelope.hpp"
#include "api/limits.hpp"
#include "api/query.hpp"
#include "api/request_id.hpp"
#include "api/routes.hpp"
#include "api/service_context.hpp"
#include "api/suspended_request.hpp"
#include "core/decimal.hpp"
#include "core/json_writer.hpp"
#include "core/log.hpp"
#include "core/recycled.hpp"
#include "core/service_metrics.hpp"
#include "core/text.hpp"

namespace toolcalc::api {

namespace {

constexpr std::string_view kExposedHeaders =
    "X-Request-ID, X-Tool-Version, X-RateLimit-Limit, X-RateLimit-Remaining, "
    "X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After";

}  // namespace

// application/json, optionally with parameters (charset=utf-8). The media type is
// case-insensitive (RFC 9110 §8.3.1).
bool is_json_media_type(std::string_view content_type) {
  if (content_type == "application/json") return true;  // what clients almost always send
  return iequals(trim(content_type.substr(0, content_type.find(';'))), "application/json");
}

namespace {

// A defect, with the request id the client will quote and what the exception said.
void log_internal_error(std::string_view request_id, std::string_view what) {
  log::error("internal error", {{"request_id", request_id}, {"error", what}});
}

// The headers of every response after the per-request ones (Service::add_response_headers);
// without CORS, only pages of the server's own origin read the answers.
HeaderBlock common_headers(std::string_view cache_control, bool cors = true) {
  if (!cors) return HeaderBlock({{"Cache-Control", std::string(cache_control)}});
  return HeaderBlock({{"Access-Control-Allow-Origin", "*"},
                      {"Access-Control-Expose-Headers", std::string(kExposedHeaders)},
                      {"Cache-Control", std::string(cache_control)}});
}

}  // namespace

Service::Service(const catalog::Registry& registry, accounts::AccessControl& access,
                 const Clock& clock, ServiceOptions options)
    : registry_(registry),
      access_(access),
      clock_(clock),
      options_(std::move(options)),
      access_log_(options_.access_log),
      uncached_headers_(common_headers("no-store")),
      revalidated_headers_(common_headers("no-cache")),
      request_metrics_(registry),
      anonymous_rate_limit_(access.authenticate(std::nullopt, "").caller.plan.rate_per_minute),
      env_(*this, registry, access, clock, options_) {
  if (options_.analysis_threads > 0) {
    const int per_key =
        options_.analyses_per_key > 0 ? options_.analyses_per_key : options_.analysis_threads + 2;
    // Room for four keys at their limit at least, whatever the per-key limit.
    const int queue = std::max(options_.analysis_threads * kAnalysisQueuePerThread, 4 * per_key);
    analyses_ = std::make_unique<AnalysisPool>(options_.analysis_threads, queue, per_key);
  }
}

// The pipeline of every request, written once (docs/architecture.md, "A request's path"):
//   answer_uncounted → identify_caller → rate step → dispatch → end_request (a 200 that
//   counted quota units waits there until they are durable) → send.
// A request waits in one way wherever it waits (its rate step on a shared store, the
// analysis pool, the group commit): it moves to the heap the first time
// (api/suspended_request.hpp) and is taken up again by resume; only a request with a
// `done` to call later waits, so handle() answers before it returns.
Response Service::handle(const Request& request) {
  Response res;
  handle_async(request, res, nullptr);
  return res;
}

bool Service::handle_async(const Request& request, Response& res, std::function<void()> done) {
  assign_request_id(res.request_id);
  Context ctx(request, res, match_route(request.target, options_.base_path));
  // Without an admin token the admin API does not exist (docs/operations.md).
  if (ctx.route.kind == RouteKind::Admin && !admin_enabled()) ctx.route.kind = RouteKind::NotFound;
  bool answered = false;
  run_or_answer_failure(ctx, [&] {
    answered = (!local_hosts_.empty() && refuse_foreign_host(ctx)) || answer_uncounted(ctx);
  });
  if (answered) {  // counted nothing: ends now
    res.uncounted = true;
    return end_request(ctx);
  }
  identify_caller(ctx);
  ctx.done = std::move(done);

  RequestSuspender suspender(*this, ctx);
  std::optional<accounts::RateStep> step;
  std::exception_ptr failure;
  try {
    step = access_.rate_step(ctx.caller, ctx.for_execution, ctx.counted,
                             ctx.done ? &suspender : nullptr);
    if (!step) return false;  // suspended: resume takes it up
  } catch (...) {
    failure = std::current_exception();
  }
  return after_rate_step(ctx, step ? std::move(*step) : accounts::RateStep{}, failure);
}

std::shared_ptr<SuspendedRequest> SuspendedRequest::of(Service& service, ServiceContext& ctx) {
  if (ctx.suspended) return ctx.suspended->shared_from_this();
  auto held = std::allocate_shared<SuspendedRequest>(RecycledAllocator<SuspendedRequest>(), service,
                                                     std::move(ctx));
  held->ctx.suspended = ctx.suspended = held.get();
  return held;
}

void Service::resume(SuspendedRequest& request) {
  Context& ctx = request.ctx;
  bool ended = true;
  switch (request.waited_for) {
    case SuspendedRequest::Wait::RateStep:
      ended = after_rate_step(ctx, std::move(request.rate_step), request.rate_step_failure);
      break;
    case SuspendedRequest::Wait::Analysis:
      // The units it gives back here, and those it keeps, are the request's own: a 200
      // waits in end_request for their group commit.
      ctx.deferred = false;
      run_or_answer_failure(ctx, [&] { finish_analysis(ctx, *request.analysis); });
      ended = end_request(ctx);
      break;
    case SuspendedRequest::Wait::Durability:
      send(ctx, request.durable);
      break;
  }
  if (ended) ctx.done();
}

void Service::serve_same_origin_only(std::vector<std::string> hosts) {
  local_hosts_ = std::move(hosts);
  uncached_headers_ = common_headers("no-store", false);
  revalidated_headers_ = common_headers("no-cache", false);
}

// DNS rebinding gives another site's page this server's address under its own name, and
// any page may send requests here: only this server's own names and pages are answered.
bool Service::refuse_foreign_host(Context& ctx) {
  const Request& req = ctx.req;
  const auto is_local = [&](std::string_view host) {
    return std::any_of(local_hosts_.begin(), local_hosts_.end(),
                       [&](const std::string& h) { return iequals(h, host); });
  };
  const bool local_host = is_local(req.host);
  const bool same_origin = req.origin.empty() || (req.origin.starts_with("http://") &&
                                                  iequals(req.origin.substr(7), req.host));
  if (local_host && same_origin) return false;
  show_ip_window(ctx);
  if (!local_host)
    ctx.fail({ErrorCode::Forbidden,
              "host '" + std::string(req.host.substr(0, 200)) +
                  "' is not this development server's address; use http://" + local_hosts_.front(),
              {}});
  else
    ctx.fail({ErrorCode::Forbidden,
              "origin '" + std::string(req.origin.substr(0, 200)) +
                  "' may not call this development server: it answers its own pages only",
              {}});
  return true;
}

void Service::stop_analyses() {
  if (analyses_) analyses_->stop();
}

bool Service::after_rate_step(Context& ctx, accounts::RateStep&& step, std::exception_ptr failure) {
  run_or_answer_failure(ctx, [&] {
    if (failure) std::rethrow_exception(failure);
    ctx.rate = step.rate;
    ctx.rate_known = true;
    ctx.early_quota = std::move(step.early);
    ctx.month = step.month;
    dispatch(ctx);
  });
  if (ctx.deferred) return false;
  return end_request(ctx);
}

template <typename Step>
void Service::run_or_answer_failure(Context& ctx, Step&& step) {
  try {
    step();
  } catch (const accounts::StoreUnavailable&) {
    // The shared store could not count the request (logged once by the store client).
    answer_store_unavailable(ctx);
  } catch (const std::exception& e) {
    // A defect, not bad input: logged with the request id the client will quote.
    log_internal_error(ctx.res.request_id, e.what());
    ctx.fail(internal_error());
  }
}

accounts::QuotaReservation Service::reserve_units(Context& ctx, int64_t units) {
  accounts::QuotaReservation reservation = access_.reserve_quota(ctx.caller, units, ctx.counted);
  ctx.note_quota(reservation);
  return reservation;
}

void Service::release_units(Context& ctx, const accounts::QuotaReservation& reservation,
                            int64_t units) {
  access_.release_quota(ctx.caller, reservation, units, ctx.counted);
  ctx.note_released(units);
}

bool Service::end_request(Context& ctx) {
  // A quota unit reserved with the rate unit but not used (the request failed before
  // running its tool) goes back.
  if (ctx.early_quota) {
    release_units(ctx, *ctx.early_quota, 1);
    ctx.early_quota.reset();
  }
  // docs/reliability.md, "Counts on disk": a response that acknowledges counted units (a
  // 200 that kept quota units) is sent only once they are durable.
  if (ctx.res.status != 200 || ctx.counted.empty()) {
    send(ctx, true);
    return true;
  }
  RequestSuspender suspender(*this, ctx);
  const accounts::Durability d =
      access_.await_durable(ctx.counted, ctx.done ? &suspender : nullptr);
  if (d == accounts::Durability::Waiting) return false;  // suspended: resume sends it
  send(ctx, d == accounts::Durability::Durable);
  return true;
}

void Service::send(Context& ctx, bool durable) {
  if (!durable) {
    // The units could not be stored (the AccessControl gave them back): answered as a
    // store outage, fail closed, as if they had never been counted.
    ctx.note_released(ctx.counted.total());
    ctx.units_kept = 0;
    answer_store_unavailable(ctx);
  }
  record_tool_usage(ctx);
  // A counted response that neither read nor used the month (discovery with a key, an
  // early refusal on the embedded store) reports it as it stands.
  if (!ctx.month && ctx.rate_known && !ctx.store_unavailable)
    ctx.month = access_.peek_quota(ctx.caller);
  add_response_headers(ctx);
  const int64_t elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now() - ctx.started)
                                 .count();
  request_metrics_.count(ctx.route.kind, ctx.registered, ctx.res.status, elapsed_ns);
  log_access(ctx, elapsed_ns);
}

// The usage history (GET /v1/usage) counts what a key's requests to a tool ended with:
// execute and sweep paths by their status, MCP tool calls by their tool result. Requests
// naming no tool (an unknown slug, an MCP call refused before its tool was read) are not
// counted. Recorded once the status is final (after the group commit): it is written by the
// store's next background flush (GET /v1/usage adds what is still in memory).
void Service::record_tool_usage(Context& ctx) {
  if (ctx.auth_status != accounts::AuthStatus::Ok || ctx.caller.anonymous) return;
  const Endpoint& e = endpoint(ctx.route.kind);
  // The endpoints that run tools: those about one tool by their status, MCP by its call's.
  if (e.counting != Counting::Execution && e.counting != Counting::Units) return;
  const int status = e.tool_route || ctx.store_unavailable ? ctx.res.status : ctx.tool_status;
  if (status == 0) return;
  const catalog::ToolDescriptor* tool = ctx.tool;
  if (!tool && e.tool_route) {
    // Refused before dispatch looked the tool up (429 RATE_LIMITED, 503).
    if (const auto* registered = registry_.find(ctx.route.domain, ctx.route.slug))
      tool = &registered->tool.descriptor;
  }
  if (!tool) return;
  access_.record_usage(ctx.caller, tool->domain, tool->slug, status,
                       status == 200 ? ctx.units_kept : 0);
}

// Fail closed (docs/api.md, "Shared store"): nothing was counted, so nothing runs. The
// X-RateLimit-* headers say no unit is available until the window ends.
void Service::answer_store_unavailable(Context& ctx) {
  ctx.store_unavailable = true;
  if (!ctx.rate_known) {
    const int64_t now_s = clock_.now_s();
    const int64_t window = accounts::kRateWindowSeconds;
    ctx.rate.allowed = false;
    ctx.rate.limit = ctx.caller.plan.rate_per_minute;
    ctx.rate.remaining = 0;
    ctx.rate.reset_epoch_s = now_s / window * window + window;  // epoch seconds are > 0
    ctx.rate.now_s = now_s;
    ctx.rate_known = true;
  }
  ctx.res.set_header("Retry-After", "1");
  ctx.fail({ErrorCode::StoreUnavailable,
            "the accounts store that counts rate limits and quotas is unreachable, so the "
            "request was neither counted nor run; retry shortly",
            {}});
}

Response Service::transport_error(const ApiError& error, std::string_view peer_ip) {
  Response res;
  assign_request_id(res.request_id);
  Request req;
  req.peer_ip = peer_ip;
  Context ctx(req, res, {});
  show_ip_window(ctx);
  ctx.fail(error);
  add_response_headers(ctx);
  request_metrics_.count_transport(res.status);
  log_access(ctx, std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - ctx.started)
                      .count());
  return res;
}

Response Service::connection_refused(const ApiError& error) {
  Response res;
  assign_request_id(res.request_id);
  Request req;
  Context ctx(req, res, {});
  // The refused connection's caller is unknown (its request is never read) and its window
  // is not read: the anonymous plan's limit, nothing taken from it, the current window.
  const int64_t now_s = clock_.now_s();
  const int64_t window = accounts::kRateWindowSeconds;
  ctx.rate.limit = anonymous_rate_limit_;
  ctx.rate.remaining = anonymous_rate_limit_;
  ctx.rate.reset_epoch_s = now_s / window * window + window;  // epoch seconds are > 0
  ctx.rate.now_s = now_s;
  ctx.rate_known = true;
  res.set_header("Retry-After", "1");
  ctx.fail(error);
  add_response_headers(ctx);
  request_metrics_.count_transport(res.status);
  return res;
}

void Service::add_response_headers(Context& ctx) {
  Response& res = ctx.res;
  std::optional<RateLimitHeaders> rate;
  if (ctx.rate_known) {
    // The seconds left (RateLimit's t) count from now, when the response leaves, not from
    // the rate step: an analysis may have run for seconds in between. The month is the one
    // the request was counted in.
    const int64_t now_s = clock_.now_s();
    const int64_t counted_s = ctx.rate.now_s > 0 ? ctx.rate.now_s : now_s;
    rate = RateLimitHeaders{ctx.rate.limit,
                            std::max<int64_t>(0, ctx.rate.remaining),
                            ctx.rate.reset_epoch_s,
                            now_s,
                            {}};
    if (ctx.month) {
      const accounts::UtcMonth& m = accounts::utc_month_text(counted_s).month;
      rate->month =
          RateLimitHeaders::Month{ctx.month->limit, std::max<int64_t>(0, ctx.month->remaining),
                                  m.end_s - m.start_s, std::max<int64_t>(0, m.end_s - now_s)};
    }
  }
  write_lead_headers(res, ctx.tool ? std::string_view(ctx.tool->version) : options_.version, rate);
  // API answers are never cached; the playground's files are, but revalidated (ETag).
  res.common_headers = ctx.revalidate ? &revalidated_headers_ : &uncached_headers_;
  res.key_prefix = ctx.caller.key_prefix;
}

void Service::log_access(const Context& ctx, int64_t elapsed_ns) {
  if (!access_log_.enabled()) return;
  access_log_.write({clock_.now_ms(), ctx.res.request_id, ctx.res.key_prefix, ctx.req.method,
                     ctx.req.target, ctx.res.status, elapsed_ns / 1000});
}

namespace {

ApiError unknown_tool(const catalog::Registry& registry, std::string_view domain,
                      std::string_view slug) {
  std::string msg = "no tool '" + std::string(slug) + "' in domain '" + std::string(domain) + "'";
  if (const auto* other = registry.find_slug(slug))
    msg += "; did you mean " + other->tool.descriptor.endpoint() + "?";
  return not_found(msg);
}

}  // namespace

// CORS preflight and the endpoints never counted (liveness, readiness, metrics, the
// playground's files, llms.txt, the admin API): answered before the caller is identified,
// never limited or counted (they carry the anonymous window's headers).
bool Service::answer_uncounted(Context& ctx) {
  const Request& req = ctx.req;
  const Endpoint& e = endpoint(ctx.route.kind);
  const bool preflight = req.method == "OPTIONS";
  if (!preflight && e.counting != Counting::NotCounted) return false;
  show_ip_window(ctx);
  if (e.kind == RouteKind::NotFound) {
    ctx.fail(not_found("no such path"));
  } else if (preflight) {
    ctx.res.status = 204;
    ctx.res.set_header("Allow", std::string(e.methods));
    ctx.res.set_header("Access-Control-Allow-Methods", std::string(e.methods));
    ctx.res.set_header("Access-Control-Allow-Headers", std::string(e.preflight_headers));
    ctx.res.set_header("Access-Control-Max-Age", "86400");
  } else if (!accepts(e.method, req.method)) {
    ctx.res.set_header("Allow", std::string(e.methods));
    ctx.fail({ErrorCode::MethodNotAllowed,
              e.method == Method::GetOrHead ? "use GET for this page" : "use GET for this endpoint",
              {}});
  } else {
    e.handler(env_, ctx);
  }
  return true;
}

// A request that is not counted carries the client IP's window as it stands.
void Service::show_ip_window(Context& ctx) {
  ctx.caller = access_.authenticate(std::nullopt, ctx.req.peer_ip).caller;
  ctx.rate = access_.peek_rate(ctx.caller);
  ctx.rate_known = true;
}

// Whose window is charged: the key's, or for a missing or invalid key the client IP's, so
// that key guessing is rate limited like everything else.
void Service::identify_caller(Context& ctx) {
  const Request& req = ctx.req;
  accounts::AuthResult auth = access_.authenticate(req.authorization, req.peer_ip);
  if (auth.status == accounts::AuthStatus::Invalid)
    auth.caller = access_.authenticate(std::nullopt, req.peer_ip).caller;
  ctx.caller = std::move(auth.caller);
  ctx.auth_status = auth.status;
  // An execution takes its quota unit in the same step when the store prefers it (one
  // round trip to a shared store); run_tool uses it after validation.
  ctx.for_execution = endpoint(ctx.route.kind).counting == Counting::Execution &&
                      req.method == "POST" && auth.status == accounts::AuthStatus::Ok;
}

void Service::dispatch(Context& ctx) {
  const Request& req = ctx.req;
  if (!ctx.rate.allowed) {
    ctx.res.set_header("Retry-After", decimal_string(std::max<int64_t>(1, ctx.rate.retry_after_s)));
    return ctx.fail({ErrorCode::RateLimited,

                     "rate limit of " + decimal_string(ctx.rate.limit) +
                         " requests per minute reached; retry after the window resets",
                     {}});
  }
  if (ctx.auth_status == accounts::AuthStatus::Invalid) {
    ctx.res.set_header("WWW-Authenticate", "Bearer");
    ctx.caller = {};
    return ctx.fail({ErrorCode::Unauthorized, "invalid API key", {}});
  }

  const Endpoint& e = endpoint(ctx.route.kind);
  if (e.tool_route) {
    // An unknown tool is 404 whatever the method; a known one labels every response.
    const auto* registered = registry_.find(ctx.route.domain, ctx.route.slug);
    if (!registered) return ctx.fail(unknown_tool(registry_, ctx.route.domain, ctx.route.slug));
    ctx.registered = registered;
    ctx.tool = &registered->tool.descriptor;
  }
  if (!accepts(e.method, req.method)) {
    const bool post = e.method == Method::Post;
    ctx.res.set_header("Allow", std::string(e.methods));
    return ctx.fail({ErrorCode::MethodNotAllowed,
                     std::string("use ") + (post ? "POST" : "GET") + " for this endpoint",
                     {}});
  }
  if (e.callers == Callers::Key && ctx.auth_status == accounts::AuthStatus::Missing) {
    ctx.res.set_header("WWW-Authenticate", "Bearer");
    return ctx.fail({ErrorCode::Unauthorized, "missing API key", {}});
  }
  e.handler(env_, ctx);
}

}  // namespace toolcalc::api
