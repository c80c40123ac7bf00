#include "api/request_id.hpp"

#include <sys/random.h>

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
  while (count > 0) {
    const uint8_t b = random_buffer.next();
    if (b >= 248) continue;  // 248 = 4·62: reject so every character is equally likely
    out += kBase62[b % 62];
    --count;
  }
}

std::string new_request_id() {
  std::string id;
  id.reserve(28);
  id += "req_";
  append_random_base62(id, 24);
  return id;
}

}  // namespace toolcalc::api
