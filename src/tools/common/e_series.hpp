#pragma once
// IEC 60063:2015 preferred-number series (E12, E24, E96), shared by the tools of several domains
// that round a resistance or a capacitance to a part you can buy (electronics' resistor tools,
// iot-mcu's crystal-load-capacitors). Values are three significant digits: value × 100 in the
// decade 1 … 10. The tests of voltage-divider and led-series-resistor check every entry against
// the standard's list; e_series_test.cpp checks the searches.
#include <span>
#include <string_view>

namespace toolcalc::tools::e_series {

// "E12", "E24" or "E96" (anything else: E24, the descriptor's enum prevents it).
std::span<const int> series(std::string_view name);

// mantissa·10^exponent as the double nearest the decimal value (both factors exact).
double preferred_value(int mantissa, int exponent);

// The preferred value closest to r (> 0) on a logarithmic scale (the series are geometric,
// and a tolerance is a ratio): the smallest max(v/r, r/v). Ties go to the lower value.
double nearest(double r, std::span<const int> values);

// The preferred value closest to x (> 0) by absolute difference |v − x|, for a quantity that a
// result depends on linearly (a load capacitance). Ties go to the lower value.
double nearest_by_difference(double x, std::span<const int> values);

// The smallest preferred value at or above r (> 0); a value within r·relative_tolerance below
// r counts as equal to r, so rounding noise in r never skips to the next value up.
double at_or_above(double r, std::span<const int> values, double relative_tolerance);

}  // namespace toolcalc::tools::e_series
