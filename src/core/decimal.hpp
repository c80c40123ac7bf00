#pragma once
// Plain-decimal rendering of numbers at a fixed number of places (docs/api.md, "Numbers": never
// exponent notation, round once at the end, half away from zero).
#include <cstdint>
#include <string>
#include <string_view>

namespace toolcalc {

// Writes `v` in decimal at `p` (at most 20 characters for either type, with the sign) and
// returns the end: two digits per step from a table, with the length found first, so it
// is cheaper than std::to_chars on the response path (headers, integers, fixed decimals).
char* write_decimal(char* p, uint64_t v);
char* write_decimal(char* p, int64_t v);
inline constexpr size_t kMaxDecimalChars = 20;

// write_decimal as a string (header values, messages).
inline std::string decimal_string(int64_t v) {
  char buf[kMaxDecimalChars];
  return std::string(buf, write_decimal(buf, v));
}

// Appends `value` rounded to `places` decimals (0..15) to `out`, e.g. 343.33 → "343.3",
// 1440.0 with 0 places → "1440". Rounding is applied to the shortest decimal that
// round-trips to the double (what a person reads, so 0.125 → "0.13" and 1.005 → "1.01"),
// half away from zero. A result that rounds to zero is written without a sign.
// Non-finite values are written as `null` (they are never produced by a checked tool).
void append_fixed(std::string& out, double value, int places);
std::string format_fixed(double value, int places);

// The same result computed the slow, obviously-correct way: always from the shortest
// digits. append_fixed takes a faster path when the rounding cannot differ (see there);
// the tests compare the two over many values.
void append_fixed_from_shortest_digits(std::string& out, double value, int places);

// Shortest round-trip plain decimal (no exponent), used for descriptor bounds and
// defaults such as 0.001, 1000000000 or 0.075.
void append_shortest(std::string& out, double value);
std::string format_shortest(double value);

// True when JSON text has a number outside strings in exponent form (3.7e7): what the
// service never publishes (the fuzzers check every body; the catalog every example).
bool has_exponent_number(std::string_view json);

}  // namespace toolcalc
