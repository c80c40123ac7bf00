// POST /v1/{domain}/{slug}/tolerance and …/solve without a socket (docs/api.md "Tolerance
// analysis", "Solve for an input"): what each costs (quota units per 1,000 evaluations,
// reserved first, given back on a 422), the field each refusal names, MCP's results equal
// to REST's, and the analysis pool: a deferred request finished on its event loop, and the
// bounded queue and its threads' lower priority.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/json.hpp>
#include <cerrno>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <unistd.h>

#include "api/analysis_pool.hpp"
#include "api/limits.hpp"
#include "catalog/analysis_costs.hpp"
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
  EXPECT_EQ(api::analysis_quota_units(0, 1), 1);
  EXPECT_EQ(api::analysis_quota_units(1, 1), 1);
  EXPECT_EQ(api::analysis_quota_units(1000, 1), 1);
  EXPECT_EQ(api::analysis_quota_units(1001, 1), 2);
  EXPECT_EQ(api::analysis_quota_units(10'009, 1), 11);
  EXPECT_EQ(api::analysis_quota_units(1 + 24 + 4096 + 100'000, 1), 105);  // the largest body
}

TEST(AnalysisQuota, ATimesTheToolsCostClass) {
  EXPECT_EQ(api::analysis_quota_units(1, 16), 1);
  EXPECT_EQ(api::analysis_quota_units(62, 16), 1);  // 992 weighted evaluations
  EXPECT_EQ(api::analysis_quota_units(63, 16), 2);
  EXPECT_EQ(api::analysis_quota_units(10'009, 4), 41);
  EXPECT_EQ(api::analysis_quota_units(2000, 32), 64);  // a solve's budget
  // The largest body at the largest class: exact, far from overflow.
  EXPECT_EQ(api::analysis_quota_units(1 + 24 + 4096 + 100'000, catalog::kMaxAnalysisCostClass),
            106'620);
}

TEST_F(AnalysisTest, EveryToolIsPricedByItsClassAndTheDetailsSayWhich) {
  for (const auto& t : registry.tools()) {
    EXPECT_EQ(t.analysis_cost_class, catalog::analysis_cost_class(t.tool.descriptor.slug));
    EXPECT_EQ(json::parse(t.details_json).at("analysis_cost_class").as_int64(),
              t.analysis_cost_class)
        << t.tool.descriptor.slug;
  }
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

// A request may wait three times: for its rate step (a shared store), for the analysis
// pool, and for its 200's group commit. It leaves the stack at the first wait and stays
// where it went: each later wait holds the same suspended request, and `done` runs once,
// after the last.
TEST_F(AnalysisTest, ARequestThatWaitsThreeTimesLeavesTheStackOnce) {
  access.asynchronous = true;
  access.durable_waits = true;
  boost::asio::io_context loop;
  auto guard = boost::asio::make_work_guard(loop);
  const EventLoopScope scope(loop);
  const api::Request req = request("POST", kTolerance, kDivider);
  api::Response res;
  int done_calls = 0;
  ASSERT_FALSE(service.handle_async(req, res, [&] { ++done_calls; }));
  ASSERT_EQ(access.pending.size(), 1u);
  const accounts::Suspended* waiting = access.pending.front().request.get();
  access.complete_pending();  // the rate step: on to the pool
  EXPECT_TRUE(res.body.empty());
  // The pool posts the finish to this loop; the 200 then waits for its units.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (access.waiting_durable.empty() && std::chrono::steady_clock::now() < deadline)
    loop.run_one_for(std::chrono::milliseconds(100));
  ASSERT_EQ(access.waiting_durable.size(), 1u);
  EXPECT_EQ(access.waiting_durable.front().get(), waiting);  // the same request, not a copy
  EXPECT_EQ(done_calls, 0);
  access.complete_durable();
  EXPECT_EQ(done_calls, 1);
  EXPECT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(access.quota_used, 3);  // as handle() charges it: ⌈2009/1000⌉
}

using Admission = api::AnalysisPool::Admission;

// What the pool tests share: work that notes its name in `order` when it runs, work that
// first holds its pool thread until its gate opens, and the loop the finishes are posted to.
struct PoolProbe {
  boost::asio::io_context loop;  // declared before the pool: it outlives the pool's threads
  std::mutex m;
  std::condition_variable cv;
  std::array<bool, 2> gates{};  // open or shut
  std::atomic<int> started{0}, finished{0};
  std::vector<std::string> order;  // under m

  std::function<void()> note(std::string who) {
    return [this, who] {
      std::lock_guard lock(m);
      order.push_back(who);
    };
  }
  std::function<void()> held(std::string who, size_t gate = 0) {
    return [this, who, gate] {
      ++started;
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return gates[gate]; });
      order.push_back(who);
    };
  }
  std::function<void()> done() {
    return [this] { ++finished; };
  }
  void wait_started(int n) {
    while (started < n) std::this_thread::yield();
  }
  void open(size_t gate = 0) {
    {
      std::lock_guard lock(m);
      gates[gate] = true;
    }
    cv.notify_all();
  }
  // Runs the finishes posted to the loop until `n` have run, or 30 s have passed.
  void poll_until(int n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (finished < n && std::chrono::steady_clock::now() < deadline) {
      loop.restart();
      loop.poll();
      std::this_thread::yield();
    }
  }
  size_t ran() {
    std::lock_guard lock(m);
    return order.size();
  }
};

TEST(AnalysisPool, RefusesWorkBeyondItsQueueAndDropsWaitingWorkOnStop) {
  PoolProbe p;
  api::AnalysisPool pool(1, 2, 10);
  ASSERT_EQ(pool.submit("a", p.held("a0"), p.loop, p.done()), Admission::Accepted);  // running
  p.wait_started(1);
  EXPECT_EQ(pool.submit("a", p.note("a1"), p.loop, p.done()), Admission::Accepted);  // waiting: 1
  EXPECT_EQ(pool.submit("b", p.note("b1"), p.loop, p.done()), Admission::Accepted);  // waiting: 2
  EXPECT_EQ(pool.submit("c", p.note("c1"), p.loop, p.done()), Admission::Full);
  p.open();
  // The finishes are posted to the loop, never run on the pool.
  p.poll_until(3);
  EXPECT_EQ(p.ran(), 3u);
  EXPECT_EQ(p.finished, 3);
  pool.stop();
  EXPECT_EQ(pool.submit("a", p.note("a2"), p.loop, p.done()), Admission::Stopped);
}

// One thread held by owner A's first analysis; A queues more up to its limit and is then
// refused, while B and C are still taken, and the owners waiting take turns.
TEST(AnalysisPool, AnOwnerAtItsLimitIsRefusedAndTheOwnersTakeTurns) {
  PoolProbe p;
  api::AnalysisPool pool(1, 16, 3);
  ASSERT_EQ(pool.submit("a", p.held("a0"), p.loop, p.done()), Admission::Accepted);
  p.wait_started(1);
  EXPECT_EQ(pool.submit("a", p.note("a1"), p.loop, p.done()), Admission::Accepted);
  EXPECT_EQ(pool.submit("a", p.note("a2"), p.loop, p.done()), Admission::Accepted);
  // 1 + 2 = 3
  EXPECT_EQ(pool.submit("a", p.note("a3"), p.loop, p.done()), Admission::OwnerAtLimit);
  EXPECT_EQ(pool.submit("b", p.note("b1"), p.loop, p.done()), Admission::Accepted);
  EXPECT_EQ(pool.submit("c", p.note("c1"), p.loop, p.done()), Admission::Accepted);
  EXPECT_EQ(pool.submit("b", p.note("b2"), p.loop, p.done()), Admission::Accepted);
  p.open();
  p.poll_until(6);
  ASSERT_EQ(p.finished, 6);
  // A waited first, so it has its turn first; then B and C, whose turns come before A's
  // second, and so on in turn.
  EXPECT_EQ(p.order, (std::vector<std::string>{"a0", "a1", "b1", "c1", "a2", "b2"}));
  // Once an owner's analyses are done it starts again from nothing.
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(pool.submit(
                  "a", [] {}, p.loop, p.done()),
              Admission::Accepted);
  pool.stop();
}

// Two threads both running A's analyses, A's third waiting before B's: when a thread comes
// free it takes B's, whose owner has none running, before A's.
TEST(AnalysisPool, TheOwnerWithTheFewestRunningGoesFirst) {
  PoolProbe p;
  api::AnalysisPool pool(2, 16, 4);
  ASSERT_EQ(pool.submit("a", p.held("a0", 0), p.loop, p.done()), Admission::Accepted);
  ASSERT_EQ(pool.submit("a", p.held("a1", 1), p.loop, p.done()), Admission::Accepted);
  p.wait_started(2);
  ASSERT_EQ(pool.submit("a", p.note("a2"), p.loop, p.done()), Admission::Accepted);
  ASSERT_EQ(pool.submit("b", p.note("b1"), p.loop, p.done()), Admission::Accepted);
  p.open(0);
  p.poll_until(3);
  p.open(1);
  p.poll_until(4);
  ASSERT_EQ(p.finished, 4);
  EXPECT_EQ(p.order, (std::vector<std::string>{"a0", "b1", "a2", "a1"}));
  pool.stop();
}

// The pool's threads run below the I/O threads: SCHED_IDLE, which Linux lets any thread take
// for itself, while the creating thread keeps its own policy.
TEST(AnalysisPool, ThreadsRunUnderTheIdlePolicyAndTheirCreatorDoesNot) {
  const int own = ::sched_getscheduler(0);
  ASSERT_EQ(own, SCHED_OTHER);
  boost::asio::io_context loop;
  api::AnalysisPool pool(2, 4, 4);
  std::promise<int> first, second;
  std::atomic<int> finished{0};
  ASSERT_EQ(pool.submit(
                "a", [&] { first.set_value(::sched_getscheduler(0)); }, loop, [&] { ++finished; }),
            Admission::Accepted);
  ASSERT_EQ(pool.submit(
                "a", [&] { second.set_value(::sched_getscheduler(0)); }, loop, [&] { ++finished; }),
            Admission::Accepted);
  EXPECT_EQ(first.get_future().get(), SCHED_IDLE);
  EXPECT_EQ(second.get_future().get(), SCHED_IDLE);
  EXPECT_EQ(::sched_getscheduler(0), own);
  pool.stop();
}

}  // namespace
