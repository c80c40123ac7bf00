// `toolcalc tools`: the catalog, one tool a line (endpoint, version, name).
#include <fmt/core.h>

#include "cli/catalog_loader.hpp"
#include "cli/commands.hpp"
#include "cli/service_config.hpp"

namespace toolcalc::cli {

void add_tools_command(CLI::App& app) {
  auto config_file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("tools", "List the tools in the catalog");
  cmd->add_option("--config", *config_file, "Config file (for the catalog directory)");
  cmd->callback([config_file] {
    const ServiceConfig config = load_service_config(
        config_file->empty() ? std::nullopt : std::optional<std::filesystem::path>(*config_file));
    auto registry = load_registry(config.catalog_dir);
    for (const auto& d : registry->domains()) {
      fmt::print("{} — {} ({} live / {} target)\n", d.name, d.display_name,
                 registry->live_count(d.name), d.target);
      for (const auto& t : registry->tools())
        if (t.tool.descriptor.domain == d.name)
          fmt::print("  POST {:<50} {:<7} {}\n", t.tool.descriptor.endpoint(),
                     t.tool.descriptor.version, t.tool.descriptor.name);
    }
  });
}

}  // namespace toolcalc::cli
