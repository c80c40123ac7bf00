#include "api/request_id.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <stdexcept>

namespace toolcalc::api {
namespace {

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Per-thread buffer of CSPRNG bytes: one getrandom call serves ~100 request ids.
struct RandomBuffer {
  uint8_t bytes[4096];
  size_t used = sizeof bytes;

  uint8_t next() {
    if (used == sizeof bytes) refill();
    return bytes[used++];
  }
  void refill() {
    size_t got = 0;
    while (got < sizeof bytes) {
      const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error("getrandom failed");
      }
      got += static_cast<size_t>(n);
    }
    used = 0;
  }
};

thread_local RandomBuffer random_buffer;

}  // namespace

void append_random_base62(std::string& out, size_t count) {
  char chars[32];
  while (count > 0) {
    const size_t n = std::min(count, sizeof chars);
    size_t made = 0;
    while (made < n) {
      // The low 6 bits of a uniform byte are uniform over 0..63; 62 and 63 are rejected
      // so that every character is equally likely.
      const uint8_t v = random_buffer.next() & 63;
      if (v < 62) chars[made++] = kBase62[v];
    }
    out.append(chars, n);  // one append, not one per character
    count -= n;
  }
}

void assign_request_id(std::string& id) {
  id.assign("req_");
  append_random_base62(id, 24);
}

std::string new_request_id() {
  std::string id;
  id.reserve(28);
  assign_request_id(id);
  return id;
}

}  // namespace toolcalc::api
