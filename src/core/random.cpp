#include "core/random.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <system_error>

namespace toolcalc {
namespace {

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Per-thread buffer of CSPRNG words: one getrandom call serves ~170 request ids.
struct RandomBuffer {
  static constexpr std::size_t kWords = 512;
  uint64_t words[kWords];
  std::size_t used = kWords;

  uint64_t next() {
    if (used == kWords) {
      fill_random(reinterpret_cast<unsigned char*>(words), sizeof words);
      used = 0;
    }
    return words[used++];
  }
};

thread_local RandomBuffer random_buffer;

}  // namespace

void fill_random(unsigned char* out, std::size_t n) {
  while (n > 0) {
    const ssize_t got = getrandom(out, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
    out += got;
    n -= static_cast<std::size_t>(got);
  }
}

void append_random_base62(std::string& out, std::size_t count) {
  char chars[32];
  while (count > 0) {
    const std::size_t n = std::min(count, sizeof chars);
    std::size_t made = 0;
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

}  // namespace toolcalc
