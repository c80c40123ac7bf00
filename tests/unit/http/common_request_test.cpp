// parse_common_request: what it accepts it parses exactly as Beast's parser does
// (RequestParser, as the connection drives it), and what it declines is left to Beast.
#include "http/common_request.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "common_request_reference.hpp"

namespace toolcalc::http {
namespace {

using reference::beast;
using reference::difference;
using reference::fast;
using reference::kHeaderLimit;

void expect_same(const reference::Parsed& a, const reference::Parsed& b, std::string_view bytes) {
  EXPECT_EQ(difference(a, b), "") << "input: " << bytes;
}

// The request wrk sends in `make bench`, and requests as curl, browsers and agents send.
const std::vector<std::string> kRequests = {
    "POST /v1/iot-mcu/battery-life HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
    "Authorization: Bearer tc_live_0123456789abcdefABCDEF0123456789\r\n"
    "Content-Type: application/json\r\nContent-Length: 23\r\n\r\n"
    R"({"battery_mah": 2000.5})",
    "GET /v1/tools?domain=iot-mcu&limit=5 HTTP/1.1\r\nHost: localhost\r\n"
    "User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
    "GET /v1/tools HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "GET /v1/tools HTTP/1.0\r\n\r\n",
    "GET /v1/health HTTP/1.1\r\nconnection: CLOSE\r\n\r\n",
    "OPTIONS /v1/iot-mcu/battery-life HTTP/1.1\r\nOrigin: https://example.com\r\n"
    "Access-Control-Request-Method: POST\r\n\r\n",
    "POST /mcp HTTP/1.1\r\nmcp-protocol-version:2025-06-18\r\nCONTENT-TYPE:  application/json ; "
    "charset=utf-8 \t\r\ncontent-length: 2\r\n\r\n{}",
    "GET /playground/ HTTP/1.1\r\nIf-None-Match: \"abc\"\r\nIf-None-Match: \"def\"\r\n"
    "Origin:\r\nOrigin: second\r\n\r\n",
    "POST /v1/x/y HTTP/1.1\r\nAuthorization:\r\nAuthorization: Bearer later\r\n"
    "Content-Length: 0\r\n\r\n",
    "GET / HTTP/1.1\r\nX-Odd: caf\xc3\xa9 \x80\xff\r\nX-Empty:\r\n\r\n",
    // two pipelined requests: the first is consumed, the second left in the buffer
    "GET /v1/health HTTP/1.1\r\n\r\nGET /v1/tools HTTP/1.1\r\n\r\n",
};

TEST(CommonRequest, ParsesCommonRequestsAsBeastDoes) {
  for (const std::string& r : kRequests) {
    const auto f = fast(r);
    const auto b = beast(r);
    ASSERT_TRUE(f) << "declined: " << r;
    ASSERT_TRUE(b) << "Beast refused: " << r;
    expect_same(*f, *b, r);
  }
}

TEST(CommonRequest, ReadsTheValuesTheApiUses) {
  const auto f = fast(kRequests[0]);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->head.method, "POST");
  EXPECT_EQ(f->head.target, "/v1/iot-mcu/battery-life");
  EXPECT_EQ(f->head.version, 11u);
  EXPECT_EQ(f->head.authorization, "Bearer tc_live_0123456789abcdefABCDEF0123456789");
  EXPECT_EQ(f->head.content_type, "application/json");
  EXPECT_EQ(f->head.body, R"({"battery_mah": 2000.5})");
  EXPECT_EQ(f->consumed, kRequests[0].size());
  EXPECT_TRUE(f->keep_alive);

  const auto mcp = fast(kRequests[6]);
  ASSERT_TRUE(mcp);
  EXPECT_EQ(mcp->head.content_type, "application/json ; charset=utf-8");  // OWS trimmed
  EXPECT_EQ(mcp->head.mcp_protocol_version, "2025-06-18");

  EXPECT_FALSE(fast(kRequests[3])->keep_alive);  // HTTP/1.0 without keep-alive
  EXPECT_TRUE(fast(kRequests[2])->keep_alive);
  EXPECT_FALSE(fast(kRequests[4])->keep_alive);  // close, in any case

  const auto pipelined = fast(kRequests.back());
  ASSERT_TRUE(pipelined);
  EXPECT_EQ(pipelined->consumed, std::string_view("GET /v1/health HTTP/1.1\r\n\r\n").size());
}

// What the fast path leaves to Beast: framing it does not handle, partial requests, and
// anything over a limit (Beast answers those with its errors).
TEST(CommonRequest, DeclinesWhatBeastMustDecide) {
  const std::vector<std::string> declined = {
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}",
      "GET /x HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
      "GET /x HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n",
      "GET /x HTTP/1.1\r\nProxy-Connection: close\r\n\r\n",
      "POST /x HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
      "POST /x HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\n{}",
      "POST /x HTTP/1.1\r\nContent-Length: +2\r\n\r\n{}",
      "POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\n{}",    // body still arriving
      "POST /x HTTP/1.1\r\nContent-Length: 70000\r\n\r\n",  // over the body limit
      "GET /x HTTP/1.1\r\nX-Folded: a\r\n b\r\n\r\n",       // obs-fold
      "GET /x HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n",      // two Hosts: Beast's path refuses
      "GET /x HTTP/1.1\r\nHost:\r\nHost: a\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: a\r\n",         // header incomplete
      "GET /x HTTP/1.1\r\nHost: a\r\n\r",       // header incomplete
      "GET /x HTTP/1.1\r\nHost: a\n\r\n",       // bare LF
      "GET /x HTTP/1.1\r\nHost: a\rb\r\n\r\n",  // bare CR
      "GET /x HTTP/1.1\r\nHo st: a\r\n\r\n",
      "GET /x HTTP/1.1\r\n: a\r\n\r\n",
      "GET /x HTTP/1.1\r\n Host: a\r\n\r\n",
      "GET /x HTTP/1.1\r\nX: a\x01\r\n\r\n",
      "GET /x HTTP/1.1\r\nX: a\x7f\r\n\r\n",
      "GET /x HTTP/2.0\r\n\r\n",
      "GET /x HTTP/1.1 \r\n\r\n",
      "GET  /x HTTP/1.1\r\n\r\n",
      "get /x HTTP/1.1\r\n\r\n",
      "M-SEARCH * HTTP/1.1\r\n\r\n",
      "GET /caf\xc3\xa9 HTTP/1.1\r\n\r\n",
      "\r\nGET /x HTTP/1.1\r\n\r\n",
      "GET /x HTTP/1.1\r\nX: " + std::string(kHeaderLimit, 'a') + "\r\n\r\n",
      "",
  };
  for (const std::string& r : declined) EXPECT_FALSE(fast(r)) << r;
}

// The differential check: every truncation of the requests above, and every one of them
// with one byte replaced by a byte that matters to HTTP framing, is either declined or
// parsed exactly as Beast parses it.
TEST(CommonRequest, WhatItAcceptsBeastParsesTheSame) {
  // Appended in place: g++ 12 warns falsely (-Warray-bounds) on the same string built with
  // operator+ at -O1.
  std::string replacements(" \t\r\n:,;\"\x7f\x80\xff\x01", 12);
  replacements += '\0';
  replacements += "aZ09-/?=";
  int accepted = 0, checked = 0;
  const auto check = [&](const std::string& bytes) {
    ++checked;
    const auto f = fast(bytes);
    if (!f) return;
    ++accepted;
    const auto b = beast(bytes);
    ASSERT_TRUE(b) << "accepted what Beast refuses: " << bytes;
    expect_same(*f, *b, bytes);
  };
  for (const std::string& r : kRequests) {
    for (std::size_t n = 0; n <= r.size(); ++n) check(r.substr(0, n));
    for (std::size_t i = 0; i < r.size(); ++i)
      for (char c : replacements) {
        if (r[i] == c) continue;
        std::string mutated = r;
        mutated[i] = c;
        check(mutated);
        mutated.insert(i, 1, c);  // and the byte inserted before
        check(mutated);
      }
  }
  // The check ran on both sides of the line: many inputs accepted, many declined.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(checked - accepted, 1000);
}

}  // namespace
}  // namespace toolcalc::http
