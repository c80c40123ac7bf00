#pragma once
#include <string>

namespace toolcalc::api {

// "req_" + 24 base62 characters from the OS CSPRNG (≈143 bits): unique per call and
// unguessable. Client-sent X-Request-ID headers are ignored, never echoed.
std::string new_request_id();
// The same, written over `id` (keeps its capacity: no allocation when it is reused).
void assign_request_id(std::string& id);

}  // namespace toolcalc::api
