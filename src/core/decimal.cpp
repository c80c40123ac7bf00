#include "core/decimal.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
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

// Writes the integer n as a decimal with `places` digits after the point ("0.05" for
// n = 5, places = 2), with a minus sign when `negative` and n != 0.
void append_scaled_integer(std::string& out, uint64_t n, int places, bool negative) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  const int len = static_cast<int>(r.ptr - buf);
  if (negative && n != 0) out += '-';
  if (len <= places) {
    out += "0.";
    out.append(static_cast<size_t>(places - len), '0');
    out.append(buf, static_cast<size_t>(len));
  } else {
    out.append(buf, static_cast<size_t>(len - places));
    if (places > 0) {
      out += '.';
      out.append(buf + len - places, static_cast<size_t>(places));
    }
  }
}

constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

}  // namespace

// Fast path. The rule rounds S, the shortest decimal that round-trips to `value`; S and
// value differ by at most half an ulp of value. Rounding S and rounding value (to `places`
// decimals, half away from zero) can only differ when a rounding boundary (k + ½)·10^-places
// lies between them or on one of them. scaled = |value|·10^places is computed with one
// rounding (10^places ≤ 10^15 is exact), so it is within half an ulp of the true product.
// When the fraction of scaled is farther than a few ulps of scaled from ½, no boundary can
// lie within reach of either error and round(scaled) is the answer: an integer division
// instead of formatting the shortest digits and re-reading them. Otherwise (near a tie, or
// beyond 2^52 where scaled has no fraction bits) the exact path decides.
void append_fixed(std::string& out, double value, int places) {
  if (std::isfinite(value) && value != 0 && places >= 0 && places <= 15) {
    const double scaled = std::fabs(value) * kPowersOfTen[places];
    if (scaled < 4503599627370496.0) {  // 2^52
      const double whole = std::floor(scaled);
      const double fraction = scaled - whole;  // exact below 2^52
      const double margin = scaled * 0x1p-49 + 0x1p-1000;
      if (std::fabs(fraction - 0.5) > margin) {
        const auto n = static_cast<uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
        append_scaled_integer(out, n, places, value < 0);
        return;
      }
    }
  }
  append_fixed_from_shortest_digits(out, value, places);
}

void append_fixed_from_shortest_digits(std::string& out, double value, int places) {
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
