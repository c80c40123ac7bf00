#pragma once
// Serialises an api::Response as an HTTP/1.x message into one reused buffer, so a
// response costs one write and no per-header allocation (Beast's fields container
// allocates a node per header).
#include <array>
#include <string>
#include <string_view>

#include "api/response.hpp"

namespace toolcalc::http {

// `version` is 10 or 11. The body is sent with Content-Length (204 and 304 have none);
// `head`: the request was HEAD, so the headers are written without the body. A body with
// a body_prefix is not copied: `out` gets the head only, and the caller sends `out`,
// body_prefix and body in one gathered write (response_parts).
void write_response(std::string& out, const api::Response& response, unsigned version,
                    bool keep_alive, bool head = false);

// What to send after write_response(out, response, …, head): `out`, then the parts of the
// body it did not copy (none, or body_prefix and body).
inline std::array<std::string_view, 3> response_parts(const std::string& out,
                                                      const api::Response& response, bool head) {
  if (head || response.body_prefix.empty()) return {out, {}, {}};
  return {out, response.body_prefix, response.body};
}

}  // namespace toolcalc::http
