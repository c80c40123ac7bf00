#pragma once
// Randomness from the OS CSPRNG (getrandom(2)) for everything that must be unguessable:
// API keys and request ids.
#include <array>
#include <cstddef>
#include <string>

namespace toolcalc {

// Fills `out` with `n` random bytes; throws std::system_error when the OS cannot.
void fill_random(unsigned char* out, std::size_t n);

// Appends `count` characters of [0-9A-Za-z], each uniform and independent (no modulo bias).
void append_random_base62(std::string& out, std::size_t count);

// One table lookup per character: a key is checked on every request that carries one.
inline constexpr std::array<bool, 256> kIsBase62 = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<std::size_t>(c)] =
        (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  return t;
}();

constexpr bool is_base62(char c) {
  return kIsBase62[static_cast<unsigned char>(c)];
}

}  // namespace toolcalc
