// The API layer without a socket: statuses, envelopes and
// headers for every kind of response.
#include "api/service.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cstdio>
#include <regex>
#include <set>

#include "api/envelope.hpp"
#include "core/log.hpp"
#include "service_fixture.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

using test_support::kBattery;
using test_support::kSource;

// What the process writes on stderr (the operational log) while it lives.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()), saved_(::dup(STDERR_FILENO)) {
    ::dup2(::fileno(file_), STDERR_FILENO);
  }
  ~StderrCapture() {
    restore();
    std::fclose(file_);
  }
  std::string text() {
    restore();
    std::string out;
    std::rewind(file_);
    for (int c; (c = std::fgetc(file_)) != EOF;) out += static_cast<char>(c);
    return out;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_;
};

class ServiceTest : public test_support::ServiceFixture {
 protected:
  api::Response call(std::string_view method, std::string_view target, std::string_view body = {},
                     std::optional<std::string_view> auth = "Bearer tc_live_good",
                     std::string_view content_type = "application/json") {
    return service.handle(request(method, target, body, auth, content_type));
  }
  static json::object parse(const api::Response& r) {
    return json::parse(r.full_body()).as_object();
  }

  static void expect_error(const api::Response& r, int status, std::string_view code,
                           std::string_view field = {}) {
    EXPECT_EQ(r.status, status) << r.full_body();
    auto o = parse(r);
    EXPECT_EQ(o.size(), 3u) << r.full_body();
    EXPECT_EQ(o.at("ok"), false);
    const auto& e = o.at("error").as_object();
    EXPECT_EQ(e.at("code").as_string(), code) << r.full_body();
    EXPECT_FALSE(e.at("message").as_string().empty());
    if (field.empty())
      EXPECT_FALSE(e.contains("field")) << r.full_body();
    else
      EXPECT_EQ(e.at("field").as_string(), field) << r.full_body();
    EXPECT_EQ(o.at("meta").as_object().size(), 1u);
    EXPECT_EQ(o.at("meta").at("request_id").as_string(), *r.header("X-Request-ID"));
  }
};

}  // namespace

TEST_F(ServiceTest, ExecuteReturnsTheSuccessEnvelope) {
  auto r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery);
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_NE(
      r.full_body().find(R"("result":{"avg_current_ua":343.3,"avg_current_ma":0.343,)"
                         R"("lifetime_hours":4660.8,"lifetime_days":194.2,"lifetime_years":0.53,)"
                         R"("daily_wakes":1440})"),
      std::string::npos)
      << r.full_body();
  auto o = parse(r);
  std::set<std::string> keys;
  for (const auto& kv : o) keys.insert(std::string(kv.key()));
  EXPECT_EQ(keys, (std::set<std::string>{"ok", "tool", "domain", "version", "result", "meta"}));
  EXPECT_EQ(o.at("tool").as_string(), "mcu-deep-sleep-battery");
  EXPECT_EQ(o.at("domain").as_string(), "iot-mcu");
  EXPECT_EQ(o.at("version").as_string(), "1.0.0");
  const auto& meta = o.at("meta").as_object();
  EXPECT_EQ(meta.size(), 3u);
  EXPECT_TRUE(meta.at("latency_ms").is_int64());
  EXPECT_EQ(meta.at("quota_remaining").as_int64(), 1);  // plan quota 2, one used
  EXPECT_EQ(meta.at("request_id").as_string(), *r.header("X-Request-ID"));
  EXPECT_TRUE(std::regex_match(*r.header("X-Request-ID"), std::regex("req_[A-Za-z0-9]{20,}")));
  EXPECT_EQ(*r.header("X-Tool-Version"), "1.0.0");
  EXPECT_EQ(*r.header("X-RateLimit-Limit"), "100");
  EXPECT_EQ(*r.header("X-RateLimit-Remaining"), "99");
  EXPECT_EQ(*r.header("X-RateLimit-Reset"), "1800000060");
  EXPECT_EQ(*r.header("Access-Control-Allow-Origin"), "*");
  EXPECT_NE(r.header("Access-Control-Expose-Headers")->find("Retry-After"), std::string::npos);
}

TEST_F(ServiceTest, RequestIdsAreUnique) {
  std::set<std::string> ids;
  for (int i = 0; i < 200; ++i) ids.insert(*call("GET", "/v1/health").header("X-Request-ID"));
  EXPECT_EQ(ids.size(), 200u);
}

TEST_F(ServiceTest, UnknownPathsAndToolsAre404) {
  expect_error(call("GET", "/v2/tools"), 404, "NOT_FOUND");
  auto r = call("POST", "/v1/iot-mcu/no-such-tool", "{}");
  expect_error(r, 404, "NOT_FOUND");
  EXPECT_NE(parse(r).at("error").at("message").as_string().find("no-such-tool"), std::string::npos);
  auto moved = call("POST", "/v1/electronics/mcu-deep-sleep-battery", "{}");
  expect_error(moved, 404, "NOT_FOUND");
  EXPECT_NE(
      parse(moved).at("error").at("message").as_string().find("/v1/iot-mcu/mcu-deep-sleep-battery"),
      std::string::npos);
  expect_error(call("GET", "/v1/tools/nope"), 404, "NOT_FOUND");
  expect_error(call("GET", "/v1/a/b/schema"), 404, "NOT_FOUND");
}

TEST_F(ServiceTest, WrongMethodIs405WithAllow) {
  auto r = call("GET", "/v1/iot-mcu/mcu-deep-sleep-battery");
  expect_error(r, 405, "METHOD_NOT_ALLOWED");
  EXPECT_EQ(*r.header("Allow"), "POST, OPTIONS");
  EXPECT_EQ(*r.header("X-Tool-Version"), "1.0.0");  // about one tool
  expect_error(call("GET", "/v1/iot-mcu/no-such-tool"), 404, "NOT_FOUND");
  auto t = call("POST", "/v1/tools", "{}");
  expect_error(t, 405, "METHOD_NOT_ALLOWED");
  EXPECT_EQ(*t.header("Allow"), "GET, OPTIONS");
  expect_error(call("DELETE", "/v1/health"), 405, "METHOD_NOT_ALLOWED");
}

TEST_F(ServiceTest, NonJsonContentTypeIs415) {
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, "Bearer tc_live_good",
                    "text/plain"),
               415, "UNSUPPORTED_MEDIA_TYPE");
  expect_error(
      call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, "Bearer tc_live_good", ""), 415,
      "UNSUPPORTED_MEDIA_TYPE");
  EXPECT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, "Bearer tc_live_good",
                 "Application/JSON; charset=utf-8")
                .status,
            200);
}

TEST_F(ServiceTest, BadBodiesAre400) {
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", "{nope"), 400, "INVALID_JSON");
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", "[]"), 400, "INVALID_JSON");
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", R"({"battery_capacity_mah":1})"),
               400, "VALIDATION_ERROR", "battery_capacity_mah");
  EXPECT_EQ(access.quota_used, 0);  // invalid input never consumes quota
}

TEST_F(ServiceTest, UnprocessableIs422AndReleasesQuota) {
  auto r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery",
                R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
                R"("wake_duration_ms":61000,"cycle_period_s":60,"battery_efficiency_pct":80})");
  expect_error(r, 422, "UNPROCESSABLE", "wake_duration_ms");
  EXPECT_EQ(*r.header("X-Tool-Version"), "1.0.0");
  EXPECT_EQ(access.quota_used, 0);
}

TEST_F(ServiceTest, AuthenticationRules) {
  auto missing = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, std::nullopt);
  expect_error(missing, 401, "UNAUTHORIZED");
  EXPECT_EQ(parse(missing).at("error").at("message").as_string(), "missing API key");
  EXPECT_EQ(*missing.header("WWW-Authenticate"), "Bearer");
  auto invalid = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, "Bearer tc_live_bad");
  expect_error(invalid, 401, "UNAUTHORIZED");
  EXPECT_EQ(parse(invalid).at("error").at("message").as_string(), "invalid API key");
  EXPECT_EQ(*invalid.header("WWW-Authenticate"), "Bearer");
  expect_error(call("GET", "/v1/me", {}, std::nullopt), 401, "UNAUTHORIZED");
  // Discovery works without a key, on the anonymous plan.
  auto anon = call("GET", "/v1/domains", {}, std::nullopt);
  EXPECT_EQ(anon.status, 200);
  EXPECT_EQ(*anon.header("X-RateLimit-Limit"), "5");
}

TEST_F(ServiceTest, RateLimitGives429WithRetryAfterAndCountsErrors) {
  access.keys["tc_live_good"].rate_per_minute = 3;
  expect_error(call("GET", "/v1/nope"), 404, "NOT_FOUND");  // counted: 1
  EXPECT_EQ(call("GET", "/v1/tools").status, 200);          // 2
  auto third = call("GET", "/v1/domains");                  // 3
  EXPECT_EQ(*third.header("X-RateLimit-Remaining"), "0");
  auto limited = call("GET", "/v1/domains");
  expect_error(limited, 429, "RATE_LIMITED");
  EXPECT_EQ(*limited.header("Retry-After"), "50");
  EXPECT_EQ(*limited.header("X-RateLimit-Remaining"), "0");
  // Health and OPTIONS are never limited or counted.
  EXPECT_EQ(call("GET", "/v1/health").status, 200);
  EXPECT_EQ(call("OPTIONS", "/v1/tools").status, 204);
}

TEST_F(ServiceTest, QuotaExhaustionIs429WithResetTime) {
  EXPECT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  EXPECT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  auto r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery);
  expect_error(r, 429, "QUOTA_EXCEEDED");
  EXPECT_EQ(*r.header("Retry-After"), "1000");
  EXPECT_NE(parse(r).at("error").at("message").as_string().find("2027-01-01T00:00:00Z"),
            std::string::npos);
}

TEST_F(ServiceTest, StoreUnavailableIs503OnCountedRequestsOnly) {
  access.store_down = true;
  for (auto [method, target] : {std::pair{"POST", "/v1/iot-mcu/mcu-deep-sleep-battery"},
                                {"GET", "/v1/tools"},
                                {"GET", "/v1/nope"}}) {
    auto r = call(method, target, kBattery);
    expect_error(r, 503, "STORE_UNAVAILABLE");
    EXPECT_NE(parse(r).at("error").at("message").as_string().find("neither counted nor run"),
              std::string::npos);
    EXPECT_EQ(*r.header("Retry-After"), "1");
    EXPECT_EQ(*r.header("X-RateLimit-Limit"), "100");  // the caller's plan
    EXPECT_EQ(*r.header("X-RateLimit-Remaining"), "0");
    EXPECT_EQ(*r.header("X-RateLimit-Reset"), "1800000060");
  }
  auto health = call("GET", "/v1/health");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(parse(health).at("result").at("status").as_string(), "ok");
  EXPECT_EQ(call("OPTIONS", "/v1/tools").status, 204);
  access.store_down = false;  // back: served again, nothing was counted meanwhile
  EXPECT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  EXPECT_EQ(access.quota_used, 1);
  EXPECT_EQ(access.window_used["key:tc_live_good"], 1);
}

TEST_F(ServiceTest, QuotaReservedWithTheRateUnitIsReportedAfterValidationAndReleased) {
  access.reserve_early = true;
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", "{nope"), 400, "INVALID_JSON");
  expect_error(call("POST", "/v1/iot-mcu/nope", kBattery), 404, "NOT_FOUND");
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, "Bearer tc_live_good",
                    "text/plain"),
               415, "UNSUPPORTED_MEDIA_TYPE");
  EXPECT_EQ(access.quota_used, 0);  // each early unit was given back
  EXPECT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  EXPECT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  EXPECT_EQ(access.quota_used, 2);
  // Quota used up: bad input is still 400 (validation comes first), good input 429.
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", R"({"battery_capacity_mah":1})"),
               400, "VALIDATION_ERROR", "battery_capacity_mah");
  expect_error(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery), 429, "QUOTA_EXCEEDED");
  EXPECT_EQ(access.quota_used, 2);
}

TEST_F(ServiceTest, PreflightIsAnsweredBeforeAuth) {
  auto r = call("OPTIONS", "/v1/iot-mcu/mcu-deep-sleep-battery", {}, std::nullopt);
  EXPECT_EQ(r.status, 204);
  EXPECT_TRUE(r.full_body().empty());
  EXPECT_EQ(*r.header("Access-Control-Allow-Methods"), "POST, OPTIONS");
  EXPECT_EQ(*r.header("Access-Control-Allow-Headers"), "Authorization, Content-Type");
  EXPECT_EQ(*r.header("Access-Control-Allow-Origin"), "*");
  EXPECT_FALSE(r.header("Access-Control-Allow-Credentials").has_value());
}

TEST_F(ServiceTest, SchemaIsTheDescriptionRecord) {
  auto r = call("GET", "/v1/programming-dev/llm-api-cost-calculator/schema", {}, std::nullopt);
  ASSERT_EQ(r.status, 200);
  auto o = parse(r);
  EXPECT_EQ(o.at("meta").as_object().size(), 1u);
  const auto& rec = o.at("result").as_object();
  EXPECT_EQ(rec.at("tool").as_string(), "llm-api-cost-calculator");
  EXPECT_TRUE(rec.at("standard").is_null());
  EXPECT_EQ(rec.at("endpoint").as_string(), "/v1/programming-dev/llm-api-cost-calculator");
  EXPECT_EQ(*r.header("X-Tool-Version"), "1.0.0");
  const auto& model = rec.at("inputs").as_array().at(0).as_object();
  EXPECT_EQ(model.at("key").as_string(), "model");
  EXPECT_FALSE(model.contains("required"));
  EXPECT_FALSE(model.contains("unit"));
  EXPECT_EQ(model.at("default").as_string(), "provider-a/model-b-4.6");
  EXPECT_EQ(model.at("options").as_array().size(), 12u);
}

// Schema, tool details and the first listing pages are rendered once and sent without a
// copy (Response::body_prefix): the bytes are exactly the envelope rendered per request,
// with this request's id, and the prefix is the same memory for every request.
TEST_F(ServiceTest, SharedAnswersAreTheEnvelopeRenderedPerRequest) {
  const auto& tool = registry.tools().front();
  const std::string schema_path = tool.tool.descriptor.endpoint() + "/schema";
  const std::string details_path = "/v1/tools/" + tool.tool.descriptor.slug;
  struct Case {
    std::string path;
    std::string result;
  };
  for (const Case& c :
       {Case{schema_path, tool.record_json}, Case{details_path, tool.details_json}}) {
    const auto first = call("GET", c.path);
    const auto second = call("GET", c.path);
    ASSERT_EQ(first.status, 200) << c.path << " " << first.full_body();
    ASSERT_FALSE(first.body_prefix.empty()) << c.path;
    EXPECT_EQ(first.body_prefix.data(), second.body_prefix.data()) << c.path;
    EXPECT_NE(first.request_id, second.request_id);
    EXPECT_EQ(first.full_body(), api::result_body(c.result, first.request_id)) << c.path;
    EXPECT_EQ(second.full_body(), api::result_body(c.result, second.request_id)) << c.path;
  }
  const auto listing = call("GET", "/v1/tools");
  ASSERT_FALSE(listing.body_prefix.empty());
  const auto id = parse(listing).at("meta").at("request_id").as_string();
  EXPECT_EQ(id, listing.request_id);
  EXPECT_TRUE(listing.full_body().ends_with(listing.request_id + R"("}})"));
}

TEST_F(ServiceTest, ToolsListingPaginates) {
  const int64_t total = static_cast<int64_t>(registry.tools().size());
  const int64_t pages = (total + 2) / 3;
  auto o = parse(call("GET", "/v1/tools?limit=3&page=" + std::to_string(pages), {}, std::nullopt));
  const auto& res = o.at("result").as_object();
  EXPECT_EQ(res.at("page").as_int64(), pages);
  EXPECT_EQ(res.at("limit").as_int64(), 3);
  EXPECT_EQ(res.at("total").as_int64(), total);
  EXPECT_EQ(res.at("pages").as_int64(), pages);
  ASSERT_EQ(static_cast<int64_t>(res.at("items").as_array().size()), total - 3 * (pages - 1));
  EXPECT_EQ(res.at("items").as_array()[0].as_object().size(), 7u);
  auto past =
      parse(call("GET", "/v1/tools?limit=3&page=" + std::to_string(pages + 1), {}, std::nullopt));
  EXPECT_TRUE(past.at("result").at("items").as_array().empty());
  auto dom = parse(call("GET", "/v1/tools?domain=pcb-design", {}, std::nullopt));
  EXPECT_EQ(dom.at("result").at("total").as_int64(), registry.live_count("pcb-design"));
  for (const auto& item : dom.at("result").at("items").as_array())
    EXPECT_EQ(item.at("domain").as_string(), "pcb-design");
  EXPECT_EQ(dom.at("result").at("limit").as_int64(), 20);
  expect_error(call("GET", "/v1/tools?page=0"), 400, "VALIDATION_ERROR", "page");
  expect_error(call("GET", "/v1/tools?limit=101"), 400, "VALIDATION_ERROR", "limit");
  expect_error(call("GET", "/v1/tools?limit=abc"), 400, "VALIDATION_ERROR", "limit");
  expect_error(call("GET", "/v1/tools?domain=nope"), 400, "VALIDATION_ERROR", "domain");
  expect_error(call("GET", "/v1/tools?sort=name"), 400, "VALIDATION_ERROR", "sort");
}

// Unbounded, (page − 1) · limit overflows int64 for a page of 18 digits and the listing
// reads before the tool list (SIGSEGV). page is bounded; up to the bound, past the end is
// empty.
TEST_F(ServiceTest, ToolsPageIsBoundedBeforeAnyArithmetic) {
  expect_error(call("GET", "/v1/tools?page=184467440737095517&limit=100"), 400, "VALIDATION_ERROR",
               "page");
  expect_error(call("GET", "/v1/tools?page=1000001&limit=100"), 400, "VALIDATION_ERROR", "page");
  expect_error(call("GET", "/v1/tools?page=-1"), 400, "VALIDATION_ERROR", "page");
  expect_error(call("GET", "/v1/tools?limit=-9223372036854775808"), 400, "VALIDATION_ERROR",
               "limit");
  auto last = parse(call("GET", "/v1/tools?page=1000000&limit=100", {}, std::nullopt));
  EXPECT_TRUE(last.at("result").at("items").as_array().empty());
  EXPECT_EQ(last.at("result").at("page").as_int64(), 1000000);
  EXPECT_EQ(last.at("result").at("total").as_int64(),
            static_cast<int64_t>(registry.tools().size()));
}

TEST_F(ServiceTest, DomainsReportLiveAndTarget) {
  auto o = parse(call("GET", "/v1/domains", {}, std::nullopt));
  const auto& items = o.at("result").at("items").as_array();
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].at("domain").as_string(), "iot-mcu");
  EXPECT_EQ(items[0].at("live").as_int64(), registry.live_count("iot-mcu"));
  EXPECT_GE(items[0].at("live").as_int64(), 1);
  EXPECT_EQ(items[0].at("target").as_int64(), 12);
  EXPECT_EQ(items[1].at("target").as_int64(), 24);
}

TEST_F(ServiceTest, ToolBySlugHasReferencesAndExamples) {
  auto r = call("GET", "/v1/tools/pcb-trace-width", {}, std::nullopt);
  ASSERT_EQ(r.status, 200);
  auto o = parse(r);
  const auto& rec = o.at("result").as_object();
  EXPECT_EQ(rec.at("standard").as_string(), "IPC-2221");
  EXPECT_FALSE(rec.at("references").as_array().empty());
  EXPECT_FALSE(rec.at("examples").as_array().empty());
}

TEST_F(ServiceTest, HealthAndMe) {
  clock.advance_ms(5'000);
  auto h = parse(call("GET", "/v1/health", {}, std::nullopt));
  EXPECT_EQ(h.at("result").at("status").as_string(), "ok");
  EXPECT_EQ(h.at("result").at("version").as_string(), "9.9.9");
  EXPECT_EQ(h.at("result").at("uptime_s").as_int64(), 5);
  auto me = call("GET", "/v1/me");
  ASSERT_EQ(me.status, 200);
  EXPECT_EQ(*me.header("X-Tool-Version"), "9.9.9");
  auto m = parse(me).at("result").as_object();
  EXPECT_EQ(m.at("plan").as_string(), "pro");
  EXPECT_EQ(m.at("key_prefix").as_string(), "tc_live_good");
  EXPECT_EQ(m.at("rate_limit_per_minute").as_int64(), 100);
  EXPECT_EQ(m.at("quota").at("limit").as_int64(), 2);
  EXPECT_EQ(m.at("quota").at("period").as_string(), "2026-12");
}

TEST_F(ServiceTest, ToolFailureIs500WithRequestId) {
  catalog::Tool broken;
  // The first tool's descriptor (and slug, so that it has its analysis cost class) with a
  // compute that fails.
  broken.descriptor = registry.tools().front().tool.descriptor;
  broken.compute = [](const catalog::Inputs&) -> catalog::ComputeResult {
    return catalog::Outputs{};  // sets no outputs: a defect the renderer refuses
  };
  catalog::Registry reg({broken}, catalog::load_domains(kSource / "catalog" / "domains.toml"));
  api::Service svc{reg, access, clock, api::ServiceOptions{}};
  api::Request req;
  req.method = "POST";
  const std::string endpoint = broken.descriptor.endpoint();
  req.target = endpoint;
  req.body = kBattery;
  req.authorization = "Bearer tc_live_good";
  req.content_type = "application/json";
  StderrCapture captured;
  auto r = svc.handle(req);
  const std::string log = captured.text();
  expect_error(r, 500, "INTERNAL");
  EXPECT_TRUE(r.header("X-RateLimit-Limit").has_value());
  // One operational log line: JSON with time, level, msg, and the request id the client
  // got, so that support can find it.
  ASSERT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
  const auto line = boost::json::parse(log).as_object();
  EXPECT_EQ(line.at("level").as_string(), "error");
  EXPECT_EQ(line.at("msg").as_string(), "internal error");
  EXPECT_EQ(line.at("request_id").as_string(), *r.header("X-Request-ID"));
  EXPECT_TRUE(line.at("time").as_string().ends_with("Z"));
  EXPECT_FALSE(line.at("error").as_string().empty());
  EXPECT_EQ(access.quota_used, 0);  // released
}

TEST_F(ServiceTest, QueryIsReadWithinTheTargetOnly) {
  // The target is a view into a larger buffer: nothing past its end may be read
  // (Boost.URL 1.81's parse_query uses strlen).
  const std::string buffer = "/v1/tools?domain=iot-mcuhermal-junction";
  const std::string_view target(buffer.data(), buffer.size() - 15);
  auto r = call("GET", target, {}, std::nullopt);
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_EQ(parse(r).at("result").at("total").as_int64(), registry.live_count("iot-mcu"));
}

// The first page of each listing is rendered once at start (Service::first_tools_pages_):
// it must list what the page rendered per request lists.
TEST_F(ServiceTest, PreRenderedFirstPagesMatchRenderedOnes) {
  std::vector<std::string> domains{""};
  for (const auto& d : registry.domains()) domains.push_back(d.name);
  for (const auto& domain : domains) {
    const std::string filter = domain.empty() ? "" : "domain=" + domain + "&";
    const auto cached = call("GET", "/v1/tools?" + filter.substr(0, filter.size() - 1));
    const auto rendered = call("GET", "/v1/tools?" + filter + "limit=100");  // not cached
    ASSERT_EQ(cached.status, 200) << cached.full_body();
    ASSERT_EQ(rendered.status, 200) << rendered.full_body();
    const json::object cached_body = parse(cached), rendered_body = parse(rendered);
    const auto& a = cached_body.at("result").as_object();
    const auto& b = rendered_body.at("result").as_object();
    EXPECT_EQ(a.at("total"), b.at("total")) << domain;
    EXPECT_EQ(a.at("limit"), 20);
    const auto& items = a.at("items").as_array();
    const auto& all = b.at("items").as_array();
    ASSERT_EQ(items.size(), std::min<size_t>(20, all.size())) << domain;
    for (size_t i = 0; i < items.size(); ++i) EXPECT_EQ(items[i], all[i]) << domain << " " << i;
  }
}

TEST_F(ServiceTest, ReadinessFollowsTheStoreAndDraining) {
  auto ready = call("GET", "/v1/ready", {}, std::nullopt);
  ASSERT_EQ(ready.status, 200) << ready.full_body();
  EXPECT_EQ(parse(ready).at("result").at("status").as_string(), "ready");
  access.store_down = true;
  auto down = call("GET", "/v1/ready", {}, std::nullopt);
  expect_error(down, 503, "NOT_READY");
  EXPECT_EQ(call("GET", "/v1/health", {}, std::nullopt).status, 200);  // liveness
  access.store_down = false;
  EXPECT_EQ(call("GET", "/v1/ready", {}, std::nullopt).status, 200);
  EXPECT_FALSE(service.draining());
  service.set_draining();
  auto draining = call("GET", "/v1/ready", {}, std::nullopt);
  expect_error(draining, 503, "NOT_READY");
  EXPECT_NE(parse(draining).at("error").at("message").as_string().find("draining"),
            std::string::npos);
  EXPECT_EQ(call("GET", "/v1/health", {}, std::nullopt).status, 200);
}

TEST_F(ServiceTest, MetricsCountRequestsByRouteToolAndStatus) {
  auto text = [&] {
    auto r = call("GET", "/metrics", {}, std::nullopt);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "text/plain; version=0.0.4; charset=utf-8");
    return r.full_body();
  };
  const std::string first = text();
  EXPECT_NE(first.find("toolcalc_build_info{version=\"9.9.9\",store=\"sqlite\"} 1\n"),
            std::string::npos);
  EXPECT_EQ(first.find("route=\"execute\""), std::string::npos);  // no execute yet
  ASSERT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  ASSERT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", "{").status, 400);
  const std::string second = text();
  EXPECT_NE(second.find("toolcalc_requests_total{route=\"execute\",tool=\"mcu-deep-sleep-"
                        "battery\",status=\"2xx\"} 1\n"),
            std::string::npos)
      << second;
  EXPECT_NE(second.find("toolcalc_requests_total{route=\"execute\",tool=\"mcu-deep-sleep-"
                        "battery\",status=\"4xx\"} 1\n"),
            std::string::npos);
  EXPECT_NE(second.find("toolcalc_requests_total{route=\"metrics\",tool=\"\",status=\"2xx\"} 1\n"),
            std::string::npos);
  EXPECT_NE(second.find("toolcalc_request_duration_seconds_count{kind=\"execute\"} 2\n"),
            std::string::npos);
}

TEST_F(ServiceTest, DevelopmentModeAnswersOnlyItsOwnHostAndOrigin) {
  service.serve_same_origin_only({"127.0.0.1:8080", "localhost:8080", "[::1]:8080"});
  const auto from = [&](std::string_view host, std::string_view origin,
                        std::string_view target = "/v1/health") {
    api::Request r = request("GET", target);
    r.host = host;
    r.origin = origin;
    return service.handle(r);
  };
  for (const char* host : {"127.0.0.1:8080", "LOCALHOST:8080", "[::1]:8080"}) {
    const api::Response r = from(host, "");
    EXPECT_EQ(r.status, 200) << host;
    // No CORS: a page of another origin cannot read an answer.
    EXPECT_FALSE(r.header("Access-Control-Allow-Origin")) << host;
  }
  // The page's own requests carry its origin.
  EXPECT_EQ(from("127.0.0.1:8080", "http://127.0.0.1:8080").status, 200);
  // DNS rebinding: the attacker's name for this address; a missing Host; another port.
  for (const char* host : {"evil.example:8080", "", "127.0.0.1:8081", "127.0.0.1"}) {
    const api::Response r = from(host, "");
    expect_error(r, 403, "FORBIDDEN");
    EXPECT_FALSE(r.header("Access-Control-Allow-Origin")) << host;
  }
  // Another origin's page, even on this host.
  for (const char* origin :
       {"http://evil.example", "http://localhost:8080", "null", "https://127.0.0.1:8080"}) {
    expect_error(from("127.0.0.1:8080", origin), 403, "FORBIDDEN");
  }
  // The playground page too (it embeds the dev key).
  expect_error(from("evil.example:8080", "", "/"), 403, "FORBIDDEN");
}

TEST_F(ServiceTest, OutsideDevelopmentModeAnyHostIsServedWithCors) {
  api::Request r = request("GET", "/v1/health");
  r.host = "api.example.com";
  r.origin = "https://app.example.com";
  const api::Response res = service.handle(r);
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(*res.header("Access-Control-Allow-Origin"), "*");
}

TEST_F(ServiceTest, ErrorMessagesNeverEchoAKeyWhole) {
  // A key pasted where a slug, a domain or a JSON member goes is quoted up to its prefix.
  const std::string secret = "abcdefghijklmnopqrstuvwxyz012345";
  for (const std::string& target :
       {"/v1/iot-mcu/tc_live_" + secret, "/v1/tools/tc_test_" + secret,
        "/v1/tools?domain=tc_live_" + secret, "/v1/tools?domain=tc%5Flive%5F" + secret}) {
    const api::Response r =
        call(target.find("tools") != std::string::npos ? "GET" : "POST", target, "{}");
    EXPECT_GE(r.status, 400) << target;
    EXPECT_EQ(r.full_body().find(secret.substr(4)), std::string::npos) << r.full_body();
  }
  const api::Response member =
      call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", R"({"tc_live_)" + secret + R"(":1})");
  EXPECT_EQ(member.status, 400);
  EXPECT_EQ(member.full_body().find(secret.substr(4)), std::string::npos) << member.full_body();
  EXPECT_NE(member.full_body().find("tc_live_abcd[redacted]"), std::string::npos)
      << member.full_body();
}

TEST_F(ServiceTest, TheOperationalLogNeverWritesAKeyWhole) {
  StderrCapture capture;
  log::warn("failed tc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
            {{"path", "/v1/tools/tc%5Ftest%5FAbCdEfGhIjKlMnOpQrStUvWxYz012345"}});
  const std::string text = capture.text();
  EXPECT_EQ(text.find("EfGhIj"), std::string::npos) << text;
  EXPECT_NE(text.find("failed tc_live_AbCd[redacted]"), std::string::npos) << text;
  EXPECT_NE(text.find("/v1/tools/tc%5Ftest%5FAbCd[redacted]"), std::string::npos) << text;
}
