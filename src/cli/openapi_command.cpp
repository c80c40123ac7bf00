// `toolcalc openapi [--base-path P] [--server-url URL]`: the OpenAPI 3.1 document that
// GET {base}/v1/openapi.json serves, generated from the same registry, on stdout — for
// linters, client generators and contract tests without a running server.
#include <iostream>

#include "api/openapi/openapi.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/commands.hpp"
#include "cli/service_config.hpp"

namespace toolcalc::cli {

void add_openapi_command(CLI::App& app) {
  struct Options {
    std::string base_path;
    std::string server_url;
    std::string config;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("openapi", "Print the OpenAPI 3.1 document of the API (JSON)");
  cmd->add_option("--base-path", options->base_path,
                  "Path prefix the server runs under, e.g. /api (as serve --base-path)");
  cmd->add_option("--server-url", options->server_url,
                  "Absolute origin for servers[0].url, e.g. https://api.example.com "
                  "(default: relative, the base path alone)");
  cmd->add_option("--config", options->config, "Config file (for the catalog directory)");
  cmd->callback([options] {
    const ServiceConfig config = load_service_config(
        options->config.empty() ? std::nullopt
                                : std::optional<std::filesystem::path>(options->config));
    auto registry = load_registry(config.catalog_dir);
    std::string base = options->base_path;
    while (!base.empty() && base.back() == '/') base.pop_back();
    if (!base.empty() && base.front() != '/') base.insert(base.begin(), '/');
    std::cout << api::openapi::render(*registry, {TOOLCALC_VERSION, base, options->server_url});
    std::cout.flush();
  });
}

}  // namespace toolcalc::cli
