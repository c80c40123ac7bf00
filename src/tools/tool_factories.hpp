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

}  // namespace toolcalc::tools
