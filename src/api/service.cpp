#include "api/service.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>

#include "accounts/rate_window.hpp"
#include "api/envelope.hpp"
#include "api/execute.hpp"
#include "api/openapi/openapi.hpp"
#include "api/query.hpp"
#include "api/request_id.hpp"
#include "api/routes.hpp"
#include "api/service_context.hpp"
#include "core/decimal.hpp"
#include "core/json_writer.hpp"
#include "core/log.hpp"
#include "core/text.hpp"

namespace toolcalc::api {

namespace {

constexpr std::string_view kExposedHeaders =
    "X-Request-ID, X-Tool-Version, X-RateLimit-Limit, X-RateLimit-Remaining, "
    "X-RateLimit-Reset, Retry-After";

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

// The headers of every response after the per-request ones (Service::add_response_headers).
HeaderBlock common_headers(std::string_view cache_control) {
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
      mcp_tools_(registry),
      assets_(options_.base_path, options_.playground_dev_key),
      uncached_headers_(common_headers("no-store")),
      revalidated_headers_(common_headers("no-cache")) {
  // The first page of the listing, all domains and each domain: what a client asks for
  // almost always, rendered once (the registry is immutable), as are each tool's schema
  // and details.
  first_tools_pages_.emplace("", result_body_prefix(render_tools_page({})));
  for (const auto& d : registry_.domains()) {
    ToolsQuery q;
    q.domain = d.name;
    first_tools_pages_.emplace(d.name, result_body_prefix(render_tools_page(q)));
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
//   answer_uncounted → identify_caller → rate step → dispatch → finish (waits until what
//   the request counted is durable) → end_request.
// The rate step is the one that may wait on a shared store: with a store that answers
// asynchronously on this thread, the request is moved to the heap and resumes when the
// reply arrives; otherwise it is taken at once.
Response Service::handle(const Request& request) {
  Response res;
  handle_async(request, res, nullptr);
  return res;
}

bool Service::handle_async(const Request& request, Response& res, std::function<void()> done) {
  assign_request_id(res.request_id);
  Context ctx(request, res, match_route(request.target, options_.base_path));
  bool answered = false;
  run_or_answer_failure(ctx, [&] { answered = answer_uncounted(ctx); });
  if (answered) {
    end_request(ctx);
    return true;
  }
  identify_caller(ctx);

  if (done && access_.steps_asynchronously()) {
    auto held = std::make_shared<Context>(ctx);
    accounts::AccessControl::RateStepDone resume = [this, held, done = std::move(done)](
                                                       accounts::RateStep&& step,
                                                       std::exception_ptr failure) mutable {
      {
        accounts::CountingScope scope(held->counted);
        after_rate_step(*held, std::move(step), failure);
      }
      if (finish(*held, done)) done();
    };
    if (access_.start_rate_step(ctx.caller, ctx.for_execution, resume)) return false;
  }
  {
    // Whatever the request counts from here on is recorded in ctx.counted.
    accounts::CountingScope scope(ctx.counted);
    accounts::RateStep step;
    std::exception_ptr failure;
    try {
      step = take_rate_step(ctx);
    } catch (...) {
      failure = std::current_exception();
    }
    after_rate_step(ctx, std::move(step), failure);
  }
  return finish(ctx, done);
}

accounts::RateStep Service::take_rate_step(Context& ctx) {
  accounts::RateStep step;
  if (ctx.for_execution)
    step.rate = access_.take_rate_unit_for_execution(ctx.caller, step.early);
  else
    step.rate = access_.take_rate_unit(ctx.caller);
  return step;
}

void Service::after_rate_step(Context& ctx, accounts::RateStep&& step, std::exception_ptr failure) {
  run_or_answer_failure(ctx, [&] {
    if (failure) std::rethrow_exception(failure);
    ctx.rate = step.rate;
    ctx.rate_known = true;
    ctx.early_quota = std::move(step.early);
    dispatch(ctx);
  });
  // A quota unit reserved with the rate unit but not used (the request failed before
  // running its tool) goes back.
  if (ctx.early_quota) {
    access_.release_quota(ctx.caller, *ctx.early_quota, 1);
    ctx.early_quota.reset();
  }
}

namespace {

ApiError store_unavailable() {
  return {ErrorCode::StoreUnavailable,
          "the accounts store that counts rate limits and quotas is unreachable, so the "
          "request was neither counted nor run; retry shortly",
          {}};
}

// A 200 whose units could not be stored: answered as a store outage (fail closed), the
// units given back by the AccessControl. Headers and rate state stay those of the request.
void fail_uncommitted(Response& res, bool mcp, const std::string& mcp_id) {
  const ApiError error = store_unavailable();
  res.set_header("Retry-After", "1");
  res.status = error.status();
  res.body_prefix = {};
  res.body =
      mcp ? mcp::error_body(error, mcp_id, res.request_id) : error_body(error, res.request_id);
}

}  // namespace

// What a response waiting for its units' commit needs to end: its request and response
// (kept alive by the transport until `done`), and how to answer a failed commit.
class Service::FinishWhenDurable final : public accounts::DurableWait {
 public:
  FinishWhenDurable(Service& service, const Context& ctx, std::function<void()>&& done)
      : service_(service),
        req_(ctx.req),
        res_(ctx.res),
        started_(ctx.started),
        mcp_(ctx.route.kind == RouteKind::Mcp),
        mcp_id_(mcp_ ? ctx.mcp_id : std::string()),
        done_(std::move(done)) {}

  std::function<void()> take_done() { return std::move(done_); }

  void on_durable(bool durable) override {
    if (!durable) fail_uncommitted(res_, mcp_, mcp_id_);
    service_.log_access(req_, res_, started_);
    done_();
  }

 private:
  Service& service_;
  const Request& req_;
  Response& res_;
  std::chrono::steady_clock::time_point started_;
  bool mcp_;
  std::string mcp_id_;
  std::function<void()> done_;
};

// docs/reliability.md, "Counts on disk": a response that acknowledges counted
// units is sent only once they are durable. Its headers are written now; the access log
// line when it is sent.
bool Service::finish(Context& ctx, std::function<void()>& done) {
  if (ctx.res.status != 200 || ctx.counted.empty()) {
    end_request(ctx);
    return true;
  }
  add_response_headers(ctx);
  std::unique_ptr<accounts::DurableWait> wait;
  FinishWhenDurable* finisher = nullptr;
  if (done) wait.reset(finisher = new FinishWhenDurable(*this, ctx, std::move(done)));
  const accounts::Durability d = access_.await_durable(ctx.counted, wait);
  if (d == accounts::Durability::Waiting) return false;  // `wait` was taken
  // Not taken: `done` goes back to the caller, which calls it when this returns true.
  if (finisher) done = finisher->take_done();
  if (d == accounts::Durability::Failed)
    fail_uncommitted(ctx.res, ctx.route.kind == RouteKind::Mcp, ctx.mcp_id);
  log_access(ctx.req, ctx.res, ctx.started);
  return true;
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

void Service::end_request(Context& ctx) {
  add_response_headers(ctx);
  log_access(ctx.req, ctx.res, ctx.started);
}

// Fail closed (docs/api.md, "Shared store"): nothing was counted, so nothing runs. The
// X-RateLimit-* headers say no unit is available until the window ends.
void Service::answer_store_unavailable(Context& ctx) {
  if (!ctx.rate_known) {
    const int64_t now_s = clock_.now_s();
    const int64_t window = accounts::kRateWindowSeconds;
    ctx.rate.allowed = false;
    ctx.rate.limit = ctx.caller.plan.rate_per_minute;
    ctx.rate.remaining = 0;
    ctx.rate.reset_epoch_s = now_s / window * window + window;  // epoch seconds are > 0
    ctx.rate_known = true;
  }
  ctx.res.set_header("Retry-After", "1");
  ctx.fail(store_unavailable());
}

Response Service::transport_error(const ApiError& error, std::string_view peer_ip) {
  Response res;
  assign_request_id(res.request_id);
  Request req;
  req.peer_ip = peer_ip;
  Context ctx(req, res, {});
  ctx.caller = access_.authenticate(std::nullopt, peer_ip).caller;
  ctx.rate = access_.peek_rate(ctx.caller);
  ctx.rate_known = true;
  if (error.code == ErrorCode::ServerBusy) res.set_header("Retry-After", "1");
  ctx.fail(error);
  add_response_headers(ctx);
  log_access(req, res, ctx.started);
  return res;
}

void Service::add_response_headers(Context& ctx) {
  Response& res = ctx.res;
  std::optional<RateLimitHeaders> rate;
  if (ctx.rate_known)
    rate = RateLimitHeaders{ctx.rate.limit, std::max<int64_t>(0, ctx.rate.remaining),
                            ctx.rate.reset_epoch_s};
  write_lead_headers(res, ctx.tool ? std::string_view(ctx.tool->version) : options_.version, rate);
  // API answers are never cached; the playground's files are, but revalidated (ETag).
  res.common_headers = ctx.revalidate ? &revalidated_headers_ : &uncached_headers_;
  res.key_prefix = ctx.caller.key_prefix;
}

void Service::log_access(const Request& req, const Response& res,
                         std::chrono::steady_clock::time_point started) {
  if (!access_log_.enabled()) return;
  const auto elapsed = std::chrono::steady_clock::now() - started;
  access_log_.write({clock_.now_ms(), res.request_id, res.key_prefix, req.method, req.target,
                     res.status,
                     std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()});
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

// CORS preflight, liveness and the playground's files: answered before the caller is
// identified, never limited or counted (they carry the anonymous window's headers).
bool Service::answer_uncounted(Context& ctx) {
  const Request& req = ctx.req;
  const RouteKind kind = ctx.route.kind;
  if (req.method != "OPTIONS" && kind != RouteKind::Health && kind != RouteKind::Asset)
    return false;
  ctx.caller = access_.authenticate(std::nullopt, req.peer_ip).caller;
  ctx.rate = access_.peek_rate(ctx.caller);
  ctx.rate_known = true;
  if (kind == RouteKind::NotFound) {
    ctx.fail(not_found("no such path"));
  } else if (req.method == "OPTIONS") {
    ctx.res.status = 204;
    ctx.res.set_header("Allow", std::string(allowed_methods(kind)));
    ctx.res.set_header("Access-Control-Allow-Methods", std::string(allowed_methods(kind)));
    ctx.res.set_header("Access-Control-Allow-Headers",
                       kind == RouteKind::Mcp
                           ? "Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id"
                           : "Authorization, Content-Type");
    ctx.res.set_header("Access-Control-Max-Age", "86400");
  } else if (kind == RouteKind::Asset) {
    asset(ctx);
  } else if (req.method != "GET") {
    ctx.res.set_header("Allow", std::string(allowed_methods(kind)));
    ctx.fail({ErrorCode::MethodNotAllowed, "use GET for this endpoint", {}});
  } else {
    health(ctx);
  }
  return true;
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
  ctx.for_execution = ctx.route.kind == RouteKind::Execute && req.method == "POST" &&
                      auth.status == accounts::AuthStatus::Ok;
}

void Service::dispatch(Context& ctx) {
  const Request& req = ctx.req;
  const RouteKind kind = ctx.route.kind;
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

  if (kind == RouteKind::NotFound) return ctx.fail(not_found("no such path"));
  if (kind == RouteKind::Execute || kind == RouteKind::Schema || kind == RouteKind::Sweep) {
    // An unknown tool is 404 whatever the method; a known one labels every response.
    const auto* registered = registry_.find(ctx.route.domain, ctx.route.slug);
    if (!registered) return ctx.fail(unknown_tool(registry_, ctx.route.domain, ctx.route.slug));
    ctx.registered = registered;
    ctx.tool = &registered->tool.descriptor;
  }
  const bool wants_post =
      kind == RouteKind::Execute || kind == RouteKind::Sweep || kind == RouteKind::Mcp;
  if (req.method != (wants_post ? "POST" : "GET")) {
    ctx.res.set_header("Allow", std::string(allowed_methods(kind)));
    return ctx.fail({ErrorCode::MethodNotAllowed,
                     std::string("use ") + (wants_post ? "POST" : "GET") + " for this endpoint",
                     {}});
  }
  const bool needs_key =
      kind == RouteKind::Execute || kind == RouteKind::Sweep || kind == RouteKind::Me;
  if (needs_key && ctx.auth_status == accounts::AuthStatus::Missing) {
    ctx.res.set_header("WWW-Authenticate", "Bearer");
    return ctx.fail({ErrorCode::Unauthorized, "missing API key", {}});
  }

  switch (kind) {
    case RouteKind::Execute:
      return execute(ctx);
    case RouteKind::Sweep:
      return sweep(ctx);
    case RouteKind::Schema:
      return schema(ctx);
    case RouteKind::Tools:
      return tools(ctx);
    case RouteKind::ToolBySlug:
      return tool_by_slug(ctx);
    case RouteKind::Domains:
      return domains(ctx);
    case RouteKind::Me:
      return me(ctx);
    case RouteKind::OpenApi:
      return openapi(ctx);
    case RouteKind::Mcp:
      return mcp_endpoint(ctx);
    default:
      return ctx.fail(not_found("no such path"));
  }
}

bool Service::run_tool(Context& ctx, const catalog::Tool& tool, std::string_view body,
                       std::string& out, accounts::QuotaReservation& quota, ApiError& error) {
  catalog::Inputs inputs;
  if (!prepare_inputs(tool.descriptor, body, inputs, error)) return false;

  if (ctx.early_quota) {
    quota = *ctx.early_quota;
    ctx.early_quota.reset();
  } else {
    quota = access_.reserve_quota(ctx.caller, 1);
  }
  if (!quota.allowed) {
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
    access_.release_quota(ctx.caller, quota, 1);
    throw;
  }
  if (!computed) {
    access_.release_quota(ctx.caller, quota, 1);
    out.resize(mark);
  }
  return computed;
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
  const int64_t first = (query.page - 1) * query.limit;
  for (int64_t i = first; i < total && i < first + query.limit; ++i)
    w.raw(matching[static_cast<size_t>(i)]->summary_json);
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
  w.end_object();
  ctx.ok_result(result);
}

// The document itself, not wrapped in the envelope: it is a format of its own that
// generators and validators read as is.
void Service::openapi(Context& ctx) {
  ctx.res.status = 200;
  ctx.res.body_prefix = openapi_json_;
}

// The playground (docs/playground.md): GET and HEAD (the transport drops HEAD's body),
// 304 when the client's copy is current.
void Service::asset(Context& ctx) {
  const StaticAsset* a = assets_.find(ctx.route.slug);
  if (!a) return ctx.fail(not_found("no such path"));
  if (ctx.req.method != "GET" && ctx.req.method != "HEAD") {
    ctx.res.set_header("Allow", std::string(allowed_methods(RouteKind::Asset)));
    return ctx.fail({ErrorCode::MethodNotAllowed, "use GET for this page", {}});
  }
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

void Service::health(Context& ctx) {
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("status", "ok").field("version", options_.version);
  w.field("uptime_s", (clock_.now_ms() - started_ms_) / 1000).end_object();
  ctx.ok_result(result);
}

}  // namespace toolcalc::api
