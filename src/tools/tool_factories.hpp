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

catalog::Tool make_via_current_capacity();        // pcb-design
catalog::Tool make_microstrip_impedance();        // pcb-design
catalog::Tool make_trace_resistance();            // pcb-design
catalog::Tool make_data_transfer_time();          // programming-dev
catalog::Tool make_hash_collision_probability();  // programming-dev
catalog::Tool make_littles_law_concurrency();     // programming-dev

catalog::Tool make_uart_baud_error();      // iot-mcu
catalog::Tool make_i2c_pullup_resistor();  // iot-mcu
catalog::Tool make_adc_resolution();       // iot-mcu
catalog::Tool make_voltage_divider();      // electronics
catalog::Tool make_led_series_resistor();  // electronics
catalog::Tool make_rc_filter();            // electronics

catalog::Tool make_decibel_conversion();    // electronics
catalog::Tool make_attenuator_pad();        // electronics
catalog::Tool make_wheatstone_bridge();     // electronics
catalog::Tool make_wire_voltage_drop();     // electronics
catalog::Tool make_resistor_combination();  // electronics
catalog::Tool make_ntc_thermistor();        // electronics

}  // namespace toolcalc::tools
