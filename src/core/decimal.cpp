#include "core/decimal.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace toolcalc {
namespace {

// Decomposes a finite, non-zero |value| into its shortest round-trip significant digits
// and decimal exponent: value = 0.d1d2d3... × 10^point.
struct Digits {
  char digits[32];
  int count = 0;
  int point = 0;  // position of the decimal point relative to the first digit
};

Digits shortest_digits(double magnitude) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, magnitude, std::chars_format::scientific);
  // Form: d[.ddd]e±XX
  Digits d;
  const char* p = buf;
  const char* end = res.ptr;
  while (p < end && *p != 'e') {
    if (*p != '.') d.digits[d.count++] = *p;
    ++p;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exponent);
  d.point = exponent + 1;
  return d;
}

}  // namespace

void append_fixed(std::string& out, double value, int places) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  if (places < 0) places = 0;
  if (places > 15) places = 15;
  if (value == 0) {
    out += '0';
    if (places > 0) {
      out += '.';
      out.append(static_cast<size_t>(places), '0');
    }
    return;
  }
  const bool negative = value < 0;
  Digits d = shortest_digits(std::fabs(value));

  // Build the integer N = round(|value| × 10^places) as a digit string: the shortest
  // digits that survive (those before position point + places), rounded on the next one.
  // A fixed buffer: no allocation on the response path (|value| < 1e309, places ≤ 15).
  char n[400];
  int len = 0;
  const int keep = d.point + places;
  if (keep <= 0) {
    n[len++] = (keep == 0 && d.digits[0] >= '5') ? '1' : '0';  // half away from zero
  } else {
    for (int i = 0; i < keep; ++i) n[len++] = (i < d.count) ? d.digits[i] : '0';
    if (keep < d.count && d.digits[keep] >= '5') {  // half away from zero
      int i = len - 1;
      while (i >= 0 && n[i] == '9') n[i--] = '0';
      if (i >= 0) {
        ++n[i];
      } else {
        std::memmove(n + 1, n, static_cast<size_t>(len++));
        n[0] = '1';
      }
    }
  }
  // Drop leading zeros, then pad so there is at least one integer digit.
  int first = 0;
  while (first < len && n[first] == '0') ++first;
  const bool is_zero = first == len;
  if (negative && !is_zero) out += '-';
  const int digits = len - first;
  if (digits <= places) {
    out += "0";
    if (places > 0) {
      out += '.';
      out.append(static_cast<size_t>(places - digits), '0');
      out.append(n + first, static_cast<size_t>(digits));
    }
  } else {
    const int int_len = digits - places;
    out.append(n + first, static_cast<size_t>(int_len));
    if (places > 0) {
      out += '.';
      out.append(n + first + int_len, static_cast<size_t>(places));
    }
  }
}

std::string format_fixed(double value, int places) {
  std::string s;
  append_fixed(s, value, places);
  return s;
}

void append_shortest(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  if (value == 0) {
    out += '0';
    return;
  }
  if (value < 0) out += '-';
  Digits d = shortest_digits(std::fabs(value));
  if (d.point <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-d.point), '0');
    out.append(d.digits, static_cast<size_t>(d.count));
  } else if (d.point >= d.count) {
    out.append(d.digits, static_cast<size_t>(d.count));
    out.append(static_cast<size_t>(d.point - d.count), '0');
  } else {
    out.append(d.digits, static_cast<size_t>(d.point));
    out += '.';
    out.append(d.digits + d.point, static_cast<size_t>(d.count - d.point));
  }
}

}  // namespace toolcalc
