#pragma once
// The reference for parse_common_request (http/common_request.hpp): both parsers on the
// same fully buffered bytes, and their results compared field by field. Used by the unit
// test (tests/unit/http/common_request_test.cpp) and the HTTP fuzzer (fuzz/fuzz_http.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "http/common_request.hpp"
#include "http/request_parser.hpp"

namespace toolcalc::http::reference {

inline constexpr std::size_t kHeaderLimit = 8 * 1024;
inline constexpr std::uint64_t kBodyLimit = 64 * 1024;

struct Parsed {
  RequestHead head;
  std::size_t consumed = 0;
  bool keep_alive = false;
};

inline std::optional<Parsed> fast(std::string_view bytes) {
  Parsed p;
  const CommonRequest r = parse_common_request(bytes, kHeaderLimit, kBodyLimit, p.head);
  if (r.consumed == 0) return std::nullopt;
  p.consumed = r.consumed;
  p.keep_alive = r.keep_alive;
  return p;
}

// Beast's parser on the same bytes, all buffered, as serve_requests drives it: the header
// first, then eagerly the body. nullopt when Beast refuses or wants more bytes, or when
// the connection would refuse the request (a header over the limit, Transfer-Encoding,
// more than one Host).
inline std::optional<Parsed> beast(std::string_view bytes) {
  Parsed p;
  RequestParser parser(p.head);
  parser.header_limit(static_cast<std::uint32_t>(kHeaderLimit));
  parser.body_limit(kBodyLimit);
  boost::beast::error_code ec;
  std::size_t used = parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec || !parser.is_header_done()) return std::nullopt;
  if (used > kHeaderLimit || p.head.transfer_encoding_fields > 0 || p.head.host_fields > 1)
    return std::nullopt;
  parser.eager(true);
  if (!parser.is_done()) {
    used += parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
    if (ec || !parser.is_done()) return std::nullopt;
  }
  p.consumed = used;
  p.keep_alive = parser.keep_alive();
  return p;
}

// The first difference between two parses of the same request, or "" when they agree.
inline std::string difference(const Parsed& a, const Parsed& b) {
  if (a.consumed != b.consumed) return "consumed";
  if (a.keep_alive != b.keep_alive) return "keep_alive";
  const RequestHead& x = a.head;
  const RequestHead& y = b.head;
  if (x.method != y.method) return "method";
  if (x.target != y.target) return "target";
  if (x.version != y.version) return "version";
  if (x.content_type != y.content_type) return "content_type";
  if (x.has_authorization != y.has_authorization || x.authorization != y.authorization)
    return "authorization";
  if (x.origin != y.origin) return "origin";
  if (x.host_fields != y.host_fields || x.host != y.host) return "host";
  if (x.mcp_protocol_version != y.mcp_protocol_version) return "mcp_protocol_version";
  if (x.if_none_match != y.if_none_match) return "if_none_match";
  if (x.body != y.body) return "body";
  if (x.transfer_encoding_fields != y.transfer_encoding_fields) return "transfer_encoding";
  if (x.expect_continue != y.expect_continue) return "expect_continue";
  return "";
}

}  // namespace toolcalc::http::reference
