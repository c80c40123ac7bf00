#pragma once
#include <filesystem>

namespace toolcalc::tools {

// What tools may read at start-up: the folder of catalog data files (e.g.
// llm-pricing.toml), so an operator can update data without a rebuild.
struct ToolContext {
  std::filesystem::path catalog_dir;
};

}  // namespace toolcalc::tools
