#include "core/decimal.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/wrapping.hpp"

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

// Writes the integer n as a decimal with `places` (0..15) digits after the point ("0.05"
// for n = 5, places = 2), with a minus sign when `negative` and n != 0: composed in a
// buffer and appended once. The digits are written where they end up when n has more
// than `places` of them; the integer part then moves one place left for the point (a
// few bytes, copied by hand rather than by a library call per number).
void append_scaled_integer(std::string& out, uint64_t n, int places, bool negative) {
  char text[1 + 2 + 15 + kMaxDecimalChars];  // sign, "0.", up to 15 zeros, the digits
  char* const digits = text + 1 + 2 + 15;
  const int len = static_cast<int>(write_decimal(digits, n) - digits);
  char* const end = digits + len;
  char* start;
  if (len <= places) {
    start = digits - (places - len) - 2;
    start[0] = '0';
    start[1] = '.';
    std::memset(start + 2, '0', static_cast<size_t>(places - len));
  } else if (places == 0) {
    start = digits;
  } else {
    start = digits - 1;
    const int whole = len - places;
    for (int i = 0; i < whole; ++i) start[i] = digits[i];
    start[whole] = '.';
  }
  if (negative && n != 0) *--start = '-';
  out.append(start, static_cast<size_t>(end - start));
}

constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Digits two at a time by fixed-point multiplication instead of a division per pair
// (James Anhalt's method, as described by Lemire, "Converting integers to decimal
// strings faster", 2021). For n < 100·D, D = 10^(2·(pairs-1)): f = n·ceil(2^57 / D) holds
// n / D in its top bits; the integer part is the leading pair (or digit) and each step
// multiplies the fraction by 100 to bring up the next pair. The rounding error of the
// constant, n·(M − 2^57/D) < 10^8 < 2^27, stays below 2^-30 of a unit after the first
// step and below 10^6·2^-30 < 0.001 after the last, so no digit is ever off by one
// (the tests compare all lengths and a million values with std::to_chars), and
// f < 100·2^57 + 100·D < 2^64.
constexpr int kFractionBits = 57;
constexpr uint64_t kFractionMask = (uint64_t{1} << kFractionBits) - 1;
constexpr uint64_t kReciprocals[4] = {
    uint64_t{1} << kFractionBits,
    ((uint64_t{1} << kFractionBits) + 99) / 100,
    ((uint64_t{1} << kFractionBits) + 9'999) / 10'000,
    ((uint64_t{1} << kFractionBits) + 999'999) / 1'000'000,
};

void copy_pair(char* p, uint64_t pair) {
  std::memcpy(p, kDigitPairs + pair * 2, 2);
}

// Writes n < 10^8, which has `len` digits (1..8), and returns the end.
char* write_below_1e8(char* p, uint64_t n, int len) {
  const int pairs = (len + 1) / 2;
  uint64_t f = n * kReciprocals[pairs - 1];
  const uint64_t lead = f >> kFractionBits;
  if (len % 2 == 1) {
    *p++ = static_cast<char>('0' + lead);
  } else {
    copy_pair(p, lead);
    p += 2;
  }
  for (int i = 1; i < pairs; ++i) {
    f = (f & kFractionMask) * 100;
    copy_pair(p, f >> kFractionBits);
    p += 2;
  }
  return p;
}

}  // namespace

char* write_decimal(char* p, uint64_t v) {
  // The digit count from the bit width (log10 2 ≈ 1233 / 4096), corrected by one
  // comparison (Bit Twiddling Hacks, "Find integer log base 10 of an integer").
  static constexpr uint64_t kPowersOf10[20] = {1ull,
                                               10ull,
                                               100ull,
                                               1000ull,
                                               10000ull,
                                               100000ull,
                                               1000000ull,
                                               10000000ull,
                                               100000000ull,
                                               1000000000ull,
                                               10000000000ull,
                                               100000000000ull,
                                               1000000000000ull,
                                               10000000000000ull,
                                               100000000000000ull,
                                               1000000000000000ull,
                                               10000000000000000ull,
                                               100000000000000000ull,
                                               1000000000000000000ull,
                                               10000000000000000000ull};
  // v | 1 has the digits of v (a power of ten is even) and counts 0 as one digit.
  const uint64_t odd = v | 1;
  const int bits = 64 - __builtin_clzll(odd);
  const int log10_estimate = (bits * 1233) >> 12;  // floor(log10 v) or one more
  const int len = log10_estimate - (odd < kPowersOf10[log10_estimate] ? 1 : 0) + 1;
  if (len <= 8) return write_below_1e8(p, v, len);
  // Blocks of eight digits below the leading one, each written in full.
  constexpr uint64_t kBlock = 100'000'000;
  if (len <= 16) {
    p = write_below_1e8(p, v / kBlock, len - 8);
    return write_below_1e8(p, v % kBlock, 8);
  }
  const uint64_t high = v / kBlock;
  p = write_below_1e8(p, high / kBlock, len - 16);
  p = write_below_1e8(p, high % kBlock, 8);
  return write_below_1e8(p, v % kBlock, 8);
}

TOOLCALC_WRAPPING char* write_decimal(char* p, int64_t v) {
  if (v >= 0) return write_decimal(p, static_cast<uint64_t>(v));
  *p++ = '-';
  // The magnitude of INT64_MIN does not fit an int64_t; it does fit the unsigned type.
  return write_decimal(p, 0 - static_cast<uint64_t>(v));
}

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

std::string format_shortest(double value) {
  std::string s;
  append_shortest(s, value);
  return s;
}

// Outside strings JSON's only letters are true/false/null, where an 'e' never follows a
// digit or a dot.
bool has_exponent_number(std::string_view json) {
  bool in_string = false, escaped = false;
  char prev = 0;
  for (const char c : json) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((c == 'e' || c == 'E') && ((prev >= '0' && prev <= '9') || prev == '.')) {
      return true;
    }
    prev = c;
  }
  return false;
}

}  // namespace toolcalc
