#pragma once
// A parser for the common request only, tried before Beast's on every request: the whole
// request already buffered, a request line of an upper-case method, a printable-ASCII
// target and HTTP/1.0 or 1.1, headers without obs-fold, an optional single all-digit
// Content-Length, and Connection (if any) exactly "close" or "keep-alive". Anything else
// (Transfer-Encoding, Expect, Upgrade, a partial request, a header or body over its
// limit, any byte outside these rules) is declined, and Beast's parser (RequestParser)
// handles the request as it did before, with its framing checks and its errors.
//
// What it accepts, it parses exactly as RequestParser does: the same method, target,
// version, recorded headers (record_field), body, keep-alive and bytes consumed. The
// tests (tests/unit/http/common_request_test.cpp) and the HTTP fuzzer check this against
// Beast on every input the fast path accepts. It exists for speed: Beast's parser was the
// largest single cost of a request (session 5 in
// docs/history/performance-and-reliability-log.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http/request_head.hpp"

namespace toolcalc::http {

struct CommonRequest {
  std::size_t consumed = 0;  // bytes of the request, header and body; 0: declined
  bool keep_alive = false;   // as Beast's parser.keep_alive() would answer
};

// Parses the request at the start of `bytes` into `head` (which the caller has cleared).
// On decline, `head` may hold part of the request: clear it before parsing again.
CommonRequest parse_common_request(std::string_view bytes, std::size_t header_limit,
                                   std::uint64_t body_limit, RequestHead& head);

}  // namespace toolcalc::http
