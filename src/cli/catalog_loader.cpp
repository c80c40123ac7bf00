#include "cli/catalog_loader.hpp"

#include "catalog/domains.hpp"
#include "tools/all.hpp"

namespace toolcalc::cli {

std::unique_ptr<catalog::Registry> load_registry(const std::filesystem::path& catalog_dir) {
  auto domains = catalog::load_domains(catalog_dir / "domains.toml");
  auto tools = tools::all_tools(tools::ToolContext{catalog_dir});
  return std::make_unique<catalog::Registry>(std::move(tools), std::move(domains));
}

}  // namespace toolcalc::cli
