// `toolcalc run DOMAIN/SLUG --json '{...}'`: the same validation, maths and rendering as
// POST /v1/DOMAIN/SLUG, printed as the same JSON envelope. Exit status 0 on 200, 1 else.
#include <iostream>

#include "api/service.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/commands.hpp"
#include "cli/local_access.hpp"
#include "cli/service_config.hpp"

namespace toolcalc::cli {

void add_run_command(CLI::App& app) {
  struct Options {
    std::string tool;
    std::string json = "{}";
    std::string config;
  };
  auto options = std::make_shared<Options>();
  CLI::App* run = app.add_subcommand("run", "Run one tool locally and print its JSON response");
  run->add_option("tool", options->tool, "DOMAIN/SLUG, e.g. iot-mcu/mcu-deep-sleep-battery")
      ->required();
  run->add_option("--json", options->json, "Request body (JSON object of the tool's inputs)");
  run->add_option("--config", options->config, "Config file (for the catalog directory)");
  run->callback([options] {
    const ServiceConfig config = load_service_config(
        options->config.empty() ? std::nullopt
                                : std::optional<std::filesystem::path>(options->config));
    auto registry = load_registry(config.catalog_dir);
    LocalAccess access;
    SystemClock clock;
    api::ServiceOptions service_options;
    service_options.analysis_threads = 0;  // one blocking call: nothing to run beside it
    api::Service service(*registry, access, clock, service_options);
    const std::string target = "/v1/" + options->tool;
    api::Request request;
    request.method = "POST";
    request.target = target;
    request.content_type = "application/json";
    request.authorization = "local";
    request.body = options->json;
    request.peer_ip = "127.0.0.1";
    const api::Response response = service.handle(request);
    std::cout << response.full_body() << '\n';
    if (response.status != 200) throw CLI::RuntimeError(1);
  });
}

}  // namespace toolcalc::cli
