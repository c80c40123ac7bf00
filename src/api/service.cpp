#include "api/service.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>

#include "accounts/api_key.hpp"
#include "accounts/rate_window.hpp"
#include "accounts/utc_month.hpp"
#include "api/endpoints.hpp"
#include "api/envelope.hpp"
#include "api/execute.hpp"
#include "api/limits.hpp"
#include "api/llms_txt.hpp"
#include "api/openapi/openapi.hpp"
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
      started_ms_(clock.now_ms()),
      openapi_json_(openapi::render(registry, {options_.version, options_.base_path, {}})),
      llms_txt_(render_llms_txt(registry, options_.base_path)),
      admin_openapi_json_(openapi::render_admin({options_.version, options_.base_path, {}})),
      mcp_tools_(registry),
      assets_(options_.base_path, options_.playground_dev_key),
      uncached_headers_(common_headers("no-store")),
      revalidated_headers_(common_headers("no-cache")),
      request_metrics_(registry),
      anonymous_rate_limit_(access.authenticate(std::nullopt, "").caller.plan.rate_per_minute) {
  if (options_.analysis_threads > 0) {
    const int per_key =
        options_.analyses_per_key > 0 ? options_.analyses_per_key : options_.analysis_threads + 2;
    // Room for four keys at their limit at least, whatever the per-key limit.
    const int queue = std::max(options_.analysis_threads * kAnalysisQueuePerThread, 4 * per_key);
    analyses_ = std::make_unique<AnalysisPool>(options_.analysis_threads, queue, per_key);
  }
  // The first page of the listing, all domains and each domain: what a client asks for
  // almost always, rendered once (the registry is immutable), as are each tool's schema
  // and details.
  first_tools_pages_.emplace("", result_body_prefix(render_tools_page({})));
  for (const auto& d : registry_.domains()) {
    ToolsQuery q;
    q.domain = d.name;
    first_tools_pages_.emplace(d.name, result_body_prefix(render_tools_page(q)));
  }
  if (admin_enabled()) {
    admin_token_digest_ = accounts::hash_api_key(options_.admin_token);
    // Names the token in the audit log without revealing it: 32 bits of its SHA-256, of a
    // token of at least 32 random characters (cli/admin_token.hpp).
    static constexpr char hex[] = "0123456789abcdef";
    admin_token_id_ = "admin-";
    for (size_t i = 0; i < 4; ++i) {
      const auto b = static_cast<unsigned char>(admin_token_digest_[i]);
      admin_token_id_ += hex[b >> 4];
      admin_token_id_ += hex[b & 15];
    }
  }
  tool_bodies_.reserve(registry_.tools().size());
  for (const auto& t : registry_.tools())
    tool_bodies_.push_back({result_body_prefix(t.record_json), result_body_prefix(t.details_json),
                            execute_body_prefix(t.tool.descriptor)});
}

const Service::ToolBodies& Service::bodies_of(const catalog::RegisteredTool& tool) const {
  return tool_bodies_[static_cast<size_t>(&tool - registry_.tools().data())];
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
    (this->*e.handler)(ctx);
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
  (this->*e.handler)(ctx);
}

void Service::no_such_path(Context& ctx) {
  ctx.fail(not_found("no such path"));
}

bool Service::run_tool(Context& ctx, const catalog::Tool& tool, std::string_view body,
                       std::string& out, accounts::QuotaReservation& quota, ApiError& error) {
  catalog::Inputs inputs;
  if (!prepare_inputs(tool.descriptor, body, inputs, error)) {
    ctx.tool_status = error.status();
    return false;
  }

  if (ctx.early_quota) {
    quota = *ctx.early_quota;
    ctx.early_quota.reset();
  } else {
    quota = access_.reserve_quota(ctx.caller, 1, ctx.counted);
  }
  ctx.note_quota(quota);
  if (!quota.allowed) {
    ctx.tool_status = 429;
    ctx.res.set_header("Retry-After", decimal_string(std::max<int64_t>(1, quota.retry_after_s)));
    error = {ErrorCode::QuotaExceeded,

             "monthly quota of " + decimal_string(quota.limit) +
                 " executions is used up; it resets at " + quota.resets_at,
             {}};
    return false;
  }
  const size_t mark = out.size();
  bool computed = false;
  try {
    computed = compute_result(tool, inputs, out, error);
  } catch (...) {
    release_units(ctx, quota, 1);
    ctx.tool_status = 500;
    throw;
  }
  if (!computed) {
    release_units(ctx, quota, 1);
    out.resize(mark);
    ctx.tool_status = error.status();
    return false;
  }
  ctx.tool_status = 200;
  ctx.units_kept = quota.units;
  return true;
}

void Service::execute(Context& ctx) {
  const catalog::RegisteredTool& registered = *ctx.registered;  // dispatch found it
  const catalog::Tool& tool = registered.tool;
  if (!is_json_media_type(ctx.req.content_type))
    return ctx.fail({ErrorCode::UnsupportedMediaType,
                     "send the inputs as a JSON object with Content-Type: application/json",
                     {}});

  std::string& body = ctx.res.body;
  body.reserve(1024);  // the envelope of any tool's result (kept when the Response is reused)
  body += bodies_of(registered).execute_prefix;
  accounts::QuotaReservation quota;
  ApiError error;
  if (!run_tool(ctx, tool, ctx.req.body, body, quota, error)) return ctx.fail(error);
  ctx.finish_execution(quota.unlimited ? std::nullopt : std::optional<int64_t>(quota.remaining));
}

void Service::schema(Context& ctx) {
  ctx.ok_result_shared(bodies_of(*ctx.registered).schema);  // dispatch found the tool
}

void Service::tool_by_slug(Context& ctx) {
  const auto* registered = registry_.find_slug(ctx.route.slug);
  if (!registered) return ctx.fail(not_found("no tool '" + std::string(ctx.route.slug) + "'"));
  ctx.tool = &registered->tool.descriptor;
  ctx.ok_result_shared(bodies_of(*registered).details);
}

void Service::tools(Context& ctx) {
  ToolsQuery query;
  ApiError error;
  if (!parse_tools_query(ctx.route.query, query, error)) return ctx.fail(error);
  if (!query.domain.empty() && !registry_.find_domain(query.domain))
    return ctx.fail(validation_error("domain", "unknown domain '" + query.domain + "'"));
  if (query.page == 1 && query.limit == ToolsQuery{}.limit) {
    if (auto it = first_tools_pages_.find(query.domain); it != first_tools_pages_.end())
      return ctx.ok_result_shared(it->second);
  }
  ctx.ok_result(render_tools_page(query));
}

std::string Service::render_tools_page(const ToolsQuery& query) const {
  std::vector<const catalog::RegisteredTool*> matching;
  for (const auto& t : registry_.tools())
    if (query.domain.empty() || t.tool.descriptor.domain == query.domain) matching.push_back(&t);
  const int64_t total = static_cast<int64_t>(matching.size());
  const int64_t pages = (total + query.limit - 1) / query.limit;

  std::string result;
  JsonWriter w(result);
  w.begin_object().key("items").begin_array();
  // parse_tools_query bounds page and limit; a page past the last one is empty, decided
  // by comparing page numbers, so that no product is formed for it.
  if (query.page >= 1 && query.page <= pages) {
    const int64_t first = (query.page - 1) * query.limit;
    for (int64_t i = first; i < total && i < first + query.limit; ++i)
      w.raw(matching[static_cast<size_t>(i)]->summary_json);
  }
  w.end_array();
  w.field("page", query.page).field("limit", query.limit).field("total", total);
  w.field("pages", pages).end_object();
  return result;
}

void Service::domains(Context& ctx) {
  std::string result;
  JsonWriter w(result);
  w.begin_object().key("items").begin_array();
  for (const auto& d : registry_.domains()) {
    w.begin_object().field("domain", d.name).field("name", d.display_name);
    w.field("description", d.description);
    w.field("live", registry_.live_count(d.name)).field("target", d.target);
    w.field("tools", "/v1/tools?domain=" + d.name).end_object();
  }
  w.end_array().end_object();
  ctx.ok_result(result);
}

void Service::me(Context& ctx) {
  const accounts::QuotaStatus q = access_.quota_status(ctx.caller);
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

// The document itself, not wrapped in the envelope: it is a format of its own that
// generators and validators read as is.
void Service::openapi(Context& ctx) {
  ctx.res.status = 200;
  ctx.res.body_prefix = openapi_json_;
}

// The playground (docs/playground.md): GET and HEAD (the transport drops HEAD's body; its
// row's method), 304 when the client's copy is current.
void Service::asset(Context& ctx) {
  const StaticAsset* a = assets_.find(ctx.route.slug);
  if (!a) return ctx.fail(not_found("no such path"));
  ctx.revalidate = true;
  ctx.res.set_header("ETag", a->etag);
  ctx.res.set_header("Content-Security-Policy", std::string(kPlaygroundCsp));
  ctx.res.set_header("X-Content-Type-Options", "nosniff");
  ctx.res.set_header("Referrer-Policy", "no-referrer");
  if (!ctx.req.if_none_match.empty() && etag_matches(ctx.req.if_none_match, a->etag)) {
    ctx.res.status = 304;
    return;
  }
  ctx.res.status = 200;
  ctx.res.content_type = a->content_type;
  ctx.res.body_prefix = a->body;  // assets_ lives as long as the Service
}

// The catalog for agents that read text (llmstxt.org): Markdown, served as plain text like
// the convention's own site, so that a browser shows it rather than downloading it.
void Service::llms_txt(Context& ctx) {
  ctx.res.status = 200;
  ctx.res.content_type = "text/plain; charset=utf-8";
  ctx.res.body_prefix = llms_txt_;
}

void Service::health(Context& ctx) {
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("status", "ok").field("version", options_.version);
  w.field("uptime_s", (clock_.now_ms() - started_ms_) / 1000).end_object();
  ctx.ok_result(result);
}

// Readiness: whether this instance should get traffic now. Liveness (/v1/health) stays 200
// in both cases: restarting would not help.
void Service::ready(Context& ctx) {
  if (draining())
    return ctx.fail({ErrorCode::NotReady,
                     "draining: the server received SIGTERM and stops soon; send requests to "
                     "another instance",
                     {}});
  if (!access_.store_reachable())
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
void Service::prometheus_metrics(Context& ctx) {
  std::string& out = ctx.res.body;
  out.reserve(16 * 1024);
  std::string labels;
  metrics::label_pair(labels, "version", options_.version);
  metrics::label_pair(labels, "store", options_.store_backend);
  metrics::write_family(out, "toolcalc_build_info",
                        "The running build: version and accounts store backend.", "gauge");
  metrics::write_sample(out, "toolcalc_build_info", labels, int64_t{1});
  metrics::write_family(out, "toolcalc_start_time_seconds",
                        "When the service started, in seconds since the Unix epoch.", "gauge");
  metrics::write_sample(out, "toolcalc_start_time_seconds", "",
                        static_cast<double>(started_ms_) / 1000.0);
  request_metrics_.render(out);
  metrics::render_registered(out);
  ctx.res.status = 200;
  ctx.res.content_type = "text/plain; version=0.0.4; charset=utf-8";
}

}  // namespace toolcalc::api
