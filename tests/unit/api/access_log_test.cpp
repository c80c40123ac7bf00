#include "api/access_log.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>
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

// One test per spelling a client's URL library may give a key in a path: the secret
// part never reaches the log, whatever the encoding.
class AccessLogSpelling : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(AccessLogSpelling, RedactsTheKey) {
  const auto& [path, logged] = GetParam();
  const std::string line = log_line({0, "req_x", "", "GET", path, 404, 1});
  EXPECT_EQ(line.find("EfGhIjKl"), std::string::npos) << line;
  EXPECT_EQ(line.find("%45%66%47"), std::string::npos) << line;
  EXPECT_NE(line.find(std::string(R"("path":")") + logged + '"'), std::string::npos) << line;
}

INSTANTIATE_TEST_SUITE_P(
    Encodings, AccessLogSpelling,
    ::testing::Values(
        std::pair{"/v1/tools/tc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
                  "/v1/tools/tc_live_AbCd[redacted]"},
        // percent-encoded underscores, upper and lower case hex, and mixed
        std::pair{"/v1/tools/tc%5Flive%5FAbCdEfGhIjKlMnOpQrStUvWxYz012345",
                  "/v1/tools/tc%5Flive%5FAbCd[redacted]"},
        std::pair{"/v1/tools/tc%5flive%5fAbCdEfGhIjKlMnOpQrStUvWxYz012345",
                  "/v1/tools/tc%5flive%5fAbCd[redacted]"},
        std::pair{"/v1/tools/tc%5Ftest%5fAbCdEfGhIjKlMnOpQrStUvWxYz012345/schema",
                  "/v1/tools/tc%5Ftest%5fAbCd[redacted]/schema"},
        // encoded twice and three times
        std::pair{"/v1/tools/tc%255Flive%255FAbCdEfGhIjKlMnOpQrStUvWxYz012345",
                  "/v1/tools/tc%255Flive%255FAbCd[redacted]"},
        std::pair{"/v1/tools/tc%25255Flive%25255FAbCdEfGhIjKlMnOpQrStUvWxYz012345",
                  "/v1/tools/tc%25255Flive%25255FAbCd[redacted]"},
        // letters encoded as well (an encoder that escapes everything)
        std::pair{"/v1/%74%63%5F%6C%69%76%65%5F%41%62%43%64%45%66%47%68IjKlMnOpQrStUvWxYz012345",
                  "/v1/%74%63%5F%6C%69%76%65%5F%41%62%43%64[redacted]"},
        // the secret's own characters encoded
        std::pair{"/v1/tc_live_AbCd%45%66%47hIjKlMnOpQrStUvWxYz012345/x",
                  "/v1/tc_live_AbCd[redacted]/x"}));

TEST(AccessLog, PlusIsLoggedAsItIsAndIsNoSpellingOfAKey) {
  // '+' means a space only in a form-encoded query string, which is never logged; no key
  // character is a space or '+'.
  const std::string line = log_line({0, "req_x", "", "GET", "/v1/a+b/tc_live_AbCdEf+Gh", 404, 1});
  EXPECT_NE(line.find(R"("path":"/v1/a+b/tc_live_AbCd[redacted]+Gh")"), std::string::npos) << line;
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
