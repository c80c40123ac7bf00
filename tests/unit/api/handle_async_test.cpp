// Service::handle_async: a request whose rate step goes to a shared
// store is suspended and finished when the step's result arrives, with the same answer
// handle() gives; everything else is answered at once.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "service_fixture.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

using test_support::kBattery;
constexpr std::string_view kBatteryPath = "/v1/iot-mcu/mcu-deep-sleep-battery";

class HandleAsyncTest : public test_support::ServiceFixture {
 protected:
  // handle_async, then (if it suspended) the store's answer; `done` must be called exactly
  // when the request was suspended.
  api::Response run(const api::Request& r, bool expect_suspended) {
    api::Response res;
    int done_calls = 0;
    const bool answered = service.handle_async(r, res, [&] { ++done_calls; });
    EXPECT_EQ(!answered, expect_suspended);
    if (!answered) {
      EXPECT_EQ(done_calls, 0);
      EXPECT_TRUE(res.body.empty()) << "filled before the store answered";
      EXPECT_EQ(access.pending.size(), 1u);
      access.complete_pending();
    }
    EXPECT_EQ(done_calls, expect_suspended ? 1 : 0);
    return res;
  }

  static std::string header(const api::Response& r, std::string_view name) {
    return r.header(name).value_or("");
  }
};

TEST_F(HandleAsyncTest, WithAnEmbeddedStoreItAnswersAtOnce) {
  const auto req = request("POST", kBatteryPath, kBattery);
  const api::Response res = run(req, false);
  EXPECT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(access.quota_used, 1);
}

TEST_F(HandleAsyncTest, ASuspendedExecuteAnswersAsHandleDoes) {
  access.asynchronous = true;
  access.reserve_early = true;
  const auto req = request("POST", kBatteryPath, kBattery);
  const api::Response res = run(req, true);
  ASSERT_EQ(res.status, 200) << res.body;
  const json::object body = json::parse(res.body).as_object();
  EXPECT_EQ(body.at("ok"), true);
  EXPECT_EQ(body.at("result").as_object().at("avg_current_ua"), 343.3);  // service_test.cpp
  EXPECT_EQ(body.at("meta").as_object().at("quota_remaining"), 1);       // plan: 2 a month
  EXPECT_EQ(header(res, "X-RateLimit-Remaining"), "99");
  EXPECT_EQ(header(res, "X-Request-ID"), res.request_id);
  EXPECT_EQ(access.quota_used, 1);  // the early unit, used
  EXPECT_EQ(access.quota_released, 0);

  // The same request through handle(): the same body apart from latency and request id.
  access.asynchronous = false;
  const api::Response sync = service.handle(req);
  json::object a = body, b = json::parse(sync.body).as_object();
  a.erase("meta");
  b.erase("meta");
  EXPECT_EQ(a, b);
}

TEST_F(HandleAsyncTest, ARefusedInputGivesItsEarlyUnitBack) {
  access.asynchronous = true;
  access.reserve_early = true;
  const auto req = request("POST", kBatteryPath, R"({"battery_capacity_mah":"x"})");
  const api::Response res = run(req, true);
  EXPECT_EQ(res.status, 400) << res.body;
  EXPECT_EQ(access.quota_used, 0);
  EXPECT_EQ(access.quota_released, 1);
}

TEST_F(HandleAsyncTest, AStoreOutageIsA503) {
  access.asynchronous = true;
  access.store_down = true;
  const auto req = request("POST", kBatteryPath, kBattery);
  const api::Response res = run(req, true);
  EXPECT_EQ(res.status, 503) << res.body;
  EXPECT_NE(res.body.find("STORE_UNAVAILABLE"), std::string::npos);
  EXPECT_EQ(header(res, "Retry-After"), "1");
  EXPECT_EQ(header(res, "X-RateLimit-Remaining"), "0");
}

TEST_F(HandleAsyncTest, ARefusedRateUnitIsA429) {
  access.asynchronous = true;
  access.window_used["key:tc_live_good"] = 100;  // the plan's 100 a minute are used
  const auto req = request("GET", "/v1/tools");
  const api::Response res = run(req, true);
  EXPECT_EQ(res.status, 429) << res.body;
  EXPECT_EQ(header(res, "Retry-After"), "50");
}

TEST_F(HandleAsyncTest, UncountedRoutesAnswerAtOnce) {
  access.asynchronous = true;
  const api::Response res = run(request("GET", "/v1/health"), false);
  EXPECT_EQ(res.status, 200) << res.body;
  EXPECT_TRUE(access.pending.empty());
}

}  // namespace
