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

}  // namespace toolcalc::tools
