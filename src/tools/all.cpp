#include "tools/all.hpp"

#include "tools/tool_factories.hpp"

namespace toolcalc::tools {

std::vector<catalog::Tool> all_tools(const ToolContext& context) {
  std::vector<catalog::Tool> tools;
  tools.push_back(make_mcu_deep_sleep_battery());
  tools.push_back(make_mosfet_thermal_junction());
  tools.push_back(make_pcb_trace_width());
  tools.push_back(make_llm_api_cost_calculator(context));
  tools.push_back(make_via_current_capacity());
  tools.push_back(make_microstrip_impedance());
  tools.push_back(make_trace_resistance());
  tools.push_back(make_stripline_impedance());
  tools.push_back(make_differential_microstrip_impedance());
  tools.push_back(make_conductor_spacing());
  tools.push_back(make_propagation_delay());
  tools.push_back(make_fusing_current());
  tools.push_back(make_via_parasitics());
  tools.push_back(make_plane_capacitance());
  tools.push_back(make_coplanar_waveguide_impedance());
  tools.push_back(make_data_transfer_time());
  tools.push_back(make_hash_collision_probability());
  tools.push_back(make_littles_law_concurrency());
  tools.push_back(make_bloom_filter());
  tools.push_back(make_erlang_c());
  tools.push_back(make_sla_downtime());
  tools.push_back(make_error_budget_burn_rate());
  tools.push_back(make_parallel_speedup());
  tools.push_back(make_raid_capacity());
  tools.push_back(make_token_bucket());
  tools.push_back(make_password_entropy());
  tools.push_back(make_uart_baud_error());
  tools.push_back(make_i2c_pullup_resistor());
  tools.push_back(make_adc_resolution());
  tools.push_back(make_lora_time_on_air());
  tools.push_back(make_crystal_load_capacitors());
  tools.push_back(make_can_bit_timing());
  tools.push_back(make_timer_pwm_frequency());
  tools.push_back(make_supercap_holdup_time());
  tools.push_back(make_solar_harvesting_budget());
  tools.push_back(make_coin_cell_pulse_drop());
  tools.push_back(make_adc_sampling_time());
  tools.push_back(make_voltage_divider());
  tools.push_back(make_led_series_resistor());
  tools.push_back(make_rc_filter());
  tools.push_back(make_buck_converter());
  tools.push_back(make_boost_converter());
  tools.push_back(make_ldo_regulator());
  tools.push_back(make_zener_shunt_regulator());
  tools.push_back(make_heatsink_thermal_resistance());
  tools.push_back(make_bjt_saturated_switch());
  tools.push_back(make_battery_pack());
  tools.push_back(make_ne555_astable());
  tools.push_back(make_ne555_monostable());
  tools.push_back(make_op_amp_gain());
  tools.push_back(make_rc_charge_time());
  tools.push_back(make_lc_resonance());
  tools.push_back(make_stored_energy());
  tools.push_back(make_waveform_rms());
  tools.push_back(make_decibel_conversion());
  tools.push_back(make_attenuator_pad());
  tools.push_back(make_wheatstone_bridge());
  tools.push_back(make_wire_voltage_drop());
  tools.push_back(make_resistor_combination());
  tools.push_back(make_ntc_thermistor());
  // Each tool helper adds its line here.
  return tools;
}

}  // namespace toolcalc::tools
