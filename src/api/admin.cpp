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

#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/utc_month.hpp"
#include "api/service.hpp"
#include "api/service_context.hpp"
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
bool read_settings(const json::object& body, std::initializer_list<std::string_view> allowed,
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

// The Admin row's handler: answer_uncounted calls it (never counted).
void Service::admin(Context& ctx) {
  // An address that failed too often waits, whatever it sends (api/admin_guard.hpp).
  const int64_t now_s = clock_.now_s();
  if (const int64_t wait_s = admin_guard_.retry_after_s(ctx.req.peer_ip, now_s); wait_s > 0) {
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
  if (!token || !accounts::same_digest(accounts::hash_api_key(*token), admin_token_digest_)) {
    admin_guard_.record_failure(ctx.req.peer_ip, now_s, ctx.res.request_id);
    ctx.res.set_header("WWW-Authenticate", "Bearer");
    ctx.fail({ErrorCode::Unauthorized, token ? "invalid admin token" : "missing admin token", {}});
    return;
  }
  const std::string_view path = ctx.route.slug;
  if (path == "openapi.json") {
    if (ctx.req.method != "GET") {
      ctx.res.set_header("Allow", "GET, OPTIONS");
      ctx.fail({ErrorCode::MethodNotAllowed, "use GET for this document", {}});
    } else {
      ctx.res.status = 200;
      ctx.res.body_prefix = admin_openapi_json_;
    }
    log::info("admin action", {{"admin", admin_token_id_},
                               {"action", "openapi.get"},
                               {"key_prefix", ""},
                               {"status", std::to_string(ctx.res.status)},
                               {"request_id", ctx.res.request_id}});
    return;
  }
  if (path == "keys" || path.starts_with("keys/")) return admin_keys(ctx, admin_token_id_);
  ctx.fail(not_found("no such path"));
}

void Service::admin_keys(Context& ctx, std::string_view admin_id) {
  // "keys", "keys/{prefix}" or "keys/{prefix}/rotate".
  std::string_view rest = ctx.route.slug.substr(4);
  std::string_view prefix, sub;
  if (!rest.empty()) {
    rest.remove_prefix(1);
    const size_t slash = rest.find('/');
    prefix = rest.substr(0, slash);
    if (slash != std::string_view::npos) sub = rest.substr(slash + 1);
  }
  const std::string_view method = ctx.req.method;
  std::string action;
  const char* allow = nullptr;
  if (rest.empty()) {
    if (method == "GET")
      action = "keys.list";
    else if (method == "POST")
      action = "keys.create";
    else
      allow = "GET, POST, OPTIONS";
  } else if (sub.empty() && !prefix.empty()) {
    if (method == "GET")
      action = "keys.get";
    else if (method == "PATCH")
      action = "keys.update";
    else if (method == "DELETE")
      action = "keys.revoke";
    else
      allow = "GET, PATCH, DELETE, OPTIONS";
  } else if (sub == "rotate" && !prefix.empty()) {
    if (method == "POST")
      action = "keys.rotate";
    else
      allow = "POST, OPTIONS";
  }

  std::string logged_prefix(prefix.substr(0, accounts::kKeyPrefixLength));
  auto audit = [&] {
    log::info("admin action", {{"admin", admin_id},
                               {"action", action.empty() ? std::string_view("none") : action},
                               {"key_prefix", logged_prefix},
                               {"status", std::to_string(ctx.res.status)},
                               {"request_id", ctx.res.request_id}});
  };
  if (allow) {
    ctx.res.set_header("Allow", allow);
    ctx.fail({ErrorCode::MethodNotAllowed, std::string("use ") + allow + " here", {}});
    return audit();
  }
  if (action.empty()) {
    ctx.fail(not_found("no such path"));
    return audit();
  }

  accounts::KeyAdmin& admin = *options_.key_admin;
  json::object body;
  ApiError error;
  accounts::KeySettings settings;
  std::optional<int64_t> grace_s;
  const bool with_body =
      action == "keys.create" || action == "keys.update" || action == "keys.rotate";
  if (with_body) {
    const std::initializer_list<std::string_view> allowed_create = {
        "plan", "label", "rate_per_minute", "monthly_quota", "webhook_url"};
    const std::initializer_list<std::string_view> allowed_rotate = {"grace"};
    if (!parse_object(ctx.req, body, error) ||
        !read_settings(body, action == "keys.rotate" ? allowed_rotate : allowed_create, settings,
                       grace_s, error)) {
      ctx.fail(error);
      return audit();
    }
  }

  std::string result;
  JsonWriter w(result);
  bool changed = false;
  try {
    if (action == "keys.list") {
      w.begin_object().key("items").begin_array();
      for (const auto& v : admin.list()) write_view(w, v);
      w.end_array().end_object();
    } else if (action == "keys.get") {
      write_view(w, admin.get(prefix));
    } else if (action == "keys.create") {
      const accounts::CreatedKey created = admin.create(settings);
      logged_prefix = created.view.prefix;
      w.begin_object().field("key", created.key);
      if (!created.webhook_secret.empty()) w.field("webhook_secret", created.webhook_secret);
      w.key("item");
      write_view(w, created.view);
      w.end_object();
      changed = true;
    } else if (action == "keys.update") {
      const accounts::UpdatedKey updated = admin.update(prefix, settings);
      w.begin_object();
      if (!updated.webhook_secret.empty()) w.field("webhook_secret", updated.webhook_secret);
      w.key("item");
      write_view(w, updated.view);
      w.end_object();
      changed = true;
    } else if (action == "keys.rotate") {
      const accounts::RotatedKey rotated =
          admin.rotate(prefix, grace_s.value_or(accounts::kDefaultRotationGraceS));
      w.begin_object().field("key", rotated.key);
      write_time(w, "previous_secret_expires_at", rotated.previous_expires_epoch_s);
      w.key("item");
      write_view(w, rotated.view);
      w.end_object();
      changed = true;
    } else if (action == "keys.revoke") {
      const store::RevokeOutcome outcome = admin.revoke(prefix);
      if (outcome == store::RevokeOutcome::NotFound)
        throw accounts::KeyNotFound("no key with prefix '" + std::string(prefix) + "'");
      w.begin_object().field("prefix", prefix);
      w.field("already_revoked", outcome == store::RevokeOutcome::AlreadyRevoked).end_object();
      changed = outcome == store::RevokeOutcome::Revoked;
    }
  } catch (const accounts::KeyRequestError& e) {
    ctx.fail(validation_error(e.field(), e.what()));
    return audit();
  } catch (const accounts::UnknownPlan& e) {
    ctx.fail(validation_error("plan", e.what()));
    return audit();
  } catch (const accounts::KeyNotFound& e) {
    ctx.fail(not_found(e.what()));
    return audit();
  } catch (const accounts::KeyRevoked& e) {
    ctx.fail({ErrorCode::Conflict, e.what(), {}});
    return audit();
  }
  if (changed) access_.keys_changed();
  ctx.ok_result(result);
  if (action == "keys.create") ctx.res.status = 201;
  audit();
}

}  // namespace toolcalc::api
