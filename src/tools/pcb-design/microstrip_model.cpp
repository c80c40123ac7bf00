// Hammerstad–Jensen single microstrip; see microstrip_model.hpp for the equations' source.
#include "tools/pcb-design/microstrip_model.hpp"

#include <cmath>
#include <numbers>

#include "tools/pcb-design/pcb_units.hpp"

namespace toolcalc::tools::microstrip {
namespace {

constexpr double kPi = std::numbers::pi;
using pcb::kFreeSpaceImpedance;

// Hammerstad–Jensen eqs. 6–7: the widening of the normalized strip width by a strip of
// normalized thickness th, in a homogeneous medium (er = 1) and over a substrate of er.
double width_correction(double u, double th, double er) {
  if (th <= 0) return 0;
  const double tanh_term = std::tanh(std::sqrt(6.517 * u));
  const double du_air = th / kPi * std::log(1 + 4 * std::numbers::e * tanh_term * tanh_term / th);
  return 0.5 * du_air * (1 + 1 / std::cosh(std::sqrt(er - 1)));
}

}  // namespace

double z0_homogeneous(double u) {
  const double f = 6 + (2 * kPi - 6) * std::exp(-std::pow(30.666 / u, 0.7528));
  return kFreeSpaceImpedance / (2 * kPi) * std::log(f / u + std::sqrt(1 + 4 / (u * u)));
}

double filling_factor(double u, double er) {
  const double u2 = u * u, u3 = u2 * u, u4 = u3 * u;
  const double a =
      1 + std::log((u4 + u2 / 2704) / (u4 + 0.432)) / 49 + std::log(1 + u3 / 5929.741) / 18.7;
  const double b = 0.564 * std::pow((er - 0.9) / (er + 3), 0.053);
  return std::pow(1 + 10 / u, -a * b);
}

SingleLine single_line(double w, double h, double t, double er) {
  const double u = w / h, th = t / h;
  // The strip widened for its thickness: in air (u1) and over the substrate (ur).
  const double z_air = z0_homogeneous(u + width_correction(u, th, 1));
  const double ur = u + width_correction(u, th, er);
  const double z_substrate = z0_homogeneous(ur);
  const double q = filling_factor(ur, er) - 2 * std::log(2.0) / kPi * th / std::sqrt(ur);
  const double e_thick = 0.5 * (er + 1) + 0.5 * q * (er - 1);
  // Hammerstad–Jensen eqs. 8–9.
  return {.z0_ohm = z_substrate / std::sqrt(e_thick),
          .effective_dielectric_constant = e_thick * std::pow(z_air / z_substrate, 2)};
}

}  // namespace toolcalc::tools::microstrip
