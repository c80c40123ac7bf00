#include "api/access_log.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

using namespace toolcalc::api;

namespace {

std::string log_line(const AccessLogEntry& e) {
  std::string out;
  toolcalc::LineBuffer lines([&out](std::string_view text) { out += text; },
                             {0, std::chrono::milliseconds(0)});
  AccessLog(&lines).write(e);
  return out;
}

}  // namespace

TEST(AccessLog, WritesOneJsonLineWithoutQueryString) {
  const std::string line = log_line(
      {1'800'000'000'123, "req_abc", "tc_live_AbCd", "POST", "/v1/tools?secret=1", 200, 57});
  EXPECT_EQ(
      line,
      R"({"time":"2027-01-15T08:00:00.123Z","request_id":"req_abc","key_prefix":"tc_live_AbCd",)"
      R"("method":"POST","path":"/v1/tools","status":200,"latency_us":57})"
      "\n");
}

TEST(AccessLog, RedactsAKeyPastedIntoThePath) {
  const std::string line = log_line(
      {0, "req_x", "", "GET", "/v1/me/tc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345/x", 404, 1});
  EXPECT_EQ(line.find("EfGhIj"), std::string::npos) << line;
  EXPECT_NE(line.find("/v1/me/tc_live_AbCd[redacted]/x"), std::string::npos) << line;
}

TEST(AccessLog, DisabledWithoutASink) {
  EXPECT_FALSE(AccessLog(nullptr).enabled());
}

TEST(AccessLog, TimeKeepsItsMillisecondsAcrossLinesOfOneSecond) {
  // The date and time are formatted once per second and reused: each line still gets
  // its own milliseconds, and the next second its own time.
  EXPECT_NE(log_line({1'800'000'000'005, "a", "", "GET", "/", 200, 1})
                .find(R"("time":"2027-01-15T08:00:00.005Z")"),
            std::string::npos);
  EXPECT_NE(log_line({1'800'000'000'999, "a", "", "GET", "/", 200, 1})
                .find(R"("time":"2027-01-15T08:00:00.999Z")"),
            std::string::npos);
  EXPECT_NE(log_line({1'800'000'001'040, "a", "", "GET", "/", 200, 1})
                .find(R"("time":"2027-01-15T08:00:01.040Z")"),
            std::string::npos);
  EXPECT_NE(log_line({1'800'000'000'000, "a", "", "GET", "/", 200, 1})
                .find(R"("time":"2027-01-15T08:00:00.000Z")"),
            std::string::npos);
}
