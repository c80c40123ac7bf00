#pragma once
// One factory per tool file. Each returns the tool's immutable descriptor and its
// pure compute function. The file of a tool is src/tools/<domain>/<slug>.cpp.
#include "catalog/descriptor.hpp"
#include "tools/tool_context.hpp"

namespace toolcalc::tools {

catalog::Tool make_mcu_deep_sleep_battery();   // iot-mcu
catalog::Tool make_mosfet_thermal_junction();  // electronics
catalog::Tool make_pcb_trace_width();          // pcb-design
// Loads <catalog_dir>/llm-pricing.toml; throws std::runtime_error when it is malformed.
catalog::Tool make_llm_api_cost_calculator(const ToolContext& context);  // programming-dev

catalog::Tool make_via_current_capacity();               // pcb-design
catalog::Tool make_microstrip_impedance();               // pcb-design
catalog::Tool make_trace_resistance();                   // pcb-design
catalog::Tool make_stripline_impedance();                // pcb-design
catalog::Tool make_differential_microstrip_impedance();  // pcb-design
catalog::Tool make_conductor_spacing();                  // pcb-design
catalog::Tool make_propagation_delay();                  // pcb-design
catalog::Tool make_fusing_current();                     // pcb-design
catalog::Tool make_via_parasitics();                     // pcb-design
catalog::Tool make_plane_capacitance();                  // pcb-design
catalog::Tool make_coplanar_waveguide_impedance();       // pcb-design
catalog::Tool make_data_transfer_time();                 // programming-dev
catalog::Tool make_hash_collision_probability();         // programming-dev
catalog::Tool make_littles_law_concurrency();            // programming-dev

catalog::Tool make_uart_baud_error();      // iot-mcu
catalog::Tool make_i2c_pullup_resistor();  // iot-mcu
catalog::Tool make_adc_resolution();       // iot-mcu
catalog::Tool make_voltage_divider();      // electronics
catalog::Tool make_led_series_resistor();  // electronics
catalog::Tool make_rc_filter();            // electronics
catalog::Tool make_ne555_astable();        // electronics
catalog::Tool make_ne555_monostable();     // electronics
catalog::Tool make_op_amp_gain();          // electronics
catalog::Tool make_rc_charge_time();       // electronics
catalog::Tool make_lc_resonance();         // electronics
catalog::Tool make_stored_energy();        // electronics
catalog::Tool make_waveform_rms();         // electronics

catalog::Tool make_buck_converter();               // electronics
catalog::Tool make_boost_converter();              // electronics
catalog::Tool make_ldo_regulator();                // electronics
catalog::Tool make_zener_shunt_regulator();        // electronics
catalog::Tool make_heatsink_thermal_resistance();  // electronics
catalog::Tool make_bjt_saturated_switch();         // electronics
catalog::Tool make_battery_pack();                 // electronics

catalog::Tool make_bloom_filter();            // programming-dev
catalog::Tool make_erlang_c();                // programming-dev
catalog::Tool make_sla_downtime();            // programming-dev
catalog::Tool make_error_budget_burn_rate();  // programming-dev
catalog::Tool make_parallel_speedup();        // programming-dev
catalog::Tool make_raid_capacity();           // programming-dev
catalog::Tool make_token_bucket();            // programming-dev
catalog::Tool make_password_entropy();        // programming-dev

catalog::Tool make_lora_time_on_air();         // iot-mcu
catalog::Tool make_crystal_load_capacitors();  // iot-mcu
catalog::Tool make_can_bit_timing();           // iot-mcu
catalog::Tool make_timer_pwm_frequency();      // iot-mcu
catalog::Tool make_supercap_holdup_time();     // iot-mcu
catalog::Tool make_solar_harvesting_budget();  // iot-mcu
catalog::Tool make_coin_cell_pulse_drop();     // iot-mcu
catalog::Tool make_adc_sampling_time();        // iot-mcu

catalog::Tool make_decibel_conversion();    // electronics
catalog::Tool make_attenuator_pad();        // electronics
catalog::Tool make_wheatstone_bridge();     // electronics
catalog::Tool make_wire_voltage_drop();     // electronics
catalog::Tool make_resistor_combination();  // electronics
catalog::Tool make_ntc_thermistor();        // electronics

}  // namespace toolcalc::tools
