#pragma once
// Everything `serve` and `keys` need, from built-in defaults, then the TOML config file
// (config/toolcalc.toml documents every setting), then the environment (TOOLCALC_SECTION_KEY,
// and TOOLCALC_SECTION_KEY_FILE naming a file that holds the value), then command-line
// flags. docs/operations.md, "Configuration", states the rule.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/webhook_address.hpp"

namespace toolcalc::cli {

struct ServiceConfig {
  // [server]
  std::string host = "0.0.0.0";
  uint16_t port = 8080;
  int threads = 0;        // 0: one per core
  std::string base_path;  // "" or "/api"; no trailing slash
  size_t max_connections = 4096;
  // The most connections one client address (an IPv6 client's /64) may hold; 0: no limit.
  // Behind a proxy every client has the proxy's address (docs/deploy.md).
  size_t max_connections_per_address = 256;
  int read_timeout_s = 10;  // a request's headers (and then its body) must arrive in this time
  int idle_timeout_s = 30;  // keep-alive connection with no request is closed after this
  int shutdown_grace_s = 10;
  bool access_log = true;  // JSON lines on stdout
  // Lines gathered in memory and written in batches (nginx's access_log buffer=/flush=):
  // a batch goes out when it reaches access_log_buffer_kb, or when its oldest line has
  // waited access_log_flush_ms; 0 ms writes each line at once. SIGKILL loses at most the
  // last access_log_flush_ms of lines, an orderly stop none.
  int access_log_buffer_kb = 64;
  int access_log_flush_ms = 1000;
  std::string log_level = "info";  // operational messages below it are not written
  int drain_delay_s = 0;           // on SIGTERM, serve on with readiness 503 this long
  std::vector<std::string> mcp_allowed_origins = {};  // besides loopback origins (docs/api.md, MCP)
  // Threads running tolerance analyses and solves off the I/O threads (docs/api.md,
  // "Analyses"), shared fairly between keys; 16 per thread may wait, more get 503. 0: run
  // them on the I/O threads.
  int analysis_threads = 1;
  // Analyses one key may have waiting or running there; one more gets 429
  // TOO_MANY_ANALYSES. 0: analysis_threads + 2.
  int analyses_per_key = 0;
  // [store]
  std::string store_backend = "sqlite";  // "sqlite" (embedded) or "redis" (shared)
  std::string redis_url;                 // redis://HOST:PORT/DB when store_backend is redis
  std::string redis_password;            // overrides the URL's password when not empty
  int redis_timeout_ms = 2000;           // a Redis command's time limit (then 503)
  std::filesystem::path data_dir = "var";
  // store.flush_interval_ms, on either backend: the background flush writes the usage
  // history and given-back units and checkpoints this often. At most this much usage is lost
  // on power loss; kill -9 loses none (group commit, docs/reliability.md).
  int flush_interval_ms = 1000;
  // Embedded store: a 200 is sent once its count is committed (group commit). false sends
  // it at once and leaves the count to the next flush (a kill -9 may then lose up to
  // flush_interval_ms of counts): the bench's before/after, and an operator's choice.
  bool acknowledge_after_commit = true;
  // Shared store: an instance ships the counts of its usage ledger (executions served from
  // leased units) to Redis this often (docs/deploy.md, "Usage ledger").
  int ship_interval_ms = 10;
  int key_refresh_interval_ms = 1000;  // CLI key changes reach a running server within this
  // [alerts]: quota alert webhooks (accounts/quota_alerts.hpp)
  int alerts_check_interval_ms = 1000;      // usage is compared with the thresholds this often
  int alerts_retry_initial_ms = 5000;       // first retry of a failed delivery; doubled each time
  int alerts_retry_max_ms = 3'600'000;      // the longest wait between two attempts
  int alerts_timeout_ms = 10'000;           // one delivery attempt
  int alerts_give_up_after_s = 3 * 86'400;  // an undelivered alert is dropped after this
  int alerts_delivery_threads = 4;          // deliveries under way at once, in all
  int alerts_per_receiver = 2;              // … to one receiver (host and port)
  // Special-purpose ranges (loopback, private, link-local, …) receivers may be in anyway;
  // by default a webhook reaches public addresses only (accounts/webhook_address.hpp).
  std::vector<accounts::IpRange> alerts_allow_private_receivers;
  // [catalog]
  std::filesystem::path catalog_dir;
  // [plans.NAME]
  std::vector<accounts::Plan> plans;
};

// Environment variables by name (the process's, or a test's).
using Environment = std::map<std::string, std::string, std::less<>>;
Environment process_environment();

// The value of variable `name`, or of the file that `name`_FILE names (one trailing
// newline dropped, as `echo secret > file` leaves it); nullopt when neither is set.
// Throws std::runtime_error when both are set or the file cannot be read.
std::optional<std::string> environment_value(const Environment& env, const std::string& name);

// Reads `file` when given (a missing or malformed file is an error naming it), then the
// TOOLCALC_* variables of `env` over it. Throws std::runtime_error with a message fit for
// the operator.
ServiceConfig load_service_config(const std::optional<std::filesystem::path>& file,
                                  const Environment& env = process_environment());

// Every setting of [server], [store], [alerts] and [catalog]: its name ("store.flush_interval_ms"),
// its built-in default as JSON, and an integer's accepted range. `toolcalc limits` lists them
// for scripts/check_doc_limits.py, which holds docs/operations.md and config/toolcalc.toml to
// them.
struct SettingFacts {
  std::string name;
  std::string default_json;
  std::optional<int64_t> min, max;
};
std::vector<SettingFacts> setting_facts();

// The environment variable of a setting: TOOLCALC_ + section + _ + key, upper case, '-'
// and '.' as '_' (server.listen → TOOLCALC_SERVER_LISTEN).
std::string environment_name(std::string_view section, std::string_view key);

// Parses "HOST:PORT" into the config; throws std::runtime_error on a bad value.
void apply_listen(ServiceConfig& config, const std::string& listen);

}  // namespace toolcalc::cli
