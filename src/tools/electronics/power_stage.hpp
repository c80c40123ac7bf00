#pragma once
// What the buck-converter and boost-converter tools share word for word: the switching-
// frequency input, the inputs both read, and the inductor, switch and output-capacitor outputs
// with their finer-unit companions. TI SLVA477B (buck) and SLVA372 (boost) size these parts
// of the two power stages alike.
#include "catalog/descriptor.hpp"

namespace toolcalc::tools::power_stage {

catalog::InputDescriptor switching_frequency_input(double default_khz);

enum class Output {
  RippleCurrentA,          // ripple_current_a, small values in ripple_current_ma
  InductanceUh,            // inductance_uh, small values in inductance_nh
  PeakSwitchCurrentA,      // peak_switch_current_a, small values in peak_switch_current_ma
  MinOutputCapacitanceUf,  // min_output_capacitance_uf, small values in ..._pf
  DutyCycle,               // duty_cycle, the fraction behind duty_cycle_pct
  RippleCurrentMa,
  InductanceNh,
  PeakSwitchCurrentMa,
  MinOutputCapacitancePf,
};
catalog::OutputDescriptor output(Output which);

// The inputs both tools have, in SI units.
struct StageInputs {
  double vin_v;
  double vout_v;
  double iout_a;
  double switching_frequency_hz;
  double efficiency;               // fraction
  double ripple_current_fraction;  // peak-to-peak ripple over the reference current
  double output_ripple_v;
};
StageInputs read_inputs(const catalog::Inputs& in);

}  // namespace toolcalc::tools::power_stage
