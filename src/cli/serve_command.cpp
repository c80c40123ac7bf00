// `toolcalc serve`: load config and catalog, open the accounts store, serve HTTP until
// SIGTERM/SIGINT, then drain in-flight requests and flush usage. Operational messages are
// JSON lines on stderr (core/log.hpp); the access log is on stdout; `--dev` adds a few
// lines for a person on stdout (the key, a curl line, the playground's address).
#include <fmt/core.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/service.hpp"
#include "cli/admin_token.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/commands.hpp"
#include "cli/serve_accounts.hpp"
#include "cli/service_config.hpp"
#include "cli/store_factory.hpp"
#include "core/line_buffer.hpp"
#include "core/line_writer.hpp"
#include "core/log.hpp"
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
  bool new_store = false;
  std::string log_level;
};

bool is_loopback_host(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]" ||
         host.rfind("127.", 0) == 0;
}

// The Host values a development server answers (docs/playground.md, "Development mode"):
// its loopback names and the address it listens on, with the port (and without it on port
// 80, where clients leave it out). A wildcard address is no name a client sends.
std::vector<std::string> dev_hosts(const std::string& listen_host, unsigned port) {
  std::vector<std::string> names = {"127.0.0.1", "localhost", "[::1]"};
  const bool wildcard = listen_host.empty() || listen_host == "0.0.0.0" || listen_host == "::" ||
                        listen_host == "[::]";
  if (!wildcard) {
    const bool bare_v6 = listen_host.find(':') != std::string::npos && listen_host.front() != '[';
    names.push_back(bare_v6 ? "[" + listen_host + "]" : listen_host);
  }
  std::vector<std::string> hosts;
  for (const auto& name : names) {
    hosts.push_back(fmt::format("{}:{}", name, port));
    if (port == 80) hosts.push_back(name);
  }
  return hosts;
}

std::string normalise_base_path(std::string p) {
  while (!p.empty() && p.back() == '/') p.pop_back();
  if (!p.empty() && p.front() != '/') p.insert(p.begin(), '/');
  return p;
}

void serve(const ServeFlags& flags) {
  // --log-level first, so that it applies to what loading the config reports.
  if (!flags.log_level.empty()) log::set_min_level(*log::parse_level(flags.log_level));
  ServiceConfig config = load_service_config(
      flags.config.empty() ? std::nullopt : std::optional<std::filesystem::path>(flags.config));
  if (flags.log_level.empty()) log::set_min_level(*log::parse_level(config.log_level));
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
    // measured in docs/performance.md, "Shared store").
    config.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }

  // The effective settings (never a secret: the store's URL is written without its password).
  log::debug("configuration", {{"listen", fmt::format("{}:{}", config.host, config.port)},
                               {"threads", std::to_string(config.threads)},
                               {"base_path", config.base_path},
                               {"store", store_description(config)},
                               {"catalog", config.catalog_dir.string()},
                               {"drain_delay_s", std::to_string(config.drain_delay_s)},
                               {"shutdown_grace_s", std::to_string(config.shutdown_grace_s)}});
  auto registry = load_registry(config.catalog_dir);
  // The --dev lines reach a pipe when printed, not in 4 KiB blocks. Set before anything is
  // printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 1 << 16);
  // The access log writes to stdout's descriptor directly, in batches of whole lines
  // (core/line_buffer.hpp), each batch with one write(2) that leaves only whole lines in
  // the file, its lines dropped whole and counted when the disk is full
  // (core/line_writer.hpp). stdout's own buffer is flushed before serving starts, so the
  // two never mix; operational messages go to stderr (core/log.hpp).
  std::optional<LineBuffer> access_lines;
  if (config.access_log)
    access_lines.emplace(
        [](std::string_view lines) { stdout_lines().write(lines); },
        LineBuffer::Options{static_cast<size_t>(config.access_log_buffer_kb) * 1024,
                            std::chrono::milliseconds(config.access_log_flush_ms)});
  SystemClock clock;
  ServeAccounts accounts(
      config, clock,
      flags.new_store ? store::NewStore::EvenInAUsedOne : store::NewStore::OnlyInAnUnusedDirectory);
  const std::string dev_key = flags.dev ? accounts.create_dev_key() : std::string();
  // The playground pre-fills the dev key only where no one else can load the page.
  const bool page_gets_key = flags.dev && is_loopback_host(config.host);
  const std::string admin_token = admin_token_from_environment();
  api::Service service(
      *registry, accounts.access(), clock,
      {config.base_path, TOOLCALC_VERSION, access_lines ? &*access_lines : nullptr,
       config.mcp_allowed_origins, page_gets_key ? dev_key : std::string(), config.analysis_threads,
       config.store_backend, admin_token, admin_token.empty() ? nullptr : &accounts.key_admin(),
       config.analyses_per_key});

  http::ServerOptions options;
  options.host = config.host;
  options.port = config.port;
  options.threads = config.threads;
  options.max_connections = config.max_connections;
  options.max_connections_per_address = config.max_connections_per_address;
  options.read_timeout_s = config.read_timeout_s;
  options.idle_timeout_s = config.idle_timeout_s;
  options.shutdown_grace_s = config.shutdown_grace_s;
  options.drain_delay_s = config.drain_delay_s;
  http::Server server(service, options);
  server.bind();
  if (flags.dev) service.serve_same_origin_only(dev_hosts(config.host, server.port()));

  const std::string base =
      fmt::format("http://{}:{}{}", config.host == "0.0.0.0" ? "127.0.0.1" : config.host,
                  server.port(), config.base_path);
  const std::string address = fmt::format("{}:{}", config.host, server.port());
  log::info("listening on " + address, {{"version", TOOLCALC_VERSION},
                                        {"address", address},
                                        {"threads", std::to_string(config.threads)},
                                        {"base_path", config.base_path},
                                        {"store", store_description(config)},
                                        {"catalog", config.catalog_dir.string()}});
  if (!admin_token.empty())
    log::info("admin API on " + base + "/admin/v1/",
              {{"openapi", base + "/admin/v1/openapi.json"}});
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
  if (access_lines) access_lines->start();
  accounts.start();
  server.run();
  // Before the server's event loops are destroyed: an analysis still running after the
  // grace period would finish onto one of them.
  service.stop_analyses();
  if (access_lines) access_lines->stop();  // every line of a drained request
  accounts.stop();                         // flushes usage counted by the drained requests
  log::info("stopped");
}

// A failure to start (a bad config, an unusable address, an unreachable shared store) as
// one log line, then exit status 1.
void serve_logging_failure(const ServeFlags& flags) {
  try {
    serve(flags);
  } catch (const std::exception& e) {
    log::error("cannot serve", {{"error", e.what()}});
    throw CLI::RuntimeError(1);
  }
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
  cmd->add_flag("--new-store", flags->new_store,
                "Create a new, empty store where the data directory's store is missing, empty "
                "or unreadable (its files are renamed aside); for one start");
  cmd->add_option("--log-level", flags->log_level,
                  "Lowest level of operational messages written: debug, info, warn, error "
                  "(default: server.log_level, info)")
      ->check(CLI::IsMember({"debug", "info", "warn", "error"}));
  cmd->callback([flags] { serve_logging_failure(*flags); });
}

}  // namespace toolcalc::cli
