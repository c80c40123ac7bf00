#pragma once
// Everything `serve` and `keys` need, from built-in defaults, then the TOML config file
// (config/toolcalc.toml documents every setting), then command-line flags.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"

namespace toolcalc::cli {

struct ServiceConfig {
  // [server]
  std::string host = "0.0.0.0";
  uint16_t port = 8080;
  int threads = 0;        // 0: one per core
  std::string base_path;  // "" or "/api"; no trailing slash
  size_t max_connections = 4096;
  int read_timeout_s = 10;  // a request's headers (and then its body) must arrive in this time
  int idle_timeout_s = 30;  // keep-alive connection with no request is closed after this
  int shutdown_grace_s = 10;
  bool access_log = true;                             // JSON lines on stdout
  std::vector<std::string> mcp_allowed_origins = {};  // besides loopback origins (docs/api.md, MCP)
  // [store]
  std::string store_backend = "sqlite";  // "sqlite" (embedded) or "redis" (shared)
  std::string redis_url;                 // redis://HOST:PORT/DB when store_backend is redis
  int redis_timeout_ms = 2000;           // a Redis command's time limit (then 503)
  std::filesystem::path data_dir = "var";
  // Checkpoints and given-back units this often: at most this much usage is lost on power
  // loss; kill -9 loses none (group commit, docs/reliability.md).
  int usage_flush_interval_ms = 1000;
  int key_refresh_interval_ms = 1000;  // CLI key changes reach a running server within this
  // [catalog]
  std::filesystem::path catalog_dir;
  // [plans.NAME]
  std::vector<accounts::Plan> plans;
};

// Reads `file` when given (a missing or malformed file is an error naming it).
// Throws std::runtime_error with a message fit for the operator.
ServiceConfig load_service_config(const std::optional<std::filesystem::path>& file);

// Parses "HOST:PORT" into the config; throws std::runtime_error on a bad value.
void apply_listen(ServiceConfig& config, const std::string& listen);

}  // namespace toolcalc::cli
