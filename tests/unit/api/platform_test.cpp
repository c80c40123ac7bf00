// The accounts platform in the API layer, without a socket: the RateLimit-Policy and
// RateLimit fields, /v1/me's limits, GET /v1/usage and what the Service records for it,
// and the admin API over a real embedded store.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/plans.hpp"
#include "service_fixture.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

using test_support::kBattery;

class PlatformTest : public test_support::ServiceFixture {
 protected:
  api::Response call(std::string_view method, std::string_view target, std::string_view body = {},
                     std::optional<std::string_view> auth = "Bearer tc_live_good") {
    return service.handle(request(method, target, body, auth));
  }
  static json::object result(const api::Response& r) {
    return json::parse(r.full_body()).at("result").as_object();
  }
};

// The fixture's clock: 2027-01-15T08:00:10Z, 10 s into a minute; January has 31 days and
// ends 1,439,990 s later.
constexpr std::string_view kMonthPolicy = R"("month";q=2;w=2678400)";

}  // namespace

TEST_F(PlatformTest, ExecuteCarriesBothPoliciesWithTheEnvelopeValues) {
  auto r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery);
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_EQ(*r.header("RateLimit-Policy"),
            std::string(R"("minute";q=100;w=60, )") + std::string(kMonthPolicy));
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=99;t=50, "month";r=1;t=1439990)");
  EXPECT_NE(r.full_body().find(R"("quota_remaining":1)"), std::string::npos);
  EXPECT_NE(r.header("Access-Control-Expose-Headers")->find("RateLimit-Policy, RateLimit"),
            std::string::npos);

  // 422: the unit goes back, and the month says so.
  r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery",
           R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
           R"("wake_duration_ms":61000,"cycle_period_s":60,"battery_efficiency_pct":80})");
  ASSERT_EQ(r.status, 422);
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=98;t=50, "month";r=1;t=1439990)");
  // The early reservation of a shared store, given back when validation fails.
  access.reserve_early = true;
  r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", "{}");
  ASSERT_EQ(r.status, 400);
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=97;t=50, "month";r=1;t=1439990)");
  EXPECT_EQ(access.quota_used, 1);
  // The last unit, then the quota is used up.
  ASSERT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  r = call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery);
  ASSERT_EQ(r.status, 429);
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=95;t=50, "month";r=0;t=1439990)");
}

TEST_F(PlatformTest, DiscoveryAndMeShowTheMonthAsItStands) {
  ASSERT_EQ(call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery).status, 200);
  auto r = call("GET", "/v1/tools");
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=98;t=50, "month";r=1;t=1439990)");
  r = call("GET", "/v1/me");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=97;t=50, "month";r=1;t=1439990)");
  const auto me = result(r);
  EXPECT_EQ(json::serialize(me.at("limits")), R"({"rate_per_minute":{"value":100,"source":"plan"},)"
                                              R"("monthly_quota":{"value":2,"source":"plan"}})");
}

TEST_F(PlatformTest, AnonymousAndRateLimitedResponses) {
  auto r = call("GET", "/v1/tools", {}, std::nullopt);
  EXPECT_EQ(*r.header("RateLimit-Policy"), R"("minute";q=5;w=60)");
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=4;t=50)");
  r = call("GET", "/v1/health", {}, std::nullopt);
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=4;t=50)");
  for (int i = 0; i < 4; ++i) call("GET", "/v1/tools", {}, std::nullopt);
  r = call("GET", "/v1/tools", {}, std::nullopt);
  ASSERT_EQ(r.status, 429);
  EXPECT_EQ(*r.header("RateLimit"), R"("minute";r=0;t=50)");
  EXPECT_EQ(*r.header("Retry-After"), "50");
}

TEST_F(PlatformTest, ToolCallsAreRecordedForTheUsageHistory) {
  call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery);                // 200, 1 unit
  call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", "{}");                    // 400
  call("GET", "/v1/iot-mcu/mcu-deep-sleep-battery");                           // 405
  call("POST", "/v1/iot-mcu/nope", "{}");                                      // no tool
  call("GET", "/v1/tools");                                                    // not a tool call
  call("POST", "/v1/iot-mcu/mcu-deep-sleep-battery", kBattery, std::nullopt);  // anonymous
  call("POST", "/mcp",
       R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"electronics_rc-filter",)"
       R"("arguments":{}}})");  // MCP, 400
  ASSERT_EQ(access.recorded.size(), 4u);
  EXPECT_EQ(access.recorded[0].slug, "mcu-deep-sleep-battery");
  EXPECT_EQ(access.recorded[0].domain, "iot-mcu");
  EXPECT_EQ(access.recorded[0].status, 200);
  EXPECT_EQ(access.recorded[0].units, 1);
  EXPECT_EQ(access.recorded[1].status, 400);
  EXPECT_EQ(access.recorded[1].units, 0);
  EXPECT_EQ(access.recorded[2].status, 405);
  EXPECT_EQ(access.recorded[3].slug, "rc-filter");
  EXPECT_EQ(access.recorded[3].status, 400);
}

TEST_F(PlatformTest, UsageGroupsTheMonthByDayAndTool) {
  // 2027-01-14 is day 20,832; 2027-01-01 is 20,819.
  access.history = {{20'832, "iot-mcu/mcu-deep-sleep-battery", store::kHistoryExecutions, 3},
                    {20'832, "iot-mcu/mcu-deep-sleep-battery", store::kHistoryUnits, 7},
                    {20'832, "iot-mcu/mcu-deep-sleep-battery", 422, 1},
                    {20'833, "electronics/rc-filter", 429, 2}};
  auto r = call("GET", "/v1/usage");
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_EQ(access.history_first_day, 20'819);
  EXPECT_EQ(access.history_end_day, 20'850);
  EXPECT_EQ(json::serialize(result(r)),
            R"({"period":"2027-01","key_prefix":"tc_live_good","days":[)"
            R"({"date":"2027-01-14","tools":[{"domain":"iot-mcu","tool":"mcu-deep-sleep-battery",)"
            R"("executions":3,"units":7,"refusals":{"422":1}}]},)"
            R"({"date":"2027-01-15","tools":[{"domain":"electronics","tool":"rc-filter",)"
            R"("executions":0,"units":0,"refusals":{"429":2}}]}],)"
            R"("totals":{"executions":3,"units":7,"refusals":{"422":1,"429":2}}})");
  // December 2025 is the oldest month kept; 2027-02 is to come.
  ASSERT_EQ(call("GET", "/v1/usage?month=2026-01").status, 200);
  EXPECT_EQ(access.history_first_day, 20'454);
  EXPECT_EQ(call("GET", "/v1/usage?month=2025-12").status, 400);
  EXPECT_EQ(call("GET", "/v1/usage?month=2027-02").status, 400);
  EXPECT_EQ(call("GET", "/v1/usage?month=2027-1").status, 400);
  EXPECT_EQ(call("GET", "/v1/usage?day=1").status, 400);
  EXPECT_EQ(call("GET", "/v1/usage", {}, std::nullopt).status, 401);
}

namespace {

constexpr std::string_view kToken = "0123456789abcdef0123456789abcdef-admin";

class AdminTest : public ::testing::Test {
 protected:
  ManualClock fixture_clock{1'800'000'010'000};
  accounts::testing::TempDir tmp;
  std::vector<accounts::Plan> plans = accounts::builtin_plans();
  std::unique_ptr<store::AccountStore> store = store::open_sqlite_store(tmp.path());
  accounts::KeyAdmin admin{*store, plans, fixture_clock};
  catalog::Registry registry{
      tools::all_tools({test_support::kSource / "catalog"}),
      catalog::load_domains(test_support::kSource / "catalog" / "domains.toml")};
  test_support::FakeAccess access;
  api::Service service{registry, access, fixture_clock,
                       api::ServiceOptions{.base_path = "",
                                           .version = "9.9.9",
                                           .admin_token = std::string(kToken),
                                           .key_admin = &admin}};

  api::Response call(std::string_view method, std::string_view target, std::string_view body = {},
                     std::optional<std::string_view> auth = {}) {
    const std::string bearer = "Bearer " + std::string(kToken);
    api::Request r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.authorization = auth ? auth : std::optional<std::string_view>(bearer);
    r.content_type = "application/json";
    r.peer_ip = "10.0.0.1";
    return service.handle(r);
  }
};

}  // namespace

TEST_F(AdminTest, TokenAndOperations) {
  EXPECT_EQ(call("GET", "/admin/v1/keys", {}, "Bearer wrong").status, 401);
  EXPECT_EQ(
      call("GET", "/admin/v1/keys", {}, std::string("Bearer ") + std::string(kToken) + "x").status,
      401);
  auto r = call("POST", "/admin/v1/keys", R"({"plan":"pro","label":"a"})");
  ASSERT_EQ(r.status, 201) << r.full_body();
  const auto created = json::parse(r.full_body()).at("result").as_object();
  const std::string key(created.at("key").as_string());
  EXPECT_TRUE(accounts::is_well_formed_key(key));
  const std::string prefix = key.substr(0, 12);
  EXPECT_EQ(store->load_keys().keys.at(0).prefix, prefix);
  // Every response has the usual headers, with the client IP's window (not counted).
  EXPECT_TRUE(r.header("X-RateLimit-Limit"));
  EXPECT_EQ(*r.header("RateLimit-Policy"), R"("minute";q=5;w=60)");

  r = call("PATCH", "/admin/v1/keys/" + prefix, R"({"monthly_quota":9})");
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_EQ(store->load_keys().keys.at(0).monthly_quota, 9);
  r = call("POST", "/admin/v1/keys/" + prefix + "/rotate", R"({"grace":60})");
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_EQ(store->load_keys().keys.at(0).previous_expires_epoch_s, 1'800'000'070);
  EXPECT_EQ(call("DELETE", "/admin/v1/keys/" + prefix).status, 200);
  EXPECT_EQ(call("POST", "/admin/v1/keys/" + prefix + "/rotate").status, 409);
  EXPECT_EQ(call("GET", "/admin/v1/keys/tc_live_ZZZZ").status, 404);
  r = call("GET", "/admin/v1/openapi.json");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.full_body(), service.admin_openapi_json());
  EXPECT_EQ(service.openapi_json().find("/admin/"), std::string::npos);
}

TEST_F(AdminTest, FailedAuthenticationsFromOneAddressAreRefused429UntilTheWindowEnds) {
  for (int i = 0; i < api::AdminGuard::kMaxFailures; ++i)
    ASSERT_EQ(call("GET", "/admin/v1/keys", {}, "Bearer wrong-" + std::to_string(i)).status, 401);
  // Now every admin request from the address waits, the right token too: were it let
  // through, the refusal would not slow guessing.
  auto r = call("GET", "/admin/v1/keys", {}, "Bearer wrong-again");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(json::parse(r.full_body()).at("error").at("code"), "RATE_LIMITED");
  EXPECT_EQ(*r.header("Retry-After"), "60");
  fixture_clock.advance_ms(45'000);
  r = call("GET", "/admin/v1/keys");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(*r.header("Retry-After"), "15");
  fixture_clock.advance_ms(15'000);
  EXPECT_EQ(call("GET", "/admin/v1/keys").status, 200);
}

TEST_F(AdminTest, TheRightTokenIsNeverCounted) {
  for (int i = 0; i < 3 * api::AdminGuard::kMaxFailures; ++i)
    ASSERT_EQ(call("GET", "/admin/v1/keys").status, 200);
}

TEST_F(PlatformTest, WithoutAnAdminTokenEveryAdminPathIs404) {
  for (const char* path : {"/admin/v1/keys", "/admin/v1/openapi.json", "/admin/v1/x"})
    EXPECT_EQ(call("GET", path, {}, std::nullopt).status, 404) << path;
}
