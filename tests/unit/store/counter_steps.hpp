#pragma once
// What the tests of the shared counters' asynchronous steps share: a redis-server per
// test, an event loop, and the record of what each step replied.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <exception>
#include <vector>

#include "store/redis_client.hpp"
#include "store/shared_counters.hpp"
#include "support/redis_process.hpp"

namespace toolcalc::testing_steps {

class RedisPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!server_.start()) GTEST_SKIP() << server_.why();
    options_ = server_.options(0);
  }

  accounts::testing::RedisProcess server_;
  store::RedisOptions options_;
  boost::asio::io_context loop_{1};
};

struct Outcome {
  bool called = false;
  store::RateAndQuotaStep step;
  std::exception_ptr error;
};

inline store::SharedCounters::StepDone record(Outcome& o) {
  return [&o](const store::RateAndQuotaStep& s, std::exception_ptr e) {
    EXPECT_FALSE(o.called) << "a step completed twice";
    o.called = true;
    o.step = s;
    o.error = e;
  };
}

// What a step replied: its rate and quota units, allowed or not, and the counts after.
struct Expected {
  bool rate;
  int64_t rate_used;
  bool quota;
  int64_t quota_used;
};

inline void expect_steps(const std::vector<Outcome>& o, const std::vector<Expected>& expected) {
  ASSERT_EQ(o.size(), expected.size());
  for (size_t i = 0; i < o.size(); ++i) {
    ASSERT_TRUE(o[i].called && !o[i].error) << i;
    EXPECT_EQ(o[i].step.rate.allowed, expected[i].rate) << i;
    EXPECT_EQ(o[i].step.rate.used, expected[i].rate_used) << i;
    EXPECT_EQ(o[i].step.quota.allowed, expected[i].quota) << i;
    EXPECT_EQ(o[i].step.quota.used, expected[i].quota_used) << i;
  }
}

}  // namespace toolcalc::testing_steps
