#pragma once
// Explicit list of every tool in the catalog (DESIGN.md: registration over
// static-initialiser magic). Adding a tool = its file + one line in all.cpp.
#include <filesystem>
#include <vector>

#include "catalog/descriptor.hpp"

namespace toolcalc::tools {

// Where data files that tools load at start-up live (e.g. llm-pricing.toml).
struct ToolContext {
  std::filesystem::path catalog_dir;
};

// Throws std::runtime_error with a clear message when a tool's data file is malformed.
std::vector<catalog::Tool> all_tools(const ToolContext& context);

}  // namespace toolcalc::tools
