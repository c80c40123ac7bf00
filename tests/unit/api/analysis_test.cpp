// POST /v1/{domain}/{slug}/tolerance and …/solve without a socket (docs/api.md "Tolerance
// analysis", "Solve for an input"): what each costs (quota units per 1,000 evaluations,
// reserved first, given back on a 422), the field each refusal names, MCP's results equal
// to REST's, and the analysis pool: a deferred request finished on its event loop, and the
// bounded queue and its threads' lower priority.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/json.hpp>
#include <cerrno>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <sched.h>
#include <unistd.h>

#include "api/analysis_pool.hpp"
#include "api/limits.hpp"
#include "core/event_loop.hpp"
#include "service_fixture.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

constexpr std::string_view kTolerance = "/v1/electronics/voltage-divider/tolerance";
constexpr std::string_view kSolve = "/v1/electronics/voltage-divider/solve";
constexpr std::string_view kDivider =
    R"({"inputs":{"vin_v":12,"r1_ohm":10000,"r2_ohm":10000},)"
    R"("tolerances":{"r1_ohm":{"pct":1},"r2_ohm":{"pct":1}},"samples":2000})";
constexpr std::string_view kDividerSolve =
    R"({"inputs":{"vin_v":12,"r1_ohm":10000,"r2_ohm":10000},"vary":"r2_ohm",)"
    R"("target":{"output":"vout_v","value":3.3}})";

class AnalysisTest : public test_support::ServiceFixture {
 protected:
  void SetUp() override { access.keys["tc_live_good"] = {"pro", 1000, 100}; }
  api::Response post(std::string_view target, std::string_view body) {
    return service.handle(request("POST", target, body));
  }
  static json::object parse(const api::Response& r) { return json::parse(r.body).as_object(); }
  void expect_field(std::string_view target, std::string_view body, std::string_view field) {
    SCOPED_TRACE(std::string(body));
    const api::Response r = post(target, body);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(parse(r).at("error").at("field").as_string(), field) << r.body;
    EXPECT_EQ(access.quota_used, 0);
  }
};

TEST(AnalysisQuota, OneUnitPerThousandEvaluationsAtLeastOne) {
  EXPECT_EQ(api::analysis_quota_units(0), 1);
  EXPECT_EQ(api::analysis_quota_units(1), 1);
  EXPECT_EQ(api::analysis_quota_units(1000), 1);
  EXPECT_EQ(api::analysis_quota_units(1001), 2);
  EXPECT_EQ(api::analysis_quota_units(10'009), 11);
  EXPECT_EQ(api::analysis_quota_units(1 + 24 + 4096 + 100'000), 105);  // the largest body
}

TEST_F(AnalysisTest, AToleranceIsChargedForItsEvaluations) {
  const api::Response r = post(kTolerance, kDivider);
  ASSERT_EQ(r.status, 200) << r.body;
  const auto body = parse(r);
  EXPECT_EQ(body.at("result").at("evaluations").as_int64(), 1 + 4 + 4 + 2000);
  EXPECT_EQ(access.quota_used, 3);  // ⌈2009/1000⌉
  EXPECT_EQ(body.at("meta").at("quota_remaining").as_int64(), 97);
  EXPECT_EQ(*r.header("X-Tool-Version"), "2.0.0");
  const auto& v = body.at("result").at("outputs").at("vout_v").as_object();
  EXPECT_EQ(v.at("worst_case").at("min").as_double(), 5.94);
  EXPECT_EQ(v.at("worst_case").at("max").as_double(), 6.06);
}

TEST_F(AnalysisTest, TheQuotaMustCoverTheEvaluationsBeforeAnythingRuns) {
  access.keys["tc_live_good"] = {"pro", 1000, 2};
  const api::Response r = post(kTolerance, kDivider);  // 3 units needed
  EXPECT_EQ(r.status, 429) << r.body;
  EXPECT_NE(r.body.find("needs 3 units"), std::string::npos) << r.body;
  EXPECT_TRUE(r.header("Retry-After").has_value());
  EXPECT_EQ(access.quota_used, 0);
}

TEST_F(AnalysisTest, A422GivesEveryUnitBack) {
  // The battery tool refuses a wake longer than its period: at the nominal here.
  const api::Response r =
      post("/v1/iot-mcu/mcu-deep-sleep-battery/tolerance",
           R"({"inputs":{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
           R"("wake_duration_ms":61000,"cycle_period_s":60,"battery_efficiency_pct":80},)"
           R"("tolerances":{"battery_capacity_mah":{"pct":1}}})");
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(parse(r).at("error").at("field").as_string(), "inputs.wake_duration_ms");
  EXPECT_EQ(access.quota_used, 0);
  EXPECT_EQ(access.quota_released, 11);
  const api::Response s = post(kSolve, R"({"inputs":{"vin_v":12,"r1_ohm":10000},"vary":"r2_ohm",)"
                                       R"("target":{"output":"vout_v","value":13}})");
  EXPECT_EQ(s.status, 422) << s.body;
  const auto error = parse(s).at("error").as_object();
  EXPECT_EQ(error.at("code").as_string(), "NO_SOLUTION");
  EXPECT_EQ(error.at("field").as_string(), "target.value");
  EXPECT_EQ(access.quota_used, 0);
}

TEST_F(AnalysisTest, ASolveReservesItsBudgetAndKeepsWhatItUsed) {
  const api::Response r = post(kSolve, kDividerSolve);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(access.quota_used, 1);
  EXPECT_EQ(access.quota_released, 1);  // two reserved for the 2,000-evaluation budget
  EXPECT_EQ(parse(r).at("meta").at("quota_remaining").as_int64(), 99);
}

TEST_F(AnalysisTest, ASolutionThatIsAJumpIsNoSolution) {
  // vout_e_v is the divider with both resistors rounded to the E-series: a step function
  // of r2_ohm, which crosses 3.3 V without taking that value.
  const api::Response r = post(kSolve, R"({"inputs":{"vin_v":12,"r1_ohm":10000},"vary":"r2_ohm",)"
                                       R"("target":{"output":"vout_e_v","value":3.3}})");
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_NE(r.body.find("does not pass through 3.3 continuously"), std::string::npos) << r.body;
}

TEST_F(AnalysisTest, RefusalsNameTheirField) {
  const std::string inputs = R"("inputs":{"vin_v":12,"r1_ohm":10000,"r2_ohm":10000})";
  expect_field(kTolerance, "{" + inputs + "}", "tolerances");
  expect_field(kTolerance, "{" + inputs + R"(,"tolerances":{"e_series":{"pct":1}}})",
               "tolerances.e_series");
  expect_field(kTolerance, "{" + inputs + R"(,"tolerances":{"r1_ohm":{"pct":-1}}})",
               "tolerances.r1_ohm.pct");
  expect_field(kTolerance, "{" + inputs + R"(,"tolerances":{"r1_ohm":{"abs":9950}}})",
               "tolerances.r1_ohm");
  expect_field(kTolerance, R"({"inputs":{"vin_v":-1},"tolerances":{"r1_ohm":{"pct":1}}})",
               "inputs.vin_v");
  expect_field(kTolerance, "{" + inputs + R"(,"tolerances":{"r1_ohm":{"pct":1}},"seed":1.5})",
               "seed");
  expect_field(kSolve, "{" + inputs + R"(,"vary":"e_series","target":{}})", "vary");
  expect_field(kSolve, "{" + inputs + R"(,"vary":"r1_ohm","target":{"output":"x"}})",
               "target.output");
  expect_field(kSolve, "{" + inputs + R"(,"vary":"r1_ohm","target":{"output":"vout_v"}})",
               "target.value");
}

TEST_F(AnalysisTest, McpAnswersWhatRestAnswers) {
  const api::Response rest = post(kTolerance, kDivider);
  ASSERT_EQ(rest.status, 200) << rest.body;
  const std::string call =
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"tolerance_analysis",)"
      R"("arguments":{"tool":"electronics_voltage-divider",)" +
      std::string(kDivider.substr(1)) + "}}";
  const api::Response mcp = post("/mcp", call);
  ASSERT_EQ(mcp.status, 200) << mcp.body;
  const auto result = parse(mcp).at("result").as_object();
  EXPECT_EQ(result.at("isError"), false) << mcp.body;
  EXPECT_EQ(result.at("structuredContent"), parse(rest).at("result"));
  EXPECT_EQ(access.quota_used, 6);
}

// The request deferred to the pool is finished on the event loop that read it: `done` runs
// on the loop's thread, after the response is complete.
TEST_F(AnalysisTest, OnAnEventLoopTheAnalysisRunsOnThePool) {
  boost::asio::io_context loop;
  auto guard = boost::asio::make_work_guard(loop);
  std::thread::id loop_thread;
  std::thread runner([&] {
    EventLoopScope scope(loop);
    loop_thread = std::this_thread::get_id();
    loop.run();
  });
  const api::Request req = request("POST", kTolerance, kDivider);
  api::Response res;
  std::promise<std::thread::id> finished;
  bool answered_at_once = true;
  boost::asio::post(loop, [&] {
    answered_at_once =
        service.handle_async(req, res, [&] { finished.set_value(std::this_thread::get_id()); });
  });
  auto done = finished.get_future();
  ASSERT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_FALSE(answered_at_once);
  EXPECT_EQ(done.get(), loop_thread);
  guard.reset();
  runner.join();
  EXPECT_EQ(res.status, 200) << res.body;
  const api::Response sync = post(kTolerance, kDivider);
  auto a = parse(res), b = parse(sync);
  a.erase("meta");
  b.erase("meta");
  EXPECT_EQ(a, b);  // the same bytes of result as handle()'s inline run
}

TEST(AnalysisPool, RefusesWorkBeyondItsQueueAndDropsWaitingWorkOnStop) {
  boost::asio::io_context loop;
  api::AnalysisPool pool(1, 2);
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> started{0}, ran{0}, finished{0};
  auto blocking = [&] {
    ++started;
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return release; });
    ++ran;
  };
  ASSERT_TRUE(pool.submit(blocking, loop, [&] { ++finished; }));  // running
  while (started == 0) std::this_thread::yield();
  EXPECT_TRUE(pool.submit([&] { ++ran; }, loop, [&] { ++finished; }));   // waiting: 1
  EXPECT_TRUE(pool.submit([&] { ++ran; }, loop, [&] { ++finished; }));   // waiting: 2
  EXPECT_FALSE(pool.submit([&] { ++ran; }, loop, [&] { ++finished; }));  // full
  {
    std::lock_guard lock(m);
    release = true;
  }
  cv.notify_all();
  // The finishes are posted to the loop, never run on the pool.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (finished < 3 && std::chrono::steady_clock::now() < deadline) {
    loop.restart();
    loop.poll();
    std::this_thread::yield();
  }
  EXPECT_EQ(ran, 3);
  EXPECT_EQ(finished, 3);
  pool.stop();
  EXPECT_FALSE(pool.submit([&] { ++ran; }, loop, [&] { ++finished; }));
}

// The pool's threads run below the I/O threads: SCHED_IDLE, which Linux lets any thread take
// for itself, while the creating thread keeps its own policy.
TEST(AnalysisPool, ThreadsRunUnderTheIdlePolicyAndTheirCreatorDoesNot) {
  const int own = ::sched_getscheduler(0);
  ASSERT_EQ(own, SCHED_OTHER);
  boost::asio::io_context loop;
  api::AnalysisPool pool(2, 4);
  std::promise<int> first, second;
  std::atomic<int> finished{0};
  ASSERT_TRUE(
      pool.submit([&] { first.set_value(::sched_getscheduler(0)); }, loop, [&] { ++finished; }));
  ASSERT_TRUE(
      pool.submit([&] { second.set_value(::sched_getscheduler(0)); }, loop, [&] { ++finished; }));
  EXPECT_EQ(first.get_future().get(), SCHED_IDLE);
  EXPECT_EQ(second.get_future().get(), SCHED_IDLE);
  EXPECT_EQ(::sched_getscheduler(0), own);
  pool.stop();
}

}  // namespace
