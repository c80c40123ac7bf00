#include "api/access_log.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

using namespace toolcalc::api;

namespace {

std::string log_line(const AccessLogEntry& e) {
  std::FILE* f = std::tmpfile();
  toolcalc::LineWriter writer(::fileno(f), "access log");
  AccessLog(&writer).write(e);
  std::rewind(f);
  char buf[1024] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  return std::string(buf, n);
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
