// `toolcalc serve`: load config and catalog, open the accounts store, serve HTTP until
// SIGTERM/SIGINT, then drain in-flight requests and flush usage.
#include <fmt/core.h>

#include <cstdio>
#include <thread>

#include "api/service.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/commands.hpp"
#include "cli/serve_accounts.hpp"
#include "cli/service_config.hpp"
#include "cli/store_factory.hpp"
#include "core/line_writer.hpp"
#include "http/server.hpp"

namespace toolcalc::cli {
namespace {

struct ServeFlags {
  std::string listen;
  std::string config;
  std::string data;
  int threads = -1;
  std::string base_path;
  bool base_path_given = false;
  bool dev = false;
};

bool is_loopback_host(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]" ||
         host.rfind("127.", 0) == 0;
}

std::string normalise_base_path(std::string p) {
  while (!p.empty() && p.back() == '/') p.pop_back();
  if (!p.empty() && p.front() != '/') p.insert(p.begin(), '/');
  return p;
}

void serve(const ServeFlags& flags) {
  ServiceConfig config = load_service_config(
      flags.config.empty() ? std::nullopt : std::optional<std::filesystem::path>(flags.config));
  if (flags.dev) {
    // Spec §1: a local development server serves under /api on its own host.
    config.host = "127.0.0.1";
    config.port = 8080;
    config.base_path = "/api";
  }
  if (!flags.listen.empty()) apply_listen(config, flags.listen);
  if (!flags.data.empty()) config.data_dir = flags.data;
  if (flags.threads >= 0) config.threads = flags.threads;
  if (flags.base_path_given) config.base_path = flags.base_path;
  config.base_path = normalise_base_path(config.base_path);
  if (config.threads == 0) {
    // One per core for either store: with Redis a thread does not wait for the counting
    // round trip but serves other connections meanwhile (store/redis_pipeline.hpp;
    // measured in docs/performance.md).
    config.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }

  auto registry = load_registry(config.catalog_dir);
  SystemClock clock;
  ServeAccounts accounts(config, clock);
  const std::string dev_key = flags.dev ? accounts.create_dev_key() : std::string();
  // The playground pre-fills the dev key only where no one else can load the page.
  const bool page_gets_key = flags.dev && is_loopback_host(config.host);
  api::Service service(
      *registry, accounts.access(), clock,
      {config.base_path, TOOLCALC_VERSION, config.access_log ? &stdout_lines() : nullptr,
       config.mcp_allowed_origins, page_gets_key ? dev_key : std::string()});

  http::ServerOptions options;
  options.host = config.host;
  options.port = config.port;
  options.threads = config.threads;
  options.max_connections = config.max_connections;
  options.read_timeout_s = config.read_timeout_s;
  options.idle_timeout_s = config.idle_timeout_s;
  options.shutdown_grace_s = config.shutdown_grace_s;
  http::Server server(service, options);
  server.bind();

  const std::string base =
      fmt::format("http://{}:{}{}", config.host == "0.0.0.0" ? "127.0.0.1" : config.host,
                  server.port(), config.base_path);
  fmt::print("toolcalc {} listening on {}:{} ({} threads, base path '{}', {})\n", TOOLCALC_VERSION,
             config.host, server.port(), config.threads, config.base_path,
             store_description(config));
  if (flags.dev) {
    fmt::print(
        "dev key (shown once): {}\n"
        "try:\n  curl -s {}/v1/iot-mcu/mcu-deep-sleep-battery -H 'Authorization: Bearer {}' "
        "-H 'Content-Type: application/json' -d '{{\"battery_capacity_mah\":2000,"
        "\"sleep_current_ua\":10,\"wake_current_ma\":80,\"wake_duration_ms\":250,"
        "\"cycle_period_s\":60,\"battery_efficiency_pct\":80}}'\n",
        dev_key, base, dev_key);
    fmt::print("playground: {}/{}\n", base,
               page_gets_key ? " (the dev key is pre-filled)"
                             : " (not on loopback: enter the key in the page)");
  }
  std::fflush(stdout);
  accounts.start();
  server.run();
  accounts.stop();  // flushes usage counted by the drained requests
  fmt::print("toolcalc stopped\n");
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto flags = std::make_shared<ServeFlags>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the HTTP API");
  cmd->add_option("--listen", flags->listen, "HOST:PORT to listen on (default 0.0.0.0:8080)");
  cmd->add_option("--config", flags->config, "TOML config file (see config/toolcalc.toml)");
  cmd->add_option("--data", flags->data, "Data directory of the embedded store (default var)");
  cmd->add_option("--threads", flags->threads, "Worker threads (0 = one per core)")
      ->check(CLI::Range(0, 256));
  cmd->add_option_function<std::string>(
      "--base-path",
      [flags](const std::string& p) {
        flags->base_path = p;
        flags->base_path_given = true;
      },
      "Path prefix for every endpoint, e.g. /api");
  cmd->add_flag("--dev", flags->dev,
                "Development: 127.0.0.1:8080 under /api, a fresh tc_test_ key, a curl line");
  cmd->callback([flags] { serve(*flags); });
}

}  // namespace toolcalc::cli
