// fuzz_get: the query strings and paths of every GET endpoint through the transport-free
// handler (api::Service::handle), built with -fsanitize=integer besides ASan and UBSan
// (fuzz/CMakeLists.txt): an integer taken from a request that wraps, truncates or changes
// sign is reported even where C++ defines the result.
//
// An input is: one byte choosing the endpoint (below, modulo their count), one byte
// choosing the caller (anonymous, a key with no practical limits, the admin token), then
// the rest of the target after the endpoint's fixed start (a query string, the rest of a
// path, or the whole target). The service is the real one: the real catalog, accounts on
// a scratch SQLite store, the admin API on, base path "" (so /v1/… as documented).
//
// Oracles beyond the sanitizers, on every answer:
//   - the process stays up (a crash, a hang or an exception out of handle() is reported);
//   - the status is 2xx or 4xx (a 5xx is a defect; 3xx is never sent without
//     If-None-Match, which this target does not send);
//   - a JSON answer is one strict JSON object: an error status carries the envelope
//     {"error":{"code","message",…},"meta":{"request_id"}} (on /mcp a JSON-RPC error with
//     code, message and data), a 2xx one the envelope {"result",…,"meta"} or a documented
//     document of its own (the OpenAPI documents, /v1/health and /v1/ready's objects);
//   - any other body is one of the documented non-JSON ones: /metrics (Prometheus text),
//     /llms.txt (Markdown) and the playground's files (HTML, CSS, JavaScript, SVG).
#include <boost/json/value.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/accounts.hpp"
#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/plans.hpp"
#include "api/service.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/default_catalog_dir.hpp"
#include "fuzz_support.hpp"
#include "store/account_store.hpp"

namespace {

using namespace toolcalc;

constexpr std::string_view kFuzzKey = "tc_test_fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz";
constexpr std::string_view kAdminToken = "fuzz-admin-token-fuzz-admin-token-0123456789";
constexpr int64_t kNowMs = 1'794'744'000'000;  // 2026-11-15T12:00:00Z

// The fixed start of each GET endpoint's target; the input's rest follows it. "" is the
// whole target from the input (any path, any route).
constexpr std::string_view kEndpoints[] = {
    "/v1/tools?",
    "/v1/tools/",
    "/v1/tools/rc-filter?",
    "/v1/domains?",
    "/v1/me?",
    "/v1/usage?",
    "/v1/health?",
    "/v1/ready?",
    "/v1/openapi.json?",
    "/v1/electronics/rc-filter/schema?",
    "/v1/",
    "/metrics?",
    "/llms.txt?",
    "/",
    "/admin/v1/keys",
    "/admin/v1/openapi.json?",
    "",
};

struct Fixture {
  std::unique_ptr<catalog::Registry> registry;
  ManualClock clock{kNowMs};
  std::vector<accounts::Plan> plans;
  std::unique_ptr<store::AccountStore> admin_store;
  std::unique_ptr<accounts::KeyAdmin> key_admin;
  std::unique_ptr<accounts::Accounts> accounts;
  std::unique_ptr<api::Service> service;
};

Fixture& fixture() {
  // Built once and reachable until exit (not a leak for LeakSanitizer).
  static Fixture* f = [] {
    auto* fx = new Fixture;
    fx->registry = cli::load_registry(cli::default_catalog_dir());
    fx->plans = accounts::builtin_plans();
    for (auto& p : fx->plans)
      if (p.name == accounts::kAnonymousPlan) p.rate_per_minute = 1'000'000'000'000;
    fx->plans.push_back({"fuzz", 1'000'000'000'000, 1'000'000'000'000'000});

    const auto data = fuzz::scratch_dir() / "data";
    auto store = store::open_sqlite_store(data);
    store::NewKey k;
    k.prefix = std::string(accounts::key_prefix(kFuzzKey));
    k.key_hash = accounts::hash_api_key(kFuzzKey);
    k.label = "fuzz";
    k.plan = "fuzz";
    k.created_epoch_s = kNowMs / 1000;
    if (!store->create_key(k)) fuzz::fail("cannot create the fuzz key", kFuzzKey);
    fx->admin_store = store::open_sqlite_store(data);
    fx->key_admin = std::make_unique<accounts::KeyAdmin>(*fx->admin_store, fx->plans, fx->clock);
    fx->accounts = std::make_unique<accounts::Accounts>(
        fx->clock,
        accounts::AccountsOptions{.store = std::move(store),
                                  .plans = fx->plans,
                                  .flush_interval = std::chrono::milliseconds(1000),
                                  .key_refresh_interval = std::chrono::milliseconds(1000)});
    // not started: no background thread

    api::ServiceOptions options{"", TOOLCALC_VERSION, nullptr};
    options.analysis_threads = 0;
    options.admin_token = std::string(kAdminToken);
    options.key_admin = fx->key_admin.get();
    fx->service = std::make_unique<api::Service>(*fx->registry, *fx->accounts, fx->clock, options);
    return fx;
  }();
  return *f;
}

// The documented non-JSON bodies, by content type.
bool documented_non_json(std::string_view content_type) {
  return content_type.starts_with("text/plain") ||     // /metrics
         content_type.starts_with("text/markdown") ||  // /llms.txt
         content_type.starts_with("text/html") || content_type.starts_with("text/css") ||
         content_type.starts_with("text/javascript") ||
         content_type.starts_with("application/javascript") ||
         content_type.starts_with("image/");  // SVG, PNG
}

void check_answer(const api::Response& res, std::string_view target) {
  const std::string context = "GET " + std::string(target);
  if (res.status < 200 || res.status >= 500 || (res.status >= 300 && res.status < 400))
    fuzz::fail("status " + std::to_string(res.status), context + "\n" + res.full_body());
  const std::string body = res.full_body();
  if (body.empty()) {
    if (res.status != 204 && res.status != 200) fuzz::fail("an error without a body", context);
    return;
  }
  if (!res.content_type.starts_with("application/json")) {
    if (res.status >= 400 || !documented_non_json(res.content_type))
      fuzz::fail("undocumented body of type " + std::string(res.content_type), context);
    return;
  }
  const boost::json::value v = fuzz::check_json(body, context);
  if (!v.is_object()) fuzz::fail("a JSON answer that is not an object", context + "\n" + body);
  const auto& o = v.get_object();
  if (o.contains("jsonrpc")) {  // the MCP endpoint's refusal of a GET: a JSON-RPC error
    const auto* error = o.if_contains("error");
    if (res.status < 400 || !error || !error->is_object())
      fuzz::fail("a JSON-RPC answer that is not an error", context + "\n" + body);
    const auto& e = error->get_object();
    const auto* code = e.if_contains("code");
    const auto* message = e.if_contains("message");
    const auto* data = e.if_contains("data");
    if (!code || !code->is_int64() || !message || !message->is_string() || !data ||
        !data->is_object() || !data->get_object().contains("code"))
      fuzz::fail("a JSON-RPC error without code, message and data", context + "\n" + body);
    return;
  }
  if (res.status >= 400) {
    const auto* error = o.if_contains("error");
    const auto* meta = o.if_contains("meta");
    if (!error || !error->is_object() || !meta || !meta->is_object())
      fuzz::fail("an error without the error envelope", context + "\n" + body);
    const auto* code = error->get_object().if_contains("code");
    const auto* message = error->get_object().if_contains("message");
    if (!code || !code->is_string() || !message || !message->is_string() ||
        message->get_string().empty())
      fuzz::fail("an error envelope without code and message", context + "\n" + body);
    const auto* id = meta->get_object().if_contains("request_id");
    if (!id || !id->is_string() || id->get_string() != res.request_id)
      fuzz::fail("an error envelope without its request id", context + "\n" + body);
    return;
  }
  if (o.contains("result")) {
    const auto* meta = o.if_contains("meta");
    if (!meta || !meta->is_object()) fuzz::fail("a result without meta", context + "\n" + body);
    return;
  }
  // Documents of their own: the OpenAPI documents, health and readiness.
  if (!o.contains("openapi") && !o.contains("status"))
    fuzz::fail("a 2xx JSON answer that is neither an envelope nor a documented document",
               context + "\n" + body);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)fixture();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  constexpr size_t kCount = sizeof kEndpoints / sizeof kEndpoints[0];
  const std::string_view start = kEndpoints[data[0] % kCount];
  const uint8_t caller = data[1] % 3;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  std::string target(start);
  target += rest;
  // Only what the transport passes on: an origin-form target of visible characters (Beast
  // refuses controls and spaces in a request line before the API sees it).
  if (target.empty() || target.front() != '/') return 0;
  for (const char ch : target) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7f) return 0;
  }

  Fixture& fx = fixture();
  std::string authorization;
  if (caller == 1) authorization = "Bearer " + std::string(kFuzzKey);
  if (caller == 2) authorization = "Bearer " + std::string(kAdminToken);
  api::Request req;
  req.method = "GET";
  req.target = target;
  if (!authorization.empty()) req.authorization = authorization;
  req.peer_ip = "192.0.2.9";
  const api::Response res = fx.service->handle(req);
  check_answer(res, target);
  return 0;
}
