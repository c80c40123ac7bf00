#pragma once
// The IPC-2221 conductor current-capacity curve, shared by the pcb-design tools that size
// copper for a current (pcb-trace-width for a trace, via-current-capacity for a via barrel).
// IPC-2221B section 6.2 gives it as charts; the curve fit below is the one KiCad's
// pcb_calculator (track width and via size panels) and the common calculators use:
//   I = k · ΔT^0.44 · A^0.725     I in A, ΔT in °C, A in mil²
#include <cmath>

namespace toolcalc::tools::ipc2221 {

// k of the fit: external layers (cooled by air) and internal layers, which may carry half
// the current for the same area and rise.
inline constexpr double kExternal = 0.048;
inline constexpr double kInternal = 0.024;
inline constexpr double kTempExponent = 0.44;
inline constexpr double kAreaExponent = 0.725;

// The charts stop at 35 A on external layers (17.5 A on internal ones, k/2 of it) and at
// 400 mil conductor width; beyond them the fit is an extrapolation.
inline constexpr double kMaxExternalCurrentA = 35;
inline constexpr double kMaxInternalCurrentA = 17.5;
inline constexpr double kMaxWidthMil = 400;

// Current a conductor of cross-section area_mil2 carries for a rise of rise_c.
inline double current_a(double k, double rise_c, double area_mil2) {
  return k * std::pow(rise_c, kTempExponent) * std::pow(area_mil2, kAreaExponent);
}

// Cross-section (mil²) a conductor needs to carry current_a for a rise of rise_c.
inline double area_mil2(double k, double rise_c, double current_a) {
  return std::pow(current_a / (k * std::pow(rise_c, kTempExponent)), 1.0 / kAreaExponent);
}

}  // namespace toolcalc::tools::ipc2221
