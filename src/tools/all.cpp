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
  tools.push_back(make_data_transfer_time());
  tools.push_back(make_hash_collision_probability());
  tools.push_back(make_littles_law_concurrency());
  tools.push_back(make_uart_baud_error());
  tools.push_back(make_i2c_pullup_resistor());
  tools.push_back(make_adc_resolution());
  tools.push_back(make_voltage_divider());
  tools.push_back(make_led_series_resistor());
  tools.push_back(make_rc_filter());
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
