#pragma once
// Units and physical constants the pcb-design tools share, each defined once.
namespace toolcalc::tools::pcb {

// Length: 1 in = 25.4 mm exactly, 1 mil = 0.001 in.
inline constexpr double kMmPerInch = 25.4;
inline constexpr double kMmPerMil = 0.0254;
inline constexpr double kUmPerMil = 25.4;
inline constexpr double kMetresPerMil = 25.4e-6;

// Speed of light in vacuum, exact (SI), in mm/ps: t_pd = √εeff / c.
inline constexpr double kSpeedOfLightMmPerPs = 0.299792458;

// Wave impedance of free space η0 = µ0·c, ohms (CODATA 2018), the value KiCad's transline code
// uses.
inline constexpr double kFreeSpaceImpedance = 376.730313668;

// Copper foil: 1 oz spread over 1 ft² is 1.378 mil (35.0 µm) thick, the industry nominal.
inline constexpr double kMilPerOz = 1.378;

// Annealed copper at 20 °C, the value KiCad's calculators use (IEC 60028: 1.7241e-8 Ω·m).
inline constexpr double kCopperResistivity = 1.72e-8;  // Ω·m

}  // namespace toolcalc::tools::pcb
