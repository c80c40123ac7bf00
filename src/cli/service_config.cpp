#include "cli/service_config.hpp"

#include <toml++/toml.h>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "accounts/plans.hpp"
#include "cli/default_catalog_dir.hpp"
#include "core/json_writer.hpp"
#include "core/log.hpp"
#include "store/redis_client.hpp"

extern char** environ;

namespace toolcalc::cli {
namespace {

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

// A default as JSON (what `toolcalc limits` lists).
std::string json_text(std::string_view v) {
  std::string out;
  JsonWriter(out).string(v);
  return out;
}
std::string json_text(int64_t v) {
  return std::to_string(v);
}
std::string json_text(int v) {
  return std::to_string(v);
}
std::string json_text(bool v) {
  return v ? "true" : "false";
}
std::string json_text(const std::vector<std::string>& list) {
  std::string out;
  JsonWriter w(out);
  w.begin_array();
  for (const auto& v : list) w.string(v);
  w.end_array();
  return out;
}

struct Setting {
  std::string_view section;
  std::string_view key;
  Kind kind;
  int64_t min = 0, max = 0;  // Kind::Integer: the values accepted
  std::string (*default_of)(const ServiceConfig&);
};

using Defaults = const ServiceConfig&;

// Every setting of the sections [server], [store], [alerts] and [catalog] ([plans.NAME] are
// read by accounts::plans_from_config): what check_known accepts, what the environment can
// set, an integer's range and the built-in default (docs/operations.md and
// config/toolcalc.toml state them; scripts/check_doc_limits.py compares).
const Setting kSettings[] = {
    {"server", "listen", Kind::String, 0, 0,
     [](Defaults c) { return json_text(c.host + ":" + std::to_string(c.port)); }},
    {"server", "threads", Kind::Integer, 0, 256, [](Defaults c) { return json_text(c.threads); }},
    {"server", "base_path", Kind::String, 0, 0, [](Defaults c) { return json_text(c.base_path); }},
    {"server", "max_connections", Kind::Integer, 1, 1'000'000,
     [](Defaults c) { return json_text(static_cast<int64_t>(c.max_connections)); }},
    {"server", "max_connections_per_address", Kind::Integer, 0, 1'000'000,
     [](Defaults c) { return json_text(static_cast<int64_t>(c.max_connections_per_address)); }},
    {"server", "read_timeout_s", Kind::Integer, 1, 3600,
     [](Defaults c) { return json_text(c.read_timeout_s); }},
    {"server", "idle_timeout_s", Kind::Integer, 1, 3600,
     [](Defaults c) { return json_text(c.idle_timeout_s); }},
    {"server", "shutdown_grace_s", Kind::Integer, 0, 3600,
     [](Defaults c) { return json_text(c.shutdown_grace_s); }},
    {"server", "drain_delay_s", Kind::Integer, 0, 3600,
     [](Defaults c) { return json_text(c.drain_delay_s); }},
    {"server", "access_log", Kind::Boolean, 0, 0,
     [](Defaults c) { return json_text(c.access_log); }},
    {"server", "access_log_buffer_kb", Kind::Integer, 1, 16 * 1024,
     [](Defaults c) { return json_text(c.access_log_buffer_kb); }},
    {"server", "access_log_flush_ms", Kind::Integer, 0, 1000,
     [](Defaults c) { return json_text(c.access_log_flush_ms); }},
    {"server", "log_level", Kind::String, 0, 0, [](Defaults c) { return json_text(c.log_level); }},
    {"server", "analysis_threads", Kind::Integer, 0, 256,
     [](Defaults c) { return json_text(c.analysis_threads); }},
    {"server", "analyses_per_key", Kind::Integer, 0, 1024,
     [](Defaults c) { return json_text(c.analyses_per_key); }},
    {"server", "mcp_allowed_origins", Kind::StringList, 0, 0,
     [](Defaults c) { return json_text(c.mcp_allowed_origins); }},
    {"store", "backend", Kind::String, 0, 0, [](Defaults c) { return json_text(c.store_backend); }},
    {"store", "url", Kind::String, 0, 0, [](Defaults c) { return json_text(c.redis_url); }},
    {"store", "password", Kind::String, 0, 0,
     [](Defaults c) { return json_text(c.redis_password); }},
    {"store", "timeout_ms", Kind::Integer, 10, 60'000,
     [](Defaults c) { return json_text(c.redis_timeout_ms); }},
    {"store", "data_dir", Kind::String, 0, 0,
     [](Defaults c) { return json_text(c.data_dir.string()); }},
    {"store", "flush_interval_ms", Kind::Integer, 10, 60'000,
     [](Defaults c) { return json_text(c.flush_interval_ms); }},
    {"store", "acknowledge_after_commit", Kind::Boolean, 0, 0,
     [](Defaults c) { return json_text(c.acknowledge_after_commit); }},
    {"store", "ship_interval_ms", Kind::Integer, 1, 1'000,
     [](Defaults c) { return json_text(c.ship_interval_ms); }},
    {"store", "key_refresh_ms", Kind::Integer, 100, 2'000,
     [](Defaults c) { return json_text(c.key_refresh_interval_ms); }},
    {"alerts", "check_interval_ms", Kind::Integer, 100, 60'000,
     [](Defaults c) { return json_text(c.alerts_check_interval_ms); }},
    {"alerts", "retry_initial_ms", Kind::Integer, 100, 3'600'000,
     [](Defaults c) { return json_text(c.alerts_retry_initial_ms); }},
    {"alerts", "retry_max_ms", Kind::Integer, 100, 86'400'000,
     [](Defaults c) { return json_text(c.alerts_retry_max_ms); }},
    {"alerts", "timeout_ms", Kind::Integer, 100, 60'000,
     [](Defaults c) { return json_text(c.alerts_timeout_ms); }},
    {"alerts", "give_up_after_s", Kind::Integer, 1, 30 * 86'400,
     [](Defaults c) { return json_text(c.alerts_give_up_after_s); }},
    {"alerts", "delivery_threads", Kind::Integer, 1, 64,
     [](Defaults c) { return json_text(c.alerts_delivery_threads); }},
    {"alerts", "per_receiver", Kind::Integer, 1, 16,
     [](Defaults c) { return json_text(c.alerts_per_receiver); }},
    {"alerts", "allow_private_receivers", Kind::StringList, 0, 0,
     [](Defaults c) {
       // None by default; a parsed range is not written back as text.
       return c.alerts_allow_private_receivers.empty() ? json_text(std::vector<std::string>{})
                                                       : std::string("null");
     }},
    {"catalog", "dir", Kind::String, 0, 0,
     [](Defaults c) { return json_text(c.catalog_dir.string()); }},
};

// The integer setting section.key, within its row's range, into `out` when it is given.
template <typename T>
void read_int(const toml::table& t, const char* section, const char* key, T& out) {
  const toml::node* node = t.get(key);
  if (!node) return;
  const Setting* row = nullptr;
  for (const auto& s : kSettings)
    if (s.section == section && s.key == key && s.kind == Kind::Integer) row = &s;
  if (row == nullptr) throw std::logic_error(std::string("read_int: no setting ") + key);
  // value_exact: value<int64_t>() also takes 10.0 and true, and casts an out-of-range
  // float to int64 (undefined behaviour in toml++ 3.3; found by fuzz_config).
  const auto v = node->value_exact<int64_t>();
  if (!v || *v < row->min || *v > row->max)
    throw std::runtime_error(std::string("config: ") + section + "." + key +
                             " must be an integer from " + std::to_string(row->min) + " to " +
                             std::to_string(row->max));
  out = static_cast<T>(*v);
}

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

std::vector<SettingFacts> setting_facts() {
  ServiceConfig defaults;
  defaults.catalog_dir = default_catalog_dir();
  std::vector<SettingFacts> out;
  for (const auto& s : kSettings) {
    SettingFacts f{
        std::string(s.section) + "." + std::string(s.key), s.default_of(defaults), {}, {}};
    if (s.kind == Kind::Integer) f.min = s.min, f.max = s.max;
    out.push_back(std::move(f));
  }
  return out;
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
    read_int(*s, "server", "threads", config.threads);
    if (auto bp = read_string(*s, "server", "base_path")) config.base_path = *bp;
    read_int(*s, "server", "max_connections", config.max_connections);
    read_int(*s, "server", "max_connections_per_address", config.max_connections_per_address);
    read_int(*s, "server", "read_timeout_s", config.read_timeout_s);
    read_int(*s, "server", "idle_timeout_s", config.idle_timeout_s);
    read_int(*s, "server", "shutdown_grace_s", config.shutdown_grace_s);
    read_int(*s, "server", "drain_delay_s", config.drain_delay_s);
    if (auto level = read_string(*s, "server", "log_level")) {
      if (!log::parse_level(*level))
        throw std::runtime_error("config: server.log_level must be debug, info, warn or error");
      config.log_level = *level;
    }
    read_int(*s, "server", "analysis_threads", config.analysis_threads);
    read_int(*s, "server", "analyses_per_key", config.analyses_per_key);
    if (const toml::node* n = s->get("access_log")) {
      const auto v = n->value<bool>();
      if (!v) throw std::runtime_error("config: server.access_log must be true or false");
      config.access_log = *v;
    }
    read_int(*s, "server", "access_log_buffer_kb", config.access_log_buffer_kb);
    read_int(*s, "server", "access_log_flush_ms", config.access_log_flush_ms);
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
    read_int(*s, "store", "timeout_ms", config.redis_timeout_ms);
    if (auto dir = read_string(*s, "store", "data_dir")) config.data_dir = *dir;
    read_int(*s, "store", "flush_interval_ms", config.flush_interval_ms);
    if (const toml::node* n = s->get("acknowledge_after_commit")) {
      const auto v = n->value<bool>();
      if (!v)
        throw std::runtime_error("config: store.acknowledge_after_commit must be true or false");
      config.acknowledge_after_commit = *v;
    }
    read_int(*s, "store", "ship_interval_ms", config.ship_interval_ms);
    read_int(*s, "store", "key_refresh_ms", config.key_refresh_interval_ms);
  }
  if (const toml::table* s = root["alerts"].as_table()) {
    check_known(*s, "alerts");
    read_int(*s, "alerts", "check_interval_ms", config.alerts_check_interval_ms);
    read_int(*s, "alerts", "retry_initial_ms", config.alerts_retry_initial_ms);
    read_int(*s, "alerts", "retry_max_ms", config.alerts_retry_max_ms);
    read_int(*s, "alerts", "timeout_ms", config.alerts_timeout_ms);
    read_int(*s, "alerts", "give_up_after_s", config.alerts_give_up_after_s);
    read_int(*s, "alerts", "delivery_threads", config.alerts_delivery_threads);
    read_int(*s, "alerts", "per_receiver", config.alerts_per_receiver);
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
