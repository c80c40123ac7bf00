#pragma once
// Serialises an api::Response as an HTTP/1.x message into one reused buffer, so a
// response costs one write and no per-header allocation (Beast's fields container
// allocates a node per header).
#include <string>

#include "api/response.hpp"

namespace toolcalc::http {

// `version` is 10 or 11. The body is sent with Content-Length (204 and 304 have none);
// `head`: the request was HEAD, so the headers are written without the body.
void write_response(std::string& out, const api::Response& response, unsigned version,
                    bool keep_alive, bool head = false);

}  // namespace toolcalc::http
