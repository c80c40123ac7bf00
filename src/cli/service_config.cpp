#include "cli/service_config.hpp"

#include <toml++/toml.h>
#include <charconv>
#include <stdexcept>

#include "accounts/plans.hpp"
#include "store/redis_client.hpp"

namespace toolcalc::cli {
namespace {

template <typename T>
void read_int(const toml::table& t, const char* section, const char* key, T& out, int64_t min,
              int64_t max) {
  const toml::node* node = t.get(key);
  if (!node) return;
  // value_exact: value<int64_t>() also takes 10.0 and true, and casts an out-of-range
  // float to int64 (undefined behaviour in toml++ 3.3; found by fuzz_config).
  const auto v = node->value_exact<int64_t>();
  if (!v || *v < min || *v > max)
    throw std::runtime_error(std::string("config: ") + section + "." + key +
                             " must be an integer from " + std::to_string(min) + " to " +
                             std::to_string(max));
  out = static_cast<T>(*v);
}

std::optional<std::string> read_string(const toml::table& t, const char* section, const char* key) {
  const toml::node* node = t.get(key);
  if (!node) return std::nullopt;
  const auto v = node->value<std::string>();
  if (!v)
    throw std::runtime_error(std::string("config: ") + section + "." + key + " must be a string");
  return v;
}

void check_known(const toml::table& t, const char* section,
                 std::initializer_list<std::string_view> known) {
  for (const auto& [key, _] : t) {
    bool ok = false;
    for (auto k : known) ok = ok || key.str() == k;
    if (!ok)
      throw std::runtime_error(std::string("config: unknown setting ") + section + "." +
                               std::string(key.str()));
  }
}

}  // namespace

void apply_listen(ServiceConfig& config, const std::string& listen) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw std::runtime_error("listen address must be HOST:PORT, got '" + listen + "'");
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  int port = -1;
  const char* first = listen.data() + colon + 1;
  const char* last = listen.data() + listen.size();
  auto r = std::from_chars(first, last, port);
  if (r.ec != std::errc() || r.ptr != last || port < 0 || port > 65535)
    throw std::runtime_error("listen port must be 0..65535, got '" + listen.substr(colon + 1) +
                             "'");
  config.host = host;
  config.port = static_cast<uint16_t>(port);
}

ServiceConfig load_service_config(const std::optional<std::filesystem::path>& file) {
  ServiceConfig config;
  config.catalog_dir = TOOLCALC_DEFAULT_CATALOG_DIR;
  config.plans = accounts::builtin_plans();
  if (!file) return config;

  toml::table root;
  if (!std::filesystem::is_regular_file(*file))
    throw std::runtime_error(file->string() + ": config file not found");
  try {
    root = toml::parse_file(file->string());
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(file->string() + ":" + std::to_string(e.source().begin.line) + ": " +
                             std::string(e.description()));
  }
  check_known(root, "", {"server", "store", "catalog", "plans", "alerts"});
  if (const toml::table* s = root["server"].as_table()) {
    check_known(*s, "server",
                {"listen", "threads", "base_path", "max_connections", "read_timeout_s",
                 "idle_timeout_s", "shutdown_grace_s", "access_log", "mcp_allowed_origins"});
    if (auto listen = read_string(*s, "server", "listen")) apply_listen(config, *listen);
    read_int(*s, "server", "threads", config.threads, 0, 256);
    if (auto bp = read_string(*s, "server", "base_path")) config.base_path = *bp;
    read_int(*s, "server", "max_connections", config.max_connections, 1, 1'000'000);
    read_int(*s, "server", "read_timeout_s", config.read_timeout_s, 1, 3600);
    read_int(*s, "server", "idle_timeout_s", config.idle_timeout_s, 1, 3600);
    read_int(*s, "server", "shutdown_grace_s", config.shutdown_grace_s, 0, 3600);
    if (const toml::node* n = s->get("access_log")) {
      const auto v = n->value<bool>();
      if (!v) throw std::runtime_error("config: server.access_log must be true or false");
      config.access_log = *v;
    }
    if (const toml::node* n = s->get("mcp_allowed_origins")) {
      const std::string bad = "config: server.mcp_allowed_origins must be an array of strings";
      const toml::array* list = n->as_array();
      if (!list) throw std::runtime_error(bad);
      config.mcp_allowed_origins.clear();
      for (const auto& item : *list) {
        const auto v = item.value<std::string>();
        if (!v || v->empty()) throw std::runtime_error(bad);
        config.mcp_allowed_origins.push_back(*v);
      }
    }
  }
  if (const toml::table* s = root["store"].as_table()) {
    check_known(
        *s, "store",
        {"backend", "url", "timeout_ms", "data_dir", "flush_interval_ms", "key_refresh_ms"});
    if (auto backend = read_string(*s, "store", "backend")) {
      if (*backend != "sqlite" && *backend != "redis")
        throw std::runtime_error("config: store.backend '" + *backend +
                                 "' is not available (supported: sqlite, redis)");
      config.store_backend = *backend;
    }
    if (auto url = read_string(*s, "store", "url")) {
      try {
        store::parse_redis_url(*url);
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(std::string("config: store.url: ") + e.what());
      }
      config.redis_url = *url;
    }
    if (config.store_backend == "redis" && config.redis_url.empty())
      throw std::runtime_error(
          "config: store.backend \"redis\" needs store.url = \"redis://HOST:PORT/DB\"");
    read_int(*s, "store", "timeout_ms", config.redis_timeout_ms, 10, 60'000);
    if (auto dir = read_string(*s, "store", "data_dir")) config.data_dir = *dir;
    read_int(*s, "store", "flush_interval_ms", config.usage_flush_interval_ms, 10, 60'000);
    read_int(*s, "store", "key_refresh_ms", config.key_refresh_interval_ms, 100, 2'000);
  }
  if (const toml::table* s = root["alerts"].as_table()) {
    check_known(
        *s, "alerts",
        {"check_interval_ms", "retry_initial_ms", "retry_max_ms", "timeout_ms", "give_up_after_s"});
    read_int(*s, "alerts", "check_interval_ms", config.alerts_check_interval_ms, 100, 60'000);
    read_int(*s, "alerts", "retry_initial_ms", config.alerts_retry_initial_ms, 100, 3'600'000);
    read_int(*s, "alerts", "retry_max_ms", config.alerts_retry_max_ms, 100, 86'400'000);
    read_int(*s, "alerts", "timeout_ms", config.alerts_timeout_ms, 100, 60'000);
    read_int(*s, "alerts", "give_up_after_s", config.alerts_give_up_after_s, 1, 30 * 86'400);
  }
  if (const toml::table* s = root["catalog"].as_table()) {
    check_known(*s, "catalog", {"dir"});
    if (auto dir = read_string(*s, "catalog", "dir")) config.catalog_dir = *dir;
  }
  config.plans = accounts::plans_from_config(root);
  return config;
}

}  // namespace toolcalc::cli
