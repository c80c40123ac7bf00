// The shared parts of the buck and boost power stages; see power_stage.hpp.
#include "tools/electronics/power_stage.hpp"

#include "catalog/descriptor_builder.hpp"

namespace toolcalc::tools::power_stage {

using namespace catalog;

InputDescriptor switching_frequency_input(double default_khz) {
  return number_input({.key = "switching_frequency_khz",
                       .label = "Switching frequency f_s",
                       .unit = "kHz",
                       .help = "Switching frequency; use the minimum of the data sheet's range "
                               "for a worst-case design.",
                       .min = 10,
                       .max = 5000,
                       .step = 1,
                       .default_value = default_khz});
}

OutputDescriptor output(Output which) {
  switch (which) {
    case Output::RippleCurrentA:
      return number_output({.key = "ripple_current_a",
                            .label = "Inductor ripple current ΔI_L (peak to peak)",
                            .unit = "A",
                            .precision = 3,
                            .small_values_in = "ripple_current_ma"});
    case Output::InductanceUh:
      return number_output({.key = "inductance_uh",
                            .label = "Inductance L",
                            .unit = "µH",
                            .precision = 2,
                            .small_values_in = "inductance_nh"});
    case Output::PeakSwitchCurrentA:
      return number_output({.key = "peak_switch_current_a",
                            .label = "Peak switch (and inductor) current",
                            .unit = "A",
                            .precision = 3,
                            .small_values_in = "peak_switch_current_ma"});
    case Output::MinOutputCapacitanceUf:
      return number_output({.key = "min_output_capacitance_uf",
                            .label = "Minimum output capacitance",
                            .unit = "µF",
                            .precision = 2,
                            .small_values_in = "min_output_capacitance_pf"});
    case Output::DutyCycle:
      return number_output({.key = "duty_cycle",
                            .label = "Duty cycle as a fraction (small duty cycles)",
                            .unit = "",
                            .precision = 5});
    case Output::RippleCurrentMa:
      return number_output({.key = "ripple_current_ma",
                            .label = "Inductor ripple current in mA (small currents)",
                            .unit = "mA",
                            .precision = 3});
    case Output::InductanceNh:
      return number_output({.key = "inductance_nh",
                            .label = "Inductance in nH (small inductances)",
                            .unit = "nH",
                            .precision = 4});
    case Output::PeakSwitchCurrentMa:
      return number_output({.key = "peak_switch_current_ma",
                            .label = "Peak switch current in mA (small currents)",
                            .unit = "mA",
                            .precision = 2});
    case Output::MinOutputCapacitancePf:
      break;
  }
  return number_output({.key = "min_output_capacitance_pf",
                        .label = "Minimum output capacitance in pF (small capacitances)",
                        .unit = "pF",
                        .precision = 1});
}

StageInputs read_inputs(const catalog::Inputs& in) {
  return {.vin_v = in.number("vin_v"),
          .vout_v = in.number("vout_v"),
          .iout_a = in.number("iout_a"),
          .switching_frequency_hz = in.number("switching_frequency_khz") * 1e3,
          .efficiency = in.number("efficiency_pct") / 100,
          .ripple_current_fraction = in.number("ripple_current_pct") / 100,
          .output_ripple_v = in.number("output_ripple_mv") / 1e3};
}

}  // namespace toolcalc::tools::power_stage
