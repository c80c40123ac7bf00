#include "api/access_log.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/json_writer.hpp"

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

TEST(AccessLog, RedactsEveryKeyOfEitherKindAndLeavesOtherTcWordsAlone) {
  const std::string line = log_line(
      {0, "req_x", "", "GET",
       "/tc_x/tc_test_ZyXwVuTsRqPo/tc_live_AbCdEfGhIjKl/tc_live_/tc_livex_AbCdEfGh", 404, 1});
  EXPECT_NE(line.find(R"("path":"/tc_x/tc_test_ZyXw[redacted]/tc_live_AbCd[redacted]/)"
                      R"(tc_live_/tc_livex_AbCdEfGh")"),
            std::string::npos)
      << line;
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

TEST(AccessLog, EscapesWhatAClientSentExactlyAsTheJsonWriterDoes) {
  // Method and path come from the client: every byte that needs an escape, control
  // characters, UTF-8 (valid and not) must come out as toolcalc's JSON writer writes them.
  const std::vector<std::string> samples = {
      "/plain/path",     "/quote\"d",    "/back\\slash", std::string("/ctl\x01\x1f\x7f", 7),
      "/tab\tnew\nline", "/caf\xc3\xa9", "/bad\xff\xfe", std::string(300, 'x')};
  for (const std::string& sample : samples) {
    const std::string method = "M" + sample.substr(0, 20);
    const std::string line = log_line({1'800'000'000'123, "req_abc", "", method, sample, 404, 3});
    std::string expected;
    toolcalc::JsonWriter w(expected);
    w.begin_object().field("time", "2027-01-15T08:00:00.123Z").field("request_id", "req_abc");
    w.field("key_prefix", "").field("method", std::string_view(method).substr(0, 16));
    w.field("path", std::string_view(sample).substr(0, 256)).field("status", 404);
    w.field("latency_us", int64_t{3});
    w.end_object();
    expected += '\n';
    EXPECT_EQ(line, expected) << sample;
  }
}
