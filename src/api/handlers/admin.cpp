// The admin API, {base}/admin/v1/…: the `toolcalc keys` commands over HTTP, with the same
// rules (accounts::KeyAdmin), for operators who manage keys without a shell on the box.
// On only when the server has an admin token (docs/operations.md, "Admin API"); a request
// must carry it as `Authorization: Bearer <token>`, compared in constant time; an address
// that fails too often is refused for a while (api/admin_guard.hpp). Every
// request that gets past the token writes one audit line on the operational log: who (the
// token's id, never the token), what, which key prefix, the status. Never counted against
// a rate window or quota; not in the public OpenAPI document (its own is
// /admin/v1/openapi.json).
#include <boost/json.hpp>
#include <cmath>
#include <span>

#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/utc_month.hpp"
#include "api/endpoints.hpp"
#include "api/handlers/handlers.hpp"
#include "api/openapi/paths.hpp"
#include "catalog/json_body.hpp"
#include "core/decimal.hpp"
#include "core/json_writer.hpp"
#include "core/log.hpp"

namespace toolcalc::api {
namespace {

namespace json = boost::json;

void write_time(JsonWriter& w, std::string_view key, std::optional<int64_t> epoch_s) {
  w.key(key);
  if (epoch_s)
    w.string(accounts::iso8601_utc(*epoch_s));
  else
    w.null();
}

void write_limit(JsonWriter& w, std::string_view key, std::optional<int64_t> value, bool from_key) {
  w.key(key).begin_object().key("value");
  if (value)
    w.integer(*value);
  else
    w.null();
  w.field("source", from_key ? "key" : "plan").end_object();
}

void write_view(JsonWriter& w, const accounts::KeyView& v) {
  w.begin_object().field("prefix", v.prefix).field("label", v.label).field("plan", v.plan);
  write_time(w, "created_at", v.created_epoch_s);
  write_time(w, "revoked_at", v.revoked_epoch_s);
  w.key("limits").begin_object();
  write_limit(w, "rate_per_minute", v.limits.rate_per_minute, v.limits.rate_from_key);
  write_limit(w, "monthly_quota", v.limits.monthly_quota, v.limits.quota_from_key);
  w.end_object();
  w.key("usage").begin_object().field("period", v.period).field("used", v.used).end_object();
  w.key("webhook_url");
  if (v.webhook_url.empty())
    w.null();
  else
    w.string(v.webhook_url);
  write_time(w, "previous_secret_expires_at", v.previous_secret_expires_epoch_s);
  w.end_object();
}

// The JSON object of a request body ("" is {}), or an error.
bool parse_object(const Request& req, json::object& out, ApiError& error) {
  if (req.body.empty()) return true;
  if (!is_json_media_type(req.content_type)) {
    error = {ErrorCode::UnsupportedMediaType,
             "send the body as a JSON object with Content-Type: application/json",
             {}};
    return false;
  }
  // The rules of every request body (catalog::parse_json): a repeated key is refused
  // naming it, a number past the double range is left to its field's check.
  json::value v;
  if (!catalog::parse_json(req.body, v, error)) return false;
  if (!v.is_object()) {
    error = invalid_json("the body must be one JSON object");
    return false;
  }
  out = std::move(v.as_object());
  return true;
}

// The members of `body` as KeySettings (and `grace` for a rotation); every other member
// is a 400 naming it.
bool read_settings(const json::object& body, std::span<const std::string_view> allowed,
                   accounts::KeySettings& s, std::optional<int64_t>& grace_s, ApiError& error) {
  for (const auto& [name, value] : body) {
    bool ok = false;
    for (auto a : allowed) ok = ok || name == a;
    if (!ok) {
      error = validation_error(std::string(name), "unknown member '" + std::string(name) + "'");
      return false;
    }
    const std::string field(name);
    auto wrong = [&](const char* what) {
      error = validation_error(field, field + " must be " + what);
      return false;
    };
    if (name == "plan" || name == "label") {
      if (!value.is_string()) return wrong("a string");
      (name == "plan" ? s.plan : s.label) = std::string(value.get_string());
    } else if (name == "webhook_url") {
      if (value.is_null())
        s.webhook_url = std::string();
      else if (value.is_string())
        s.webhook_url = std::string(value.get_string());
      else
        return wrong("a URL string, or null to remove the webhook");
    } else if (name == "rate_per_minute" || name == "monthly_quota") {
      auto& slot = name == "rate_per_minute" ? s.rate_per_minute : s.monthly_quota;
      if (value.is_double() && !std::isfinite(value.get_double())) return wrong("a finite number");
      if (value.is_null())
        slot = accounts::LimitSetting{};
      else if (value.is_int64())
        slot = accounts::LimitSetting{value.get_int64()};
      else if (value.is_uint64() && value.get_uint64() <= INT64_MAX)
        slot = accounts::LimitSetting{static_cast<int64_t>(value.get_uint64())};
      else
        return wrong("an integer, or null for the plan's");
    } else if (name == "grace") {
      try {
        if (value.is_double() && !std::isfinite(value.get_double()))
          return wrong("a finite number");
        if (value.is_string())
          grace_s = accounts::parse_grace(std::string(value.get_string()));
        else if (value.is_int64() && value.get_int64() >= 0)
          grace_s = accounts::parse_grace(std::to_string(value.get_int64()) + "s");
        else
          return wrong("a duration such as \"24h\", or whole seconds");
      } catch (const accounts::KeyRequestError& e) {
        error = validation_error("grace", e.what());
        return false;
      }
    }
  }
  return true;
}

}  // namespace

// What an admin operation's handler works with.
struct AdminCall {
  ServiceContext& ctx;
  accounts::KeyAdmin& keys;
  const std::string& openapi_json;  // GET /admin/v1/openapi.json's body
  std::string_view prefix;          // the path's {prefix}; "" when it has none
  std::string logged_prefix;        // the audit line's key prefix
  bool keys_changed = false;        // the key cache reloads
};

namespace {

constexpr std::string_view kAdminRoot = "/admin/v1/";
constexpr std::string_view kSettingsMembers[] = {"plan", "label", "rate_per_minute",
                                                 "monthly_quota", "webhook_url"};
constexpr std::string_view kRotateMembers[] = {"grace"};

// The body's members as settings (and a rotation's grace); false when answered 400/415.
bool read_body(AdminCall& call, std::span<const std::string_view> allowed,
               accounts::KeySettings& settings, std::optional<int64_t>& grace_s) {
  json::object body;
  ApiError error;
  if (parse_object(call.ctx.req, body, error) &&
      read_settings(body, allowed, settings, grace_s, error))
    return true;
  call.ctx.fail(error);
  return false;
}

void keys_list(AdminCall& call) {
  std::string result;
  JsonWriter w(result);
  w.begin_object().key("items").begin_array();
  for (const auto& v : call.keys.list()) write_view(w, v);
  w.end_array().end_object();
  call.ctx.ok_result(result);
}

void keys_create(AdminCall& call) {
  accounts::KeySettings settings;
  std::optional<int64_t> grace_s;
  if (!read_body(call, kSettingsMembers, settings, grace_s)) return;
  const accounts::CreatedKey created = call.keys.create(settings);
  call.logged_prefix = created.view.prefix;
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("key", created.key);
  if (!created.webhook_secret.empty()) w.field("webhook_secret", created.webhook_secret);
  w.key("item");
  write_view(w, created.view);
  w.end_object();
  call.keys_changed = true;
  call.ctx.ok_result(result);
  call.ctx.res.status = 201;
}

void keys_get(AdminCall& call) {
  std::string result;
  JsonWriter w(result);
  write_view(w, call.keys.get(call.prefix));
  call.ctx.ok_result(result);
}

void keys_update(AdminCall& call) {
  accounts::KeySettings settings;
  std::optional<int64_t> grace_s;
  if (!read_body(call, kSettingsMembers, settings, grace_s)) return;
  const accounts::UpdatedKey updated = call.keys.update(call.prefix, settings);
  std::string result;
  JsonWriter w(result);
  w.begin_object();
  if (!updated.webhook_secret.empty()) w.field("webhook_secret", updated.webhook_secret);
  w.key("item");
  write_view(w, updated.view);
  w.end_object();
  call.keys_changed = true;
  call.ctx.ok_result(result);
}

void keys_revoke(AdminCall& call) {
  const store::RevokeOutcome outcome = call.keys.revoke(call.prefix);
  if (outcome == store::RevokeOutcome::NotFound)
    throw accounts::KeyNotFound("no key with prefix '" + std::string(call.prefix) + "'");
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("prefix", call.prefix);
  w.field("already_revoked", outcome == store::RevokeOutcome::AlreadyRevoked).end_object();
  call.keys_changed = outcome == store::RevokeOutcome::Revoked;
  call.ctx.ok_result(result);
}

void keys_rotate(AdminCall& call) {
  accounts::KeySettings settings;
  std::optional<int64_t> grace_s;
  if (!read_body(call, kRotateMembers, settings, grace_s)) return;
  const accounts::RotatedKey rotated =
      call.keys.rotate(call.prefix, grace_s.value_or(accounts::kDefaultRotationGraceS));
  std::string result;
  JsonWriter w(result);
  w.begin_object().field("key", rotated.key);
  write_time(w, "previous_secret_expires_at", rotated.previous_expires_epoch_s);
  w.key("item");
  write_view(w, rotated.view);
  w.end_object();
  call.keys_changed = true;
  call.ctx.ok_result(result);
}

// The document itself, without the envelope (as GET /v1/openapi.json).
void admin_openapi(AdminCall& call) {
  call.ctx.res.status = 200;
  call.ctx.res.body_prefix = call.openapi_json;
}

// The admin API's operations; a path's methods in the order its Allow header lists them, a
// path's rows next to each other (the admin document writes them as one path item).
constexpr AdminEndpoint kAdminEndpoints[] = {
    {"GET", "/admin/v1/keys", "keys.list", keys_list, openapi::list_keys_operation},
    {"POST", "/admin/v1/keys", "keys.create", keys_create, openapi::create_key_operation},
    {"GET", "/admin/v1/keys/{prefix}", "keys.get", keys_get, openapi::get_key_operation},
    {"PATCH", "/admin/v1/keys/{prefix}", "keys.update", keys_update, openapi::update_key_operation},
    {"DELETE", "/admin/v1/keys/{prefix}", "keys.revoke", keys_revoke,
     openapi::revoke_key_operation},
    {"POST", "/admin/v1/keys/{prefix}/rotate", "keys.rotate", keys_rotate,
     openapi::rotate_key_operation},
    {"GET", "/admin/v1/openapi.json", "openapi.get", admin_openapi,
     openapi::admin_openapi_operation},
};

// Whether `path` (after /admin/v1/) has the segments of `pattern` (after /admin/v1/), where
// {prefix} stands for any one non-empty segment, whose value goes to `prefix`.
bool path_matches(std::string_view pattern, std::string_view path, std::string_view& prefix) {
  for (;;) {
    const size_t pattern_end = pattern.find('/');
    const size_t path_end = path.find('/');
    const std::string_view want = pattern.substr(0, pattern_end);
    const std::string_view got = path.substr(0, path_end);
    if (want == "{prefix}") {
      if (got.empty()) return false;
      prefix = got;
    } else if (want != got) {
      return false;
    }
    if ((pattern_end == std::string_view::npos) != (path_end == std::string_view::npos))
      return false;
    if (pattern_end == std::string_view::npos) return true;
    pattern.remove_prefix(pattern_end + 1);
    path.remove_prefix(path_end + 1);
  }
}

// Runs the operation; a refused request becomes its error answer.
void run_admin(AdminCall& call, const AdminEndpoint& operation) {
  try {
    operation.handler(call);
  } catch (const accounts::KeyRequestError& e) {
    call.ctx.fail(validation_error(e.field(), e.what()));
  } catch (const accounts::UnknownPlan& e) {
    call.ctx.fail(validation_error("plan", e.what()));
  } catch (const accounts::KeyNotFound& e) {
    call.ctx.fail(not_found(e.what()));
  } catch (const accounts::KeyRevoked& e) {
    call.ctx.fail({ErrorCode::Conflict, e.what(), {}});
  }
}

}  // namespace

std::span<const AdminEndpoint> admin_endpoints() {
  return kAdminEndpoints;
}

// The Admin row's handler: answer_uncounted calls it (never counted). The token, then the
// operation's row by path and method; every request past the token writes its audit line.
void handlers::admin(HandlerEnv& env, ServiceContext& ctx) {
  // An address that failed too often waits, whatever it sends (api/admin_guard.hpp).
  const int64_t now_s = env.clock.now_s();
  if (const int64_t wait_s = env.admin.guard.retry_after_s(ctx.req.peer_ip, now_s); wait_s > 0) {
    ctx.res.set_header("Retry-After", decimal_string(wait_s));
    ctx.fail({ErrorCode::RateLimited,
              "too many failed admin authentications from this address; retry after " +
                  decimal_string(wait_s) + " s",
              {}});
    return;
  }
  std::optional<std::string_view> token;
  if (ctx.req.authorization) token = accounts::bearer_token(*ctx.req.authorization);
  // Both sides are SHA-256 digests, compared without an early exit: neither the token's
  // length nor its bytes show in the time taken.
  if (!token || !accounts::same_digest(accounts::hash_api_key(*token), env.admin.token_digest)) {
    env.admin.guard.record_failure(ctx.req.peer_ip, now_s, ctx.res.request_id);
    ctx.res.set_header("WWW-Authenticate", "Bearer");
    ctx.fail({ErrorCode::Unauthorized, token ? "invalid admin token" : "missing admin token", {}});
    return;
  }

  const AdminEndpoint* operation = nullptr;
  std::string_view prefix;
  std::string allow;  // the methods of the path, when the request's is not one of them
  for (const AdminEndpoint& row : kAdminEndpoints) {
    std::string_view row_prefix;
    if (!path_matches(row.path.substr(kAdminRoot.size()), ctx.route.slug, row_prefix)) continue;
    prefix = row_prefix;
    if (row.method == ctx.req.method) {
      operation = &row;
      break;
    }
    allow += row.method;
    allow += ", ";
  }
  AdminCall call{ctx, *env.options.key_admin, env.bodies.admin_openapi_json, prefix,
                 std::string(prefix.substr(0, accounts::kKeyPrefixLength))};
  if (operation) {
    run_admin(call, *operation);
  } else if (!allow.empty()) {
    allow += "OPTIONS";
    ctx.res.set_header("Allow", allow);
    ctx.fail({ErrorCode::MethodNotAllowed, "use " + allow + " here", {}});
  } else {
    ctx.fail(not_found("no such path"));
  }
  if (call.keys_changed) env.access.keys_changed();
  log::info("admin action", {{"admin", env.admin.token_id},
                             {"action", operation ? operation->action : "none"},
                             {"key_prefix", call.logged_prefix},
                             {"status", std::to_string(ctx.res.status)},
                             {"request_id", ctx.res.request_id}});
}

}  // namespace toolcalc::api
