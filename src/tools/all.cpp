#include "tools/all.hpp"

#include "tools/tool_factories.hpp"

namespace toolcalc::tools {

std::vector<catalog::Tool> all_tools(const ToolContext& context) {
  std::vector<catalog::Tool> tools;
  tools.push_back(make_mcu_deep_sleep_battery());
  tools.push_back(make_mosfet_thermal_junction());
  tools.push_back(make_pcb_trace_width());
  tools.push_back(make_llm_api_cost_calculator(context));
  // Each tool helper adds its line here.
  return tools;
}

}  // namespace toolcalc::tools
