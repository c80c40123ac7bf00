#include "cli/service_config.hpp"

#include <toml++/toml.h>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "accounts/plans.hpp"
#include "cli/default_catalog_dir.hpp"
#include "core/log.hpp"
#include "store/redis_client.hpp"

extern char** environ;

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

// An array of strings, each passing `valid`; `bad` is the message for anything else.
template <class Valid>
std::optional<std::vector<std::string>> read_strings(const toml::table& t, const char* key,
                                                     const std::string& bad, Valid valid) {
  const toml::node* node = t.get(key);
  if (!node) return std::nullopt;
  const toml::array* list = node->as_array();
  if (!list) throw std::runtime_error(bad);
  std::vector<std::string> out;
  for (const auto& item : *list) {
    auto v = item.value<std::string>();
    if (!v || !valid(*v)) throw std::runtime_error(bad);
    out.push_back(std::move(*v));
  }
  return out;
}

enum class Kind { String, Integer, Boolean, StringList };

struct Setting {
  std::string_view section;
  std::string_view key;
  Kind kind;
};

// Every setting of the sections [server], [store] and [catalog] ([plans.NAME] are read by
// accounts::plans_from_config): what check_known accepts and what the environment can set.
constexpr Setting kSettings[] = {
    {"server", "listen", Kind::String},
    {"server", "threads", Kind::Integer},
    {"server", "base_path", Kind::String},
    {"server", "max_connections", Kind::Integer},
    {"server", "max_connections_per_address", Kind::Integer},
    {"server", "read_timeout_s", Kind::Integer},
    {"server", "idle_timeout_s", Kind::Integer},
    {"server", "shutdown_grace_s", Kind::Integer},
    {"server", "drain_delay_s", Kind::Integer},
    {"server", "access_log", Kind::Boolean},
    {"server", "access_log_buffer_kb", Kind::Integer},
    {"server", "access_log_flush_ms", Kind::Integer},
    {"server", "log_level", Kind::String},
    {"server", "analysis_threads", Kind::Integer},
    {"server", "analyses_per_key", Kind::Integer},
    {"server", "mcp_allowed_origins", Kind::StringList},
    {"store", "backend", Kind::String},
    {"store", "url", Kind::String},
    {"store", "password", Kind::String},
    {"store", "timeout_ms", Kind::Integer},
    {"store", "data_dir", Kind::String},
    {"store", "flush_interval_ms", Kind::Integer},
    {"store", "acknowledge_after_commit", Kind::Boolean},
    {"store", "ship_interval_ms", Kind::Integer},
    {"store", "key_refresh_ms", Kind::Integer},
    {"alerts", "check_interval_ms", Kind::Integer},
    {"alerts", "retry_initial_ms", Kind::Integer},
    {"alerts", "retry_max_ms", Kind::Integer},
    {"alerts", "timeout_ms", Kind::Integer},
    {"alerts", "give_up_after_s", Kind::Integer},
    {"alerts", "delivery_threads", Kind::Integer},
    {"alerts", "per_receiver", Kind::Integer},
    {"alerts", "allow_private_receivers", Kind::StringList},
    {"catalog", "dir", Kind::String},
};

constexpr std::string_view kSections[] = {"server", "store", "alerts", "catalog"};
constexpr std::string_view kPlanFields[] = {"rate_per_minute", "monthly_quota"};

void check_known(const toml::table& t, const char* section) {
  for (const auto& [key, _] : t) {
    bool ok = false;
    for (const auto& s : kSettings) ok = ok || (s.section == section && s.key == key.str());
    if (!ok)
      throw std::runtime_error(std::string("config: unknown setting ") + section + "." +
                               std::string(key.str()));
  }
}

std::string upper_name(std::string_view text) {
  std::string out;
  for (char c : text)
    out += (c == '-' || c == '.') ? '_'
                                  : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

int64_t environment_integer(const std::string& name, const std::string& text) {
  int64_t v = 0;
  const char* last = text.data() + text.size();
  const auto r = std::from_chars(text.data(), last, v);
  if (text.empty() || r.ec != std::errc() || r.ptr != last)
    throw std::runtime_error("config: " + name + " must be an integer, got '" + text + "'");
  return v;
}

// A variable's text as the TOML value the setting takes.
void set_from_environment(toml::table& section, std::string_view key, Kind kind,
                          const std::string& name, const std::string& text) {
  switch (kind) {
    case Kind::String:
      section.insert_or_assign(key, text);
      return;
    case Kind::Integer:
      section.insert_or_assign(key, environment_integer(name, text));
      return;
    case Kind::Boolean:
      if (text != "true" && text != "false")
        throw std::runtime_error("config: " + name + " must be true or false, got '" + text + "'");
      section.insert_or_assign(key, text == "true");
      return;
    case Kind::StringList: {
      // Comma-separated; spaces around an item are dropped; "" is the empty list.
      toml::array list;
      for (size_t at = 0; at < text.size();) {
        size_t comma = text.find(',', at);
        if (comma == std::string::npos) comma = text.size();
        std::string item = text.substr(at, comma - at);
        while (!item.empty() && item.front() == ' ') item.erase(item.begin());
        while (!item.empty() && item.back() == ' ') item.pop_back();
        list.push_back(item);
        at = comma + 1;
      }
      section.insert_or_assign(key, std::move(list));
      return;
    }
  }
}

toml::table& section_table(toml::table& root, std::string_view name) {
  if (!root.contains(name)) root.insert(name, toml::table{});
  toml::table* t = root[name].as_table();
  if (!t) throw std::runtime_error("config: [" + std::string(name) + "] must be a table");
  return *t;
}

// The TOOLCALC_* variables over the file's tables: the environment wins.
void apply_environment(toml::table& root, const Environment& env) {
  for (const auto& s : kSettings) {
    const std::string name = environment_name(s.section, s.key);
    if (auto value = environment_value(env, name))
      set_from_environment(section_table(root, s.section), s.key, s.kind, name, *value);
  }
  // TOOLCALC_PLANS_<NAME>_<FIELD>: the plan name in lower case.
  constexpr std::string_view plans_prefix = "TOOLCALC_PLANS_";
  for (const auto& [var, _] : env) {
    if (!var.starts_with(plans_prefix)) continue;
    const std::string name = var.ends_with("_FILE") ? var.substr(0, var.size() - 5) : var;
    bool matched = false;
    for (std::string_view field : kPlanFields) {
      const std::string suffix = "_" + upper_name(field);
      if (name.size() <= plans_prefix.size() + suffix.size() || !name.ends_with(suffix)) continue;
      std::string plan =
          name.substr(plans_prefix.size(), name.size() - plans_prefix.size() - suffix.size());
      for (char& c : plan) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const auto value = environment_value(env, name);
      toml::table& plans = section_table(root, "plans");
      if (!plans.contains(plan)) plans.insert(plan, toml::table{});
      toml::table* t = plans[plan].as_table();
      if (!t) throw std::runtime_error("config: [plans." + plan + "] must be a table");
      set_from_environment(*t, field, Kind::Integer, name, *value);
      matched = true;
    }
    if (!matched)
      throw std::runtime_error("config: unknown setting " + var +
                               " (TOOLCALC_PLANS_<NAME>_RATE_PER_MINUTE or _MONTHLY_QUOTA)");
  }
  // A misspelt variable of a known section is an error, not silently ignored.
  for (const auto& [var, _] : env) {
    for (std::string_view section : kSections) {
      const std::string prefix = "TOOLCALC_" + upper_name(section) + "_";
      if (!var.starts_with(prefix)) continue;
      const std::string name = var.ends_with("_FILE") ? var.substr(0, var.size() - 5) : var;
      bool known = false;
      for (const auto& s : kSettings) known = known || environment_name(s.section, s.key) == name;
      if (!known) throw std::runtime_error("config: unknown setting " + var);
    }
  }
}

void check_known_sections(const toml::table& root) {
  for (const auto& [key, _] : root) {
    bool ok = key.str() == "plans";
    for (std::string_view section : kSections) ok = ok || key.str() == section;
    if (!ok) throw std::runtime_error("config: unknown setting " + std::string(key.str()));
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

std::optional<std::string> environment_value(const Environment& env, const std::string& name) {
  const auto direct = env.find(name);
  const auto file = env.find(name + "_FILE");
  if (direct != env.end() && file != env.end())
    throw std::runtime_error("config: set " + name + " or " + name + "_FILE, not both");
  if (direct != env.end()) return direct->second;
  if (file == env.end()) return std::nullopt;
  std::ifstream in(file->second, std::ios::binary);
  if (!in) throw std::runtime_error("config: " + name + "_FILE: cannot read " + file->second);
  std::string value((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (value.ends_with('\n')) value.pop_back();
  if (value.ends_with('\r')) value.pop_back();
  return value;
}

std::string environment_name(std::string_view section, std::string_view key) {
  return "TOOLCALC_" + upper_name(section) + "_" + upper_name(key);
}

Environment process_environment() {
  Environment env;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos || !entry.starts_with("TOOLCALC_")) continue;
    env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

ServiceConfig load_service_config(const std::optional<std::filesystem::path>& file,
                                  const Environment& env) {
  ServiceConfig config;
  config.catalog_dir = default_catalog_dir();
  config.plans = accounts::builtin_plans();

  toml::table root;
  if (file) {
    if (!std::filesystem::is_regular_file(*file))
      throw std::runtime_error(file->string() + ": config file not found");
    try {
      root = toml::parse_file(file->string());
    } catch (const toml::parse_error& e) {
      throw std::runtime_error(file->string() + ":" + std::to_string(e.source().begin.line) + ": " +
                               std::string(e.description()));
    }
  }
  apply_environment(root, env);
  check_known_sections(root);
  if (const toml::table* s = root["server"].as_table()) {
    check_known(*s, "server");
    if (auto listen = read_string(*s, "server", "listen")) apply_listen(config, *listen);
    read_int(*s, "server", "threads", config.threads, 0, 256);
    if (auto bp = read_string(*s, "server", "base_path")) config.base_path = *bp;
    read_int(*s, "server", "max_connections", config.max_connections, 1, 1'000'000);
    read_int(*s, "server", "max_connections_per_address", config.max_connections_per_address, 0,
             1'000'000);
    read_int(*s, "server", "read_timeout_s", config.read_timeout_s, 1, 3600);
    read_int(*s, "server", "idle_timeout_s", config.idle_timeout_s, 1, 3600);
    read_int(*s, "server", "shutdown_grace_s", config.shutdown_grace_s, 0, 3600);
    read_int(*s, "server", "drain_delay_s", config.drain_delay_s, 0, 3600);
    if (auto level = read_string(*s, "server", "log_level")) {
      if (!log::parse_level(*level))
        throw std::runtime_error("config: server.log_level must be debug, info, warn or error");
      config.log_level = *level;
    }
    read_int(*s, "server", "analysis_threads", config.analysis_threads, 0, 256);
    read_int(*s, "server", "analyses_per_key", config.analyses_per_key, 0, 1024);
    if (const toml::node* n = s->get("access_log")) {
      const auto v = n->value<bool>();
      if (!v) throw std::runtime_error("config: server.access_log must be true or false");
      config.access_log = *v;
    }
    read_int(*s, "server", "access_log_buffer_kb", config.access_log_buffer_kb, 1, 16 * 1024);
    read_int(*s, "server", "access_log_flush_ms", config.access_log_flush_ms, 0, 1000);
    if (auto origins =
            read_strings(*s, "mcp_allowed_origins",
                         "config: server.mcp_allowed_origins must be an array of strings",
                         [](const std::string& v) { return !v.empty(); }))
      config.mcp_allowed_origins = std::move(*origins);
  }
  if (const toml::table* s = root["store"].as_table()) {
    check_known(*s, "store");
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
    // Apart from the URL so that it can come from a file (TOOLCALC_STORE_PASSWORD_FILE)
    // while the URL sits in the config.
    if (auto password = read_string(*s, "store", "password")) config.redis_password = *password;
    if (config.store_backend == "redis" && config.redis_url.empty())
      throw std::runtime_error(
          "config: store.backend \"redis\" needs store.url = \"redis://HOST:PORT/DB\"");
    read_int(*s, "store", "timeout_ms", config.redis_timeout_ms, 10, 60'000);
    if (auto dir = read_string(*s, "store", "data_dir")) config.data_dir = *dir;
    read_int(*s, "store", "flush_interval_ms", config.flush_interval_ms, 10, 60'000);
    if (const toml::node* n = s->get("acknowledge_after_commit")) {
      const auto v = n->value<bool>();
      if (!v)
        throw std::runtime_error("config: store.acknowledge_after_commit must be true or false");
      config.acknowledge_after_commit = *v;
    }
    read_int(*s, "store", "ship_interval_ms", config.ship_interval_ms, 1, 1'000);
    read_int(*s, "store", "key_refresh_ms", config.key_refresh_interval_ms, 100, 2'000);
  }
  if (const toml::table* s = root["alerts"].as_table()) {
    check_known(*s, "alerts");
    read_int(*s, "alerts", "check_interval_ms", config.alerts_check_interval_ms, 100, 60'000);
    read_int(*s, "alerts", "retry_initial_ms", config.alerts_retry_initial_ms, 100, 3'600'000);
    read_int(*s, "alerts", "retry_max_ms", config.alerts_retry_max_ms, 100, 86'400'000);
    read_int(*s, "alerts", "timeout_ms", config.alerts_timeout_ms, 100, 60'000);
    read_int(*s, "alerts", "give_up_after_s", config.alerts_give_up_after_s, 1, 30 * 86'400);
    read_int(*s, "alerts", "delivery_threads", config.alerts_delivery_threads, 1, 64);
    read_int(*s, "alerts", "per_receiver", config.alerts_per_receiver, 1, 16);
    if (auto ranges = read_strings(*s, "allow_private_receivers",
                                   "config: alerts.allow_private_receivers must be an array of "
                                   "CIDR ranges (\"127.0.0.0/8\", \"fd00::/8\")",
                                   [](const std::string&) { return true; })) {
      config.alerts_allow_private_receivers.clear();
      for (const std::string& text : *ranges) {
        std::string why;
        const auto range = accounts::parse_ip_range(text, &why);
        if (!range) throw std::runtime_error("config: alerts.allow_private_receivers: " + why);
        config.alerts_allow_private_receivers.push_back(*range);
      }
    }
  }
  if (const toml::table* s = root["catalog"].as_table()) {
    check_known(*s, "catalog");
    if (auto dir = read_string(*s, "catalog", "dir")) config.catalog_dir = *dir;
  }
  config.plans = accounts::plans_from_config(root);
  return config;
}

}  // namespace toolcalc::cli
