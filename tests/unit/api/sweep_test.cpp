// POST /v1/{domain}/{slug}/sweep (docs/api.md "Sweeps") without a socket:
// validation and the field each error names, the x values, per-point errors, and what is
// charged (one rate unit; one quota unit per point with a result).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cmath>

#include "api/service.hpp"
#include "api/sweep_request.hpp"
#include "catalog/domains.hpp"
#include "fake_access.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;
constexpr std::string_view kBatterySweep = "/v1/iot-mcu/mcu-deep-sleep-battery/sweep";
constexpr std::string_view kLedSweep = "/v1/electronics/led-series-resistor/sweep";
// Every input of the battery tool is required (the varied one may be left out).
constexpr std::string_view kBatteryInputs =
    R"("inputs":{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
    R"("wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80})";

std::string battery(std::string_view vary) {
  return "{" + std::string(kBatteryInputs) + R"(,"vary":)" + std::string(vary) + "}";
}

class SweepTest : public ::testing::Test {
 protected:
  catalog::Registry registry{tools::all_tools({kSource / "catalog"}),
                             catalog::load_domains(kSource / "catalog" / "domains.toml")};
  test_support::FakeAccess access;
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock, api::ServiceOptions{"", "9.9.9"}};

  void SetUp() override { access.keys["tc_live_sweep"] = {"sweep", 1000, 500}; }

  api::Response call(std::string_view target, std::string_view body,
                     std::optional<std::string_view> auth = "Bearer tc_live_sweep",
                     std::string_view content_type = "application/json",
                     std::string_view method = "POST") {
    api::Request r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.authorization = auth;
    r.content_type = content_type;
    r.peer_ip = "10.1.2.3";
    return service.handle(r);
  }
  static json::object parse(const api::Response& r) { return json::parse(r.body).as_object(); }

  // A 400 naming `field`, with nothing charged to the monthly quota.
  void expect_field_error(std::string_view target, std::string_view body, std::string_view field,
                          std::string_view message_part = {}) {
    SCOPED_TRACE(std::string(body));
    auto r = call(target, body);
    EXPECT_EQ(r.status, 400) << r.body;
    auto o = parse(r);
    const auto& e = o.at("error").as_object();
    EXPECT_EQ(e.at("code").as_string(), "VALIDATION_ERROR") << r.body;
    ASSERT_TRUE(e.contains("field")) << r.body;
    EXPECT_EQ(e.at("field").as_string(), field) << r.body;
    if (!message_part.empty()) {
      EXPECT_NE(std::string_view(e.at("message").as_string()).find(message_part),
                std::string_view::npos)
          << r.body;
    }
    EXPECT_EQ(access.quota_used, 0);
  }
};

std::vector<double> xs_of(const json::object& o) {
  std::vector<double> xs;
  for (const auto& p : o.at("result").at("points").as_array())
    xs.push_back(p.at("x").to_number<double>());
  return xs;
}

}  // namespace

TEST_F(SweepTest, ReturnsTheExecuteEnvelopeWithOnePointPerX) {
  auto r =
      call(kBatterySweep,
           R"({"inputs":{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
           R"("wake_duration_ms":250,"battery_efficiency_pct":80},)"
           R"("vary":{"key":"cycle_period_s","from":30,"to":120,"points":4}})");
  ASSERT_EQ(r.status, 200) << r.body;
  auto o = parse(r);
  std::vector<std::string> keys;
  for (const auto& kv : o) keys.emplace_back(kv.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"ok", "tool", "domain", "version", "result", "meta"}));
  EXPECT_EQ(o.at("tool").as_string(), "mcu-deep-sleep-battery");
  const auto& result = o.at("result").as_object();
  EXPECT_EQ(result.at("key").as_string(), "cycle_period_s");
  EXPECT_EQ(xs_of(o), (std::vector<double>{30, 60, 90, 120}));
  // The point at x = 60 is exactly execute's result for the same inputs (README example).
  EXPECT_NE(r.body.find(R"({"x":60,"result":{"avg_current_ua":343.3,"avg_current_ma":0.343,)"
                        R"("lifetime_hours":4660.8,"lifetime_days":194.2,"lifetime_years":0.53,)"
                        R"("daily_wakes":1440}})"),
            std::string::npos)
      << r.body;
  const auto& meta = o.at("meta").as_object();
  EXPECT_EQ(meta.at("quota_remaining").as_int64(), 500 - 4);
  EXPECT_EQ(access.quota_used, 4);
  EXPECT_EQ(access.window_used["key:tc_live_sweep"], 1);  // one rate unit for the sweep
  EXPECT_EQ(*r.header("X-Tool-Version"), "1.0.0");
  EXPECT_EQ(*r.header("X-RateLimit-Remaining"), "999");
  EXPECT_EQ(*r.header("Cache-Control"), "no-store");
}

TEST_F(SweepTest, PointsTheToolRefusesCarryTheirErrorAndAreNotCharged) {
  // cycle_period_s defaults to 60 s: a wake longer than 60 000 ms is a 422 case.
  auto r = call(kBatterySweep,
                battery(R"({"key":"wake_duration_ms","from":20000,"to":100000,"points":5})"));
  ASSERT_EQ(r.status, 200) << r.body;
  auto o = parse(r);
  const auto& points = o.at("result").at("points").as_array();
  ASSERT_EQ(points.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    const auto& p = points[i].as_object();
    ASSERT_EQ(p.size(), 2u) << p;
    if (i < 3) {
      EXPECT_TRUE(p.contains("result")) << p;
    } else {
      const auto& e = p.at("error").as_object();
      EXPECT_EQ(e.at("code").as_string(), "UNPROCESSABLE");
      EXPECT_EQ(e.at("field").as_string(), "wake_duration_ms");
      EXPECT_NE(std::string_view(e.at("message").as_string()).find("longer than cycle_period_s"),
                std::string_view::npos);
    }
  }
  EXPECT_EQ(access.quota_used, 3);
  EXPECT_EQ(access.quota_released, 2);
  EXPECT_EQ(o.at("meta").at("quota_remaining").as_int64(), 500 - 3);
}

TEST_F(SweepTest, IntegerInputsTakeIntegerSteps) {
  // Four 3 V LEDs need more than 12 V: those points are refused.
  auto r = call(kLedSweep,
                R"({"inputs":{"supply_v":12,"led_forward_v":3,"led_current_ma":20,"led_count":9},)"
                R"("vary":{"key":"led_count","from":1,"to":5,"points":5}})");
  ASSERT_EQ(r.status, 200) << r.body;
  auto o = parse(r);
  EXPECT_EQ(xs_of(o), (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_NE(r.body.find(R"({"x":4,"error":{"code":"UNPROCESSABLE")"), std::string::npos) << r.body;
  EXPECT_EQ(access.quota_used, 3);

  // Uneven steps are rounded to integers, descending ranges allowed: 10, 7.75, 5.5, 3.25, 1.
  r = call(kLedSweep, R"({"inputs":{"supply_v":60,"led_forward_v":1,"led_current_ma":20},)"
                      R"("vary":{"key":"led_count","from":10,"to":1,"points":5}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(xs_of(parse(r)), (std::vector<double>{10, 8, 6, 3, 1}));
}

TEST_F(SweepTest, XValuesAreRoundedTo12SignificantDigits) {
  EXPECT_EQ(api::sweep_values(0.1, 0.7, 7, false),
            (std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}));
  const auto thirds = api::sweep_values(1, 2, 4, false);
  EXPECT_EQ(thirds, (std::vector<double>{1, 1.33333333333, 1.66666666667, 2}));
  EXPECT_EQ(api::sweep_values(-1, 1, 3, false), (std::vector<double>{-1, 0, 1}));
  EXPECT_FALSE(std::signbit(api::sweep_values(-1, 1, 3, false)[1]));            // never -0
  EXPECT_EQ(api::sweep_values(1, 4, 3, true), (std::vector<double>{1, 3, 4}));  // 2.5 → 3
  EXPECT_EQ(api::sweep_values(4, 1, 3, true), (std::vector<double>{4, 3, 1}));  // 2.5 → 3

  // The rounded value is the one written (and the one computed with).
  auto r = call(kBatterySweep, battery(R"({"key":"sleep_current_ua","from":1,"to":2,"points":4})"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"({"x":1.33333333333,"result")"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(R"({"x":2,"result")"), std::string::npos) << r.body;
}

TEST_F(SweepTest, BodyShapeErrorsNameTheirField) {
  expect_field_error(kBatterySweep, R"({"inputs":{}})", "vary", "vary is required");
  expect_field_error(kBatterySweep, R"({"vary":[1]})", "vary", "must be an object");
  expect_field_error(kBatterySweep, R"({"vary":{},"extra":1})", "extra",
                     "only 'inputs' and 'vary'");
  expect_field_error(kBatterySweep, R"({"inputs":5,"vary":{}})", "inputs", "must be an object");
  expect_field_error(kBatterySweep,
                     R"({"vary":{"key":"cycle_period_s","from":1,"to":2,"points":2,"step":1}})",
                     "vary.step");
  expect_field_error(kBatterySweep,
                     R"({"inputs":{"cycle_period_s":1,"cycle_period_s":2},"vary":{}})",
                     "inputs.cycle_period_s", "more than once");
}

TEST_F(SweepTest, VaryErrorsNameTheirField) {
  const auto body = [](std::string_view vary) { return battery(vary); };
  expect_field_error(kBatterySweep, body(R"({"from":1,"to":2,"points":2})"), "vary.key",
                     "cycle_period_s");
  expect_field_error(kBatterySweep, body(R"({"key":"nope","from":1,"to":2,"points":2})"),
                     "vary.key", "battery_capacity_mah, sleep_current_ua");
  expect_field_error(kBatterySweep, body(R"({"key":3,"from":1,"to":2,"points":2})"), "vary.key");
  expect_field_error(kLedSweep, body(R"({"key":"e_series","from":1,"to":2,"points":2})"),
                     "vary.key", "not a numeric input");
  expect_field_error(kBatterySweep, body(R"({"key":"cycle_period_s","to":2,"points":2})"),
                     "vary.from", "required");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":"1","to":2,"points":2})"), "vary.from",
                     "without quotes");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":1e400,"to":2,"points":2})"),
                     "vary.from", "finite");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":0.5,"to":2,"points":2})"), "vary.from",
                     "at least 1");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":1,"to":86401,"points":2})"), "vary.to",
                     "at most 86400");
  expect_field_error(kBatterySweep, body(R"({"key":"cycle_period_s","from":1,"points":2})"),
                     "vary.to", "required");
  expect_field_error(kBatterySweep, body(R"({"key":"cycle_period_s","from":5,"to":5,"points":2})"),
                     "vary.to", "differ");
  expect_field_error(kBatterySweep, body(R"({"key":"cycle_period_s","from":1,"to":2})"),
                     "vary.points", "required");
  expect_field_error(kBatterySweep, body(R"({"key":"cycle_period_s","from":1,"to":2,"points":1})"),
                     "vary.points", "between 2 and 200");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":1,"to":2,"points":201})"),
                     "vary.points", "between 2 and 200");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":1,"to":2,"points":2.5})"),
                     "vary.points", "integer");
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":1,"to":2,"points":"3"})"),
                     "vary.points", "integer");
  // Integer inputs: integer ends, and no more points than integers in the range.
  expect_field_error(kLedSweep, body(R"({"key":"led_count","from":1.5,"to":5,"points":2})"),
                     "vary.from", "integer");
  expect_field_error(kLedSweep, body(R"({"key":"led_count","from":1,"to":5,"points":6})"),
                     "vary.points", "at most 5");
  // Too close to give distinct values at 12 significant digits.
  expect_field_error(kBatterySweep,
                     body(R"({"key":"cycle_period_s","from":1,"to":1.0000000000001,"points":3})"),
                     "vary.points", "distinct");
}

TEST_F(SweepTest, InputErrorsAreNamedUnderInputs) {
  const std::string vary = R"("vary":{"key":"cycle_period_s","from":10,"to":20,"points":3})";
  expect_field_error(kBatterySweep, R"({"inputs":{"sleep_current":1},)" + vary + "}",
                     "inputs.sleep_current", "did you mean 'sleep_current_ua'");
  expect_field_error(kBatterySweep, R"({"inputs":{"sleep_current_ua":10},)" + vary + "}",
                     "inputs.battery_capacity_mah", "is required");
  expect_field_error(kBatterySweep,
                     R"({"vary":{"key":"cycle_period_s","from":10,"to":20,"points":3}})",
                     "inputs.battery_capacity_mah", "is required");  // inputs default to {}
  std::string low = battery(R"({"key":"cycle_period_s","from":10,"to":20,"points":3})");
  low.replace(low.find(R"("wake_current_ma":80)"), 20, R"("wake_current_ma":0)");
  expect_field_error(kBatterySweep, low, "inputs.wake_current_ma", "at least 1");
  expect_field_error(kLedSweep,
                     R"({"inputs":{"led_forward_v":2,"led_current_ma":20,"e_series":"E7"},)"
                     R"("vary":{"key":"supply_v","from":3,"to":9,"points":3}})",
                     "inputs.e_series", "E12");
  // The varied input's own value is replaced, whatever it was; it may also be left out.
  std::string any = battery(R"({"key":"cycle_period_s","from":10,"to":20,"points":3})");
  any.replace(any.find(R"("cycle_period_s":60)"), 19, R"("cycle_period_s":"x")");
  auto r = call(kBatterySweep, any);
  EXPECT_EQ(r.status, 200) << r.body;
  r = call(kBatterySweep,
           R"({"inputs":{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
           R"("wake_duration_ms":250,"battery_efficiency_pct":80},)" +
               vary + "}");
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(SweepTest, QuotaMustCoverEveryPointOrNothingIsTaken) {
  access.quota_used = 497;  // 3 left of 500
  auto r = call(kBatterySweep, battery(R"({"key":"cycle_period_s","from":10,"to":20,"points":4})"));
  ASSERT_EQ(r.status, 429) << r.body;
  auto o = parse(r);
  EXPECT_EQ(o.at("error").at("code").as_string(), "QUOTA_EXCEEDED");
  EXPECT_NE(std::string_view(o.at("error").at("message").as_string()).find("needs 4"),
            std::string_view::npos);
  EXPECT_EQ(*r.header("Retry-After"), "1000");
  EXPECT_EQ(access.quota_used, 497);
  r = call(kBatterySweep, battery(R"({"key":"cycle_period_s","from":10,"to":20,"points":3})"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(parse(r).at("meta").at("quota_remaining").as_int64(), 0);
}

TEST_F(SweepTest, RoutingAuthMediaTypeAndMethod) {
  const std::string ok = battery(R"({"key":"cycle_period_s","from":10,"to":20,"points":2})");
  auto r = call("/v1/iot-mcu/no-such-tool/sweep", ok);
  EXPECT_EQ(r.status, 404) << r.body;
  r = call("/v1/iot-mcu/pcb-trace-width/sweep", ok);  // right slug, wrong domain
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_NE(r.body.find("/v1/pcb-design/pcb-trace-width"), std::string::npos) << r.body;
  r = call(kBatterySweep, ok, std::nullopt);
  EXPECT_EQ(r.status, 401) << r.body;
  EXPECT_EQ(*r.header("WWW-Authenticate"), "Bearer");
  r = call(kBatterySweep, ok, "Bearer tc_live_wrong");
  EXPECT_EQ(r.status, 401) << r.body;
  r = call(kBatterySweep, ok, "Bearer tc_live_sweep", "text/plain");
  EXPECT_EQ(r.status, 415) << r.body;
  r = call(kBatterySweep, ok, "Bearer tc_live_sweep", "application/json", "GET");
  EXPECT_EQ(r.status, 405) << r.body;
  EXPECT_EQ(*r.header("Allow"), "POST, OPTIONS");
  r = call(kBatterySweep, "", "Bearer tc_live_sweep", "application/json", "OPTIONS");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(*r.header("Access-Control-Allow-Methods"), "POST, OPTIONS");
  r = call(kBatterySweep, "{", "Bearer tc_live_sweep");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(parse(r).at("error").at("code").as_string(), "INVALID_JSON");
  EXPECT_EQ(access.quota_used, 0);
}
