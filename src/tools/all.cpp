#include "tools/all.hpp"

#include "tools/tool_factories.hpp"

namespace toolcalc::tools {

std::vector<catalog::Tool> all_tools(const ToolContext& context) {
  (void)context;
  std::vector<catalog::Tool> tools;
  tools.push_back(make_mcu_deep_sleep_battery());
  return tools;
}

}  // namespace toolcalc::tools
