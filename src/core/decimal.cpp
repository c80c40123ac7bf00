#include "core/decimal.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

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

  // Build the integer N = round(|value| × 10^places) as a digit string.
  // Digits kept: those before position point + places.
  const int keep = d.point + places;  // number of leading digits that survive
  std::string n;                      // digits of N, most significant first
  if (keep < 0) {
    n = "0";
  } else {
    for (int i = 0; i < keep; ++i) n += (i < d.count) ? d.digits[i] : '0';
    const bool round_up = keep < d.count && d.digits[keep] >= '5';  // half away from zero
    if (n.empty()) n = "0";
    if (round_up) {
      int i = static_cast<int>(n.size()) - 1;
      while (i >= 0 && n[static_cast<size_t>(i)] == '9') n[static_cast<size_t>(i--)] = '0';
      if (i < 0)
        n.insert(n.begin(), '1');
      else
        ++n[static_cast<size_t>(i)];
    }
  }
  // Strip leading zeros but keep at least places+1 digits so there is an integer part.
  size_t first = n.find_first_not_of('0');
  const bool is_zero = first == std::string::npos;
  if (is_zero) n.assign(1, '0');
  else n.erase(0, first);
  if (n.size() < static_cast<size_t>(places) + 1)
    n.insert(0, static_cast<size_t>(places) + 1 - n.size(), '0');

  if (negative && !is_zero) out += '-';
  const size_t int_len = n.size() - static_cast<size_t>(places);
  out.append(n, 0, int_len);
  if (places > 0) {
    out += '.';
    out.append(n, int_len, std::string::npos);
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
