#pragma once
// Explicit list of every tool in the catalog (docs/architecture.md: registration over
// static-initialiser magic). Adding a tool = its file + one line in all.cpp.
#include <vector>

#include "catalog/descriptor.hpp"
#include "tools/tool_context.hpp"

namespace toolcalc::tools {

// Throws std::runtime_error with a clear message when a tool's data file is malformed.
std::vector<catalog::Tool> all_tools(const ToolContext& context);

}  // namespace toolcalc::tools
