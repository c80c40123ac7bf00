#include "cli/keys_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "accounts/key_issuer.hpp"
#include "accounts/utc_month.hpp"
#include "cli/service_config.hpp"
#include "cli/store_factory.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"

namespace toolcalc::cli {
namespace {

struct KeysOptions {
  std::string data;
  std::string config;
  std::string plan;
  std::string label;
  std::string prefix;
  CLI::Option* data_option = nullptr;
  CLI::Option* config_option = nullptr;
};

// --config as `serve` reads it, then --data over the config's store.data_dir.
ServiceConfig resolve_config(const KeysOptions& o) {
  std::optional<std::filesystem::path> file;
  if (o.config_option && o.config_option->count() > 0) file = o.config;
  ServiceConfig config = load_service_config(file);
  if (o.data_option && o.data_option->count() > 0) config.data_dir = o.data;
  return config;
}

template <typename Fn>
void run_reporting_errors(const char* name, Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    std::cerr << "toolcalc keys " << name << ": error: " << e.what() << "\n";
    throw CLI::RuntimeError(1);
  }
}

void create_key(const KeysOptions& o) {
  const ServiceConfig config = resolve_config(o);
  // Checked before opening (and perhaps creating) the data directory.
  accounts::check_assignable_plan(config.plans, o.plan);
  auto db = open_account_store(config);
  const SystemClock clock;
  const auto issued = accounts::issue_key(*db, config.plans, o.plan, o.label,
                                          accounts::KeyKind::Live, clock.now_s());
  std::cout << issued.key << std::endl;
  std::cerr << "toolcalc: created key " << issued.prefix << "… on plan " << o.plan
            << "; it is shown only this once\n";
}

void list_keys(const KeysOptions& o) {
  const ServiceConfig config = resolve_config(o);
  auto db = open_account_store(config);
  const SystemClock clock;
  const std::string period = accounts::utc_month_of(clock.now_s()).period();
  const auto keys = db->list_keys(period);

  std::vector<std::vector<std::string>> rows;
  rows.push_back({"PREFIX", "LABEL", "PLAN", "CREATED", "REVOKED", "USED " + period});
  for (const auto& k : keys)
    rows.push_back({k.key.prefix, k.key.label.empty() ? "-" : k.key.label, k.key.plan,
                    accounts::iso8601_utc(k.key.created_epoch_s),
                    k.key.revoked_epoch_s ? accounts::iso8601_utc(*k.key.revoked_epoch_s) : "-",
                    std::to_string(k.used)});
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line.append(width[i] - r[i].size() + 2, ' ');
    }
    std::cout << line << "\n";
  }
  std::cout.flush();
}

void revoke_key(const KeysOptions& o) {
  const ServiceConfig config = resolve_config(o);
  auto db = open_account_store(config);
  const SystemClock clock;
  switch (db->revoke_key(o.prefix, clock.now_s())) {
    case store::RevokeOutcome::Revoked:
      std::cout << "revoked " << o.prefix << std::endl;
      break;
    case store::RevokeOutcome::AlreadyRevoked:
      std::cout << o.prefix << " was already revoked" << std::endl;
      break;
    case store::RevokeOutcome::NotFound:
      throw std::runtime_error("no key with prefix '" + o.prefix + "' (see `toolcalc keys list`)");
  }
}

}  // namespace

void add_keys_command(CLI::App& app) {
  CLI::App* keys = app.add_subcommand("keys", "Create, list and revoke API keys");
  keys->require_subcommand(1);

  // Each subcommand has its own options, with --data and --config as for serve.
  auto subcommand = [keys](const char* name, const char* description) {
    auto o = std::make_shared<KeysOptions>();
    CLI::App* sub = keys->add_subcommand(name, description);
    o->data_option = sub->add_option(
        "--data", o->data, "Data directory holding toolcalc.db (overrides store.data_dir)");
    o->config_option = sub->add_option("--config", o->config, "Config file (TOML), as for serve");
    return std::pair{sub, o};
  };

  auto [create, create_opts] =
      subcommand("create", "Create a key and print it on stdout (shown only once)");
  create->add_option("--plan", create_opts->plan, "Plan of the key (free, pro, business, …)")
      ->required();
  create->add_option("--label", create_opts->label, "Free text shown by `keys list`");
  create->callback([o = create_opts] { run_reporting_errors("create", [&] { create_key(*o); }); });

  auto [list, list_opts] =
      subcommand("list", "List keys: prefix, label, plan, created, revoked, this month's usage");
  list->callback([o = list_opts] { run_reporting_errors("list", [&] { list_keys(*o); }); });

  auto [revoke, revoke_opts] = subcommand("revoke", "Revoke the key with this prefix");
  revoke
      ->add_option("prefix", revoke_opts->prefix,
                   "First 12 characters of the key, as `keys list` shows them")
      ->required();
  revoke->callback([o = revoke_opts] { run_reporting_errors("revoke", [&] { revoke_key(*o); }); });
}

}  // namespace toolcalc::cli
