#include "api/request_id.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <stdexcept>

namespace toolcalc::api {
namespace {

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Per-thread buffer of CSPRNG words: one getrandom call serves ~170 request ids.
struct RandomBuffer {
  static constexpr size_t kWords = 512;
  uint64_t words[kWords];
  size_t used = kWords;

  uint64_t next() {
    if (used == kWords) refill();
    return words[used++];
  }
  void refill() {
    auto* bytes = reinterpret_cast<unsigned char*>(words);
    size_t got = 0;
    while (got < sizeof words) {
      const ssize_t n = getrandom(bytes + got, sizeof words - got, 0);
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
      // A uniform 64-bit word is ten independent uniform 6-bit groups (0..63) and four
      // spare bits; 62 and 63 are rejected so that every character is equally likely.
      uint64_t word = random_buffer.next();
      for (int group = 0; group < 10 && made < n; ++group, word >>= 6) {
        const auto v = static_cast<unsigned>(word & 63);
        if (v < 62) chars[made++] = kBase62[v];
      }
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
