// http::write_response: the exact bytes of a response, and the same bytes when part of
// the body is sent from where it lives (Response::body_prefix, response_parts).
#include "http/response_writer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace toolcalc::http {
namespace {

std::string sent(const std::string& out, const api::Response& r, bool head) {
  std::string all;
  for (std::string_view part : response_parts(out, r, head)) all += part;
  return all;
}

const api::HeaderBlock kCommon({{"Access-Control-Allow-Origin", "*"},
                                {"Cache-Control", "no-store"}});

api::Response example() {
  api::Response r;
  r.set_header("X-Request-ID", "req_1");
  r.common_headers = &kCommon;
  r.body = R"({"ok":true})";
  return r;
}

TEST(ResponseWriter, WritesStatusHeadersCommonBlockLengthAndBody) {
  std::string out;
  write_response(out, example(), 11, true);
  EXPECT_EQ(out,
            "HTTP/1.1 200 OK\r\n"
            "X-Request-ID: req_1\r\n"
            "Access-Control-Allow-Origin: *\r\n"
            "Cache-Control: no-store\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            "Content-Length: 11\r\n"
            "\r\n"
            R"({"ok":true})");
}

TEST(ResponseWriter, HeaderLookupSeesTheCommonBlock) {
  const api::Response r = example();
  ASSERT_TRUE(r.header("Cache-Control").has_value());
  EXPECT_EQ(*r.header("Cache-Control"), "no-store");
  EXPECT_EQ(*r.header("X-Request-ID"), "req_1");
  EXPECT_FALSE(r.header("ETag").has_value());
}

// A shared prefix is not copied into `out`, and what goes on the wire is byte for byte
// what the same body held whole would have sent.
TEST(ResponseWriter, SharedPrefixIsSentUncopiedAndIdentical) {
  const std::string shared = R"({"ok":true,"result":{"items":[]},"meta":{"request_id":")";
  api::Response whole = example();
  whole.body = shared + R"(req_1"}})";
  api::Response split = example();
  split.body_prefix = shared;
  split.body = R"(req_1"}})";
  ASSERT_EQ(split.full_body(), whole.body);
  ASSERT_EQ(split.body_size(), whole.body.size());

  std::string out_whole, out_split;
  write_response(out_whole, whole, 11, true);
  write_response(out_split, split, 11, true);
  EXPECT_EQ(out_split.find("items"), std::string::npos);  // only the head was written
  EXPECT_EQ(sent(out_split, split, false), out_whole);
  const auto parts = response_parts(out_split, split, false);
  EXPECT_EQ(parts[1].data(), shared.data());  // from where it lives

  // HEAD: the head with GET's Content-Length, no body either way.
  write_response(out_whole, whole, 11, true, true);
  write_response(out_split, split, 11, true, true);
  EXPECT_EQ(sent(out_split, split, true), out_whole);
  EXPECT_NE(out_whole.find("Content-Length: " + std::to_string(whole.body.size()) + "\r\n"),
            std::string::npos);
  EXPECT_TRUE(out_whole.ends_with("\r\n\r\n"));
}

// X-Request-ID, X-Tool-Version and the X-RateLimit-* numbers are rendered by the API layer
// (write_lead_headers) and sent first; header() reads them as they are sent.
TEST(ResponseWriter, WritesToolVersionAndRateLimitNumbers) {
  api::Response r;
  r.status = 429;
  r.request_id = "req_2";
  api::write_lead_headers(r, "1.2.3", api::RateLimitHeaders{60, 0, 1800000060, 1800000043, {}});
  r.set_header("Retry-After", "17");
  r.body = "{}";
  std::string out;
  write_response(out, r, 11, true);
  EXPECT_EQ(out,
            "HTTP/1.1 429 Too Many Requests\r\n"
            "X-Request-ID: req_2\r\n"
            "X-Tool-Version: 1.2.3\r\n"
            "X-RateLimit-Limit: 60\r\n"
            "X-RateLimit-Remaining: 0\r\n"
            "X-RateLimit-Reset: 1800000060\r\n"
            "RateLimit-Policy: \"minute\";q=60;w=60\r\n"
            "RateLimit: \"minute\";r=0;t=17\r\n"
            "Retry-After: 17\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            "Content-Length: 2\r\n"
            "\r\n"
            "{}");
  EXPECT_EQ(r.header("X-Tool-Version"), "1.2.3");
  EXPECT_EQ(r.header("X-RateLimit-Limit"), "60");
  EXPECT_EQ(r.header("X-RateLimit-Remaining"), "0");
  EXPECT_EQ(r.header("X-RateLimit-Reset"), "1800000060");
  EXPECT_EQ(r.header("Retry-After"), "17");
  EXPECT_EQ(r.header("RateLimit"), "\"minute\";r=0;t=17");

  // The month's policy follows the minute's in each field.
  api::write_lead_headers(
      r, "1.2.3", api::RateLimitHeaders{60, 5, 1800000060, 1800000043, {{1000, 7, 2678400, 99}}});
  EXPECT_EQ(r.header("RateLimit-Policy"), "\"minute\";q=60;w=60, \"month\";q=1000;w=2678400");
  EXPECT_EQ(r.header("RateLimit"), "\"minute\";r=5;t=17, \"month\";r=7;t=99");

  // The largest numbers and a long header still fit the head's size bound.
  api::write_lead_headers(r, "1.2.3",
                          api::RateLimitHeaders{INT64_MIN,
                                                INT64_MAX,
                                                INT64_MIN,
                                                INT64_MIN,
                                                {{INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX}}});
  r.status = 1234567890;
  r.set_header("X-Long", std::string(5000, 'x'));
  write_response(out, r, 11, false);
  EXPECT_NE(out.find("X-RateLimit-Limit: -9223372036854775808\r\n"), std::string::npos);
  EXPECT_NE(out.find("X-Long: " + std::string(5000, 'x') + "\r\n"), std::string::npos);
  EXPECT_TRUE(out.ends_with("Connection: close\r\n\r\n{}"));
}

TEST(ResponseWriter, NoContentHasNoLengthAndHttp10KeepAliveIsSaid) {
  api::Response r;
  r.status = 204;
  std::string out;
  write_response(out, r, 10, true);
  EXPECT_EQ(out, "HTTP/1.0 204 No Content\r\nConnection: keep-alive\r\n\r\n");
  write_response(out, r, 11, false);
  EXPECT_EQ(out, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
}

}  // namespace
}  // namespace toolcalc::http
