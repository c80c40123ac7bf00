#pragma once
// The quasi-static Hammerstad–Jensen model of a single surface microstrip, shared by the
// pcb-design tools that need it (differential-microstrip-impedance builds its coupled-line
// model on these functions; propagation-delay takes a microstrip's εeff from single_line).
// Equations: E. Hammerstad, Ø. Jensen, "Accurate Models for Microstrip Computer-Aided Design",
// IEEE MTT-S Int. Microwave Symp. Digest, 1980, pp. 407–409, as KiCad's pcb_calculator
// computes them (common/transline_calculations/microstrip.cpp, microstrip_Z0()).
namespace toolcalc::tools::microstrip {

// Hammerstad & Jensen state their εeff within 0.2 % for 0.01 ≤ w/h ≤ 100 (εr ≤ 128); the
// impedance alone holds to w/h = 1000. The tools refuse a width ratio outside this range.
inline constexpr double kMinWidthToHeight = 0.01;
inline constexpr double kMaxWidthToHeight = 100;

// Impedance of a microstrip of normalized width u = w/h in a homogeneous medium of εr = 1
// (Hammerstad–Jensen eqs. 1–2; within 0.01 % for u ≤ 1, 0.03 % for u ≤ 1000).
double z0_homogeneous(double u);

// Filling factor q∞ of the zero-thickness line: εeff = (εr + 1)/2 + (εr − 1)/2·q∞
// (Hammerstad–Jensen eqs. 3–5; within 0.2 % for εr ≤ 128, 0.01 ≤ u ≤ 100).
double filling_factor(double u, double er);

struct SingleLine {
  double z0_ohm;                         // static characteristic impedance
  double effective_dielectric_constant;  // static εeff
};

// A single uncovered microstrip of width w over a dielectric of height h and relative
// permittivity er, with a strip of thickness t (w, h and t in one unit; t = 0 for an ideal
// thin strip). The thickness enters as Hammerstad–Jensen's widened strip (eqs. 6–9) and the
// thickness filling-factor term (2·ln2/π)·(t/h)/√u that KiCad subtracts from q∞. Needs
// w, h > 0, t ≥ 0 and er ≥ 1; the callers bound u and t/h to the model's range.
SingleLine single_line(double w, double h, double t, double er);

}  // namespace toolcalc::tools::microstrip
