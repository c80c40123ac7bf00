#pragma once
// The few text operations HTTP and configuration need, in one place: ASCII case folding
// (header names, tokens and media types are case-insensitive, RFC 9110 §5.1, §8.3.1) and
// trimming optional whitespace (SP and HTAB, RFC 9110 §5.6.3).
#include <array>
#include <string>
#include <string_view>

namespace toolcalc {

inline constexpr std::array<char, 256> kAsciiLower = [] {
  std::array<char, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<size_t>(c)] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return t;
}();

constexpr char ascii_lower(char c) {
  return kAsciiLower[static_cast<unsigned char>(c)];
}

// Equal ignoring ASCII case; other bytes must match exactly.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

inline std::string ascii_lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

constexpr bool is_optional_whitespace(char c) {
  return c == ' ' || c == '\t';
}

// `v` without leading and trailing SP and HTAB.
constexpr std::string_view trim(std::string_view v) {
  while (!v.empty() && is_optional_whitespace(v.front())) v.remove_prefix(1);
  while (!v.empty() && is_optional_whitespace(v.back())) v.remove_suffix(1);
  return v;
}

}  // namespace toolcalc
