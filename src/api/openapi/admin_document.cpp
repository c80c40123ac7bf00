// The admin API's OpenAPI 3.1 document (GET /admin/v1/openapi.json, api/handlers/admin.cpp):
// the key operations of `toolcalc keys` over HTTP, one per admin row (admin_endpoints()),
// each written by the row's writer. Separate from the public document, which
// the API's clients and agents read and which must not advertise operator endpoints.
#include <iterator>

#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/key_issuer.hpp"
#include "accounts/quota_alerts.hpp"
#include "api/admin_guard.hpp"
#include "api/endpoints.hpp"
#include "api/openapi/openapi.hpp"
#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::openapi {
namespace {

// The components; info, servers and the paths (from the rows) are written around them.
constexpr std::string_view kAdminComponents = R"json({
"securitySchemes":{"adminToken":{"type":"http","scheme":"bearer","description":"The admin token the server was started with (TOOLCALC_ADMIN_TOKEN or TOOLCALC_ADMIN_TOKEN_FILE), compared in constant time. Without one configured, every /admin path is 404."}},
"parameters":{"Prefix":{"name":"prefix","in":"path","required":true,"description":"The key's first ${kKeyPrefixLength} characters, as listed.","schema":{"type":"string","pattern":"^tc_(live|test)_[0-9A-Za-z]{${kPrefixRandomChars}}$"}}},
"responses":{
 "Unauthorized":{"description":"The admin token is missing or wrong (`UNAUTHORIZED`); `WWW-Authenticate: Bearer`.","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ErrorEnvelope"}}}},
 "TooManyFailures":{"description":"`RATE_LIMITED`: this address failed to authenticate ${kMaxFailures} times within ${kWindowSeconds} s of its first failure, so every admin request from it is refused until then, whatever token it carries; `Retry-After` gives the seconds left.","headers":{"Retry-After":{"schema":{"type":"integer","minimum":1}}},"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ErrorEnvelope"}}}},
 "Error":{"description":"The error envelope: 400 `VALIDATION_ERROR` (the member at fault in `field`) or `INVALID_JSON`, 404 `NOT_FOUND` (no key with this prefix), 409 `CONFLICT` (the key is revoked), 415 `UNSUPPORTED_MEDIA_TYPE`, 500 `INTERNAL`, 503 `STORE_UNAVAILABLE`.","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ErrorEnvelope"}}}}},
"schemas":{
 "ResultEnvelope":{"type":"object","required":["ok","result","meta"],"properties":{"ok":{"const":true},"result":{"type":"object"},"meta":{"type":"object","required":["request_id"],"properties":{"request_id":{"type":"string"}}}}},
 "ErrorEnvelope":{"type":"object","required":["ok","error","meta"],"properties":{"ok":{"const":false},"error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"string"},"message":{"type":"string"},"field":{"type":"string"}}},"meta":{"type":"object","required":["request_id"],"properties":{"request_id":{"type":"string"}}}}},
 "KeySettings":{"type":"object","additionalProperties":false,"description":"`plan` is required to create a key.","properties":{"plan":{"type":"string","description":"A configured plan other than `anonymous`."},"label":{"type":"string","maxLength":${kMaxLabelLength}},"rate_per_minute":{"type":["integer","null"],"minimum":1,"maximum":${kMaxRatePerMinute},"description":"This key's own limit; null: the plan's."},"monthly_quota":{"type":["integer","null"],"minimum":0,"maximum":${kMaxMonthlyQuota},"description":"This key's own quota; null: the plan's."},"webhook_url":{"type":["string","null"],"description":"Where quota alerts (${kAlertThresholdsPct} % of the month's quota) are POSTed; http:// or https://. null or \"\" removes it."}}},
 "Limit":{"type":"object","required":["value","source"],"properties":{"value":{"type":["integer","null"]},"source":{"type":"string","enum":["plan","key"]}}},
 "Key":{"type":"object","required":["prefix","label","plan","created_at","revoked_at","limits","usage","webhook_url","previous_secret_expires_at"],"properties":{"prefix":{"type":"string"},"label":{"type":"string"},"plan":{"type":"string"},"created_at":{"type":"string","format":"date-time"},"revoked_at":{"type":["string","null"],"format":"date-time"},"limits":{"type":"object","required":["rate_per_minute","monthly_quota"],"properties":{"rate_per_minute":{"$ref":"#/components/schemas/Limit"},"monthly_quota":{"$ref":"#/components/schemas/Limit"}}},"usage":{"type":"object","required":["period","used"],"properties":{"period":{"type":"string"},"used":{"type":"integer","minimum":0}}},"webhook_url":{"type":["string","null"]},"previous_secret_expires_at":{"type":["string","null"],"format":"date-time","description":"While the secret the key had before its last rotation still works."}}},
 "IssuedKey":{"type":"object","required":["key","item"],"properties":{"key":{"type":"string","pattern":"^tc_live_[0-9A-Za-z]{${kKeyRandomChars}}$"},"webhook_secret":{"type":"string","pattern":"^whsec_[0-9A-Za-z]{${kWebhookSecretRandomChars}}$","description":"Signs the quota alerts (Toolcalc-Signature); present when a webhook URL was given."},"item":{"$ref":"#/components/schemas/Key"}}}}
})json";

// The path item members every operation of `path` shares: its {prefix} parameter.
constexpr std::string_view kPrefixParameter =
    R"json( "parameters":[{"$ref":"#/components/parameters/Prefix"}],)json";

// "paths": one member per path of the admin rows, in their order, holding the operations of
// its rows (each row's writer), one per line.
std::string admin_paths() {
  std::string out = "{\n";
  std::string_view open_path;
  for (const AdminEndpoint& row : admin_endpoints()) {
    if (row.path != open_path) {
      if (!open_path.empty()) out += "},\n";
      out += '"';
      out += row.path;
      out += "\":{\n";
      if (row.path.find("{prefix}") != std::string_view::npos) {
        out += kPrefixParameter;
        out += '\n';
      }
      open_path = row.path;
    } else {
      out += ",\n";
    }
    row.openapi(out);
  }
  if (!open_path.empty()) out += '}';
  out += "\n}";
  return out;
}

// "80, 90 and 100"
std::string alert_thresholds() {
  std::string out;
  const size_t n = std::size(accounts::kAlertThresholdsPct);
  for (size_t i = 0; i < n; ++i)
    out += (i == 0       ? ""
            : i + 1 == n ? " and "
                         : ", ") +
           std::to_string(accounts::kAlertThresholdsPct[i]);
  return out;
}

}  // namespace

void list_keys_operation(std::string& out) {
  out +=
      R"json( "get":{"operationId":"listKeys","summary":"Every key, revoked ones included","tags":["keys"],
  "responses":{"200":{"description":"The keys, in the order they were created.","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Key"}}}}}}]}}}},
   "401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"},"500":{"$ref":"#/components/responses/Error"},"503":{"$ref":"#/components/responses/Error"}}})json";
}

void create_key_operation(std::string& out) {
  out +=
      R"json( "post":{"operationId":"createKey","summary":"Create a key (as `toolcalc keys create`)","tags":["keys"],
  "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/KeySettings"},"examples":{"pro":{"value":{"plan":"pro","label":"billing service","monthly_quota":200000,"webhook_url":"https://hooks.example.com/toolcalc"}}}}}},
  "responses":{"201":{"description":"The key, shown only in this response, and the webhook signing secret when a webhook URL was given.","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/IssuedKey"}}}]}}}},
   "400":{"$ref":"#/components/responses/Error"},"401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"},"415":{"$ref":"#/components/responses/Error"},"500":{"$ref":"#/components/responses/Error"},"503":{"$ref":"#/components/responses/Error"}}})json";
}

void get_key_operation(std::string& out) {
  out += R"json( "get":{"operationId":"getKey","summary":"One key","tags":["keys"],
  "responses":{"200":{"description":"The key.","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Key"}}}]}}}},
   "401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"},"404":{"$ref":"#/components/responses/Error"},"500":{"$ref":"#/components/responses/Error"},"503":{"$ref":"#/components/responses/Error"}}})json";
}

void update_key_operation(std::string& out) {
  out +=
      R"json( "patch":{"operationId":"updateKey","summary":"Change a key's plan, limits, label or webhook (as `toolcalc keys update`)","description":"Only the members sent change. `rate_per_minute` or `monthly_quota` null goes back to the plan's; `webhook_url` null or \"\" removes the webhook. A new webhook URL gets a new signing secret, shown only in this response.","tags":["keys"],
  "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/KeySettings"}}}},
  "responses":{"200":{"description":"The key after the change.","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"type":"object","required":["item"],"properties":{"item":{"$ref":"#/components/schemas/Key"},"webhook_secret":{"type":"string","pattern":"^whsec_[0-9A-Za-z]{${kWebhookSecretRandomChars}}$"}}}}}]}}}},
   "400":{"$ref":"#/components/responses/Error"},"401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"},"404":{"$ref":"#/components/responses/Error"},"409":{"$ref":"#/components/responses/Error"},"415":{"$ref":"#/components/responses/Error"},"500":{"$ref":"#/components/responses/Error"},"503":{"$ref":"#/components/responses/Error"}}})json";
}

void revoke_key_operation(std::string& out) {
  out +=
      R"json( "delete":{"operationId":"revokeKey","summary":"Revoke a key (as `toolcalc keys revoke`)","tags":["keys"],
  "responses":{"200":{"description":"Revoked now, or already revoked before.","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"type":"object","required":["prefix","already_revoked"],"properties":{"prefix":{"type":"string"},"already_revoked":{"type":"boolean"}}}}}]}}}},
   "401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"},"404":{"$ref":"#/components/responses/Error"},"500":{"$ref":"#/components/responses/Error"},"503":{"$ref":"#/components/responses/Error"}}})json";
}

void rotate_key_operation(std::string& out) {
  out +=
      R"json( "post":{"operationId":"rotateKey","summary":"A new secret for the key (as `toolcalc keys rotate`)","description":"Same prefix, plan, limits, label and month-to-date usage. The old secret is accepted until `previous_secret_expires_at` (`grace`, default ${kDefaultRotationGraceHours}h; 0 ends it at once), then refused with 401.","tags":["keys"],
  "requestBody":{"required":false,"content":{"application/json":{"schema":{"type":"object","additionalProperties":false,"properties":{"grace":{"oneOf":[{"type":"string","pattern":"^(0|[0-9]+[smhd])$"},{"type":"integer","minimum":0}],"description":"How long the old secret keeps working: a duration (30s, 90m, 24h, 7d; at most ${kMaxRotationGraceDays} days) or whole seconds."}}}}}},
  "responses":{"200":{"description":"The new key, shown only in this response.","content":{"application/json":{"schema":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"type":"object","required":["key","previous_secret_expires_at","item"],"properties":{"key":{"type":"string","pattern":"^tc_(live|test)_[0-9A-Za-z]{32}$"},"previous_secret_expires_at":{"type":"string","format":"date-time"},"item":{"$ref":"#/components/schemas/Key"}}}}}]}}}},
   "400":{"$ref":"#/components/responses/Error"},"401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"},"404":{"$ref":"#/components/responses/Error"},"409":{"$ref":"#/components/responses/Error"},"415":{"$ref":"#/components/responses/Error"},"500":{"$ref":"#/components/responses/Error"},"503":{"$ref":"#/components/responses/Error"}}})json";
}

void admin_openapi_operation(std::string& out) {
  out +=
      R"json( "get":{"operationId":"getAdminOpenApiDocument","summary":"This document","tags":["meta"],
  "responses":{"200":{"description":"An OpenAPI 3.1 document, without an envelope.","content":{"application/json":{"schema":{"type":"object"}}}},"401":{"$ref":"#/components/responses/Unauthorized"},"429":{"$ref":"#/components/responses/TooManyFailures"}}})json";
}

std::string render_admin(const Options& options) {
  std::string s;
  JsonWriter w(s);
  w.begin_object().field("openapi", "3.1.0");
  w.key("info")
      .begin_object()
      .field("title", "toolcalc admin API")
      .field("version", options.version);
  w.field("description",
          "Key management for operators: what `toolcalc keys` does, over HTTP. Every request "
          "needs the admin token; every request past it writes one audit line (the token's "
          "id, the action, the key prefix; never a secret) on the server's log. Keys and "
          "webhook secrets appear only in the response that creates them.");
  w.end_object();
  w.key("servers").begin_array().begin_object().field("url", server_url(options)).end_object();
  w.end_array();
  w.key("security").begin_array().begin_object().key("adminToken").begin_array().end_array();
  w.end_object().end_array();
  w.key("tags").begin_array();
  w.begin_object().field("name", "keys").field("description", "API keys.").end_object();
  w.begin_object().field("name", "meta").field("description", "This document.").end_object();
  w.end_array();
  w.key("paths").raw(fill_values(
      admin_paths(),
      {{"kDefaultRotationGraceHours", std::to_string(accounts::kDefaultRotationGraceS / 3600)},
       {"kMaxRotationGraceDays", std::to_string(accounts::kMaxRotationGraceS / 86'400)},
       {"kWebhookSecretRandomChars", std::to_string(accounts::kWebhookSecretRandomChars)}}));
  w.key("components")
      .raw(fill_values(
          kAdminComponents,
          {{"kKeyPrefixLength", std::to_string(accounts::kKeyPrefixLength)},
           {"kPrefixRandomChars",
            std::to_string(accounts::kKeyPrefixLength - accounts::kLiveKeyPrefix.size())},
           {"kMaxFailures", std::to_string(AdminGuard::kMaxFailures)},
           {"kWindowSeconds", std::to_string(AdminGuard::kWindowSeconds)},
           {"kMaxLabelLength", std::to_string(accounts::kMaxLabelLength)},
           {"kMaxRatePerMinute", std::to_string(accounts::kMaxRatePerMinute)},
           {"kMaxMonthlyQuota", std::to_string(accounts::kMaxMonthlyQuota)},
           {"kAlertThresholdsPct", alert_thresholds()},
           {"kKeyRandomChars", std::to_string(accounts::kKeyRandomChars)},
           {"kWebhookSecretRandomChars", std::to_string(accounts::kWebhookSecretRandomChars)}}));
  w.end_object();
  s += '\n';
  return s;
}

}  // namespace toolcalc::api::openapi
