#include "cli/keys_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
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
  std::string prefix;
  std::string grace = std::to_string(accounts::kDefaultRotationGraceS) + "s";
  bool new_store = false;  // create: a new, empty store in a used data directory
  // As given on the command line; unset options leave the key's value alone.
  std::optional<std::string> plan, label, rate_per_minute, monthly_quota, webhook_url;
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

// "N" → that limit; "plan" → the plan's (no override).
accounts::LimitSetting parse_limit(const std::string& text, const char* field) {
  if (text == "plan") return std::nullopt;
  int64_t n = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw accounts::KeyRequestError(
        field, std::string("--") + field + " must be an integer, or 'plan' for the plan's");
  return n;
}

accounts::KeySettings settings_of(const KeysOptions& o) {
  accounts::KeySettings s;
  s.plan = o.plan;
  s.label = o.label;
  if (o.rate_per_minute) s.rate_per_minute = parse_limit(*o.rate_per_minute, "rate-per-minute");
  if (o.monthly_quota) s.monthly_quota = parse_limit(*o.monthly_quota, "monthly-quota");
  if (o.webhook_url) s.webhook_url = *o.webhook_url == "none" ? std::string() : *o.webhook_url;
  return s;
}

std::string limit_text(const std::optional<int64_t>& value, bool from_key) {
  std::string s = value ? std::to_string(*value) : "-";
  return from_key ? s + " (key)" : s;
}

// One line per key with a reader's columns.
void print_table(const std::vector<std::vector<std::string>>& rows) {
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

// The key admin over the configured store, for one command.
struct Admin {
  explicit Admin(const ServiceConfig& c,
                 store::NewStore new_store = store::NewStore::OnlyInAnUnusedDirectory)
      : config(c), store(open_account_store(config, new_store)) {}
  ServiceConfig config;
  std::unique_ptr<store::AccountStore> store;
  SystemClock clock;
  accounts::KeyAdmin admin{*store, config.plans, clock,
                           accounts::ReceiverPolicy(config.alerts_allow_private_receivers)};
};

void create_key(const KeysOptions& o) {
  const ServiceConfig config = resolve_config(o);
  // Checked before opening (and perhaps creating) the data directory.
  const accounts::KeySettings settings = settings_of(o);
  accounts::check_assignable_plan(config.plans, settings.plan.value_or(""));
  Admin a(config,
          o.new_store ? store::NewStore::EvenInAUsedOne : store::NewStore::OnlyInAnUnusedDirectory);
  const accounts::CreatedKey created = a.admin.create(settings);
  std::cout << created.key << "\n";
  if (!created.webhook_secret.empty()) std::cout << created.webhook_secret << "\n";
  std::cout.flush();
  std::cerr << "toolcalc: created key " << created.view.prefix << "… on plan " << created.view.plan
            << "; it is shown only this once"
            << (created.webhook_secret.empty()
                    ? ""
                    : ", as is the webhook signing secret on the second line")
            << "\n";
}

void list_keys(const KeysOptions& o) {
  Admin a(resolve_config(o));
  const auto keys = a.admin.list();
  const std::string period = accounts::utc_month_of(a.clock.now_s()).period();
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"PREFIX", "LABEL", "PLAN", "RATE/MIN", "QUOTA", "CREATED", "REVOKED",
                  "USED " + period, "WEBHOOK"});
  for (const auto& k : keys)
    rows.push_back({k.prefix, k.label.empty() ? "-" : k.label, k.plan,
                    limit_text(k.limits.rate_per_minute, k.limits.rate_from_key),
                    limit_text(k.limits.monthly_quota, k.limits.quota_from_key),
                    accounts::iso8601_utc(k.created_epoch_s),
                    k.revoked_epoch_s ? accounts::iso8601_utc(*k.revoked_epoch_s) : "-",
                    std::to_string(k.used), k.webhook_url.empty() ? "-" : "yes"});
  print_table(rows);
}

void rotate_key(const KeysOptions& o) {
  const int64_t grace_s = accounts::parse_grace(o.grace);
  Admin a(resolve_config(o));
  const accounts::RotatedKey rotated = a.admin.rotate(o.prefix, grace_s);
  std::cout << rotated.key << std::endl;
  std::cerr << "toolcalc: key " << o.prefix << " has a new secret (shown only this once); "
            << (grace_s == 0 ? std::string("the old secret is refused from now on")
                             : "the old secret is accepted until " +
                                   accounts::iso8601_utc(rotated.previous_expires_epoch_s))
            << "\n";
}

void update_key(const KeysOptions& o) {
  const accounts::KeySettings settings = settings_of(o);
  if (!settings.plan && !settings.label && !settings.rate_per_minute && !settings.monthly_quota &&
      !settings.webhook_url)
    throw std::runtime_error(
        "nothing to change: give --plan, --label, --rate-per-minute, --monthly-quota or "
        "--webhook-url");
  Admin a(resolve_config(o));
  const accounts::UpdatedKey updated = a.admin.update(o.prefix, settings);
  const auto& k = updated.view;
  if (!updated.webhook_secret.empty()) std::cout << updated.webhook_secret << "\n";
  std::cout.flush();
  std::cerr << "toolcalc: updated " << k.prefix << ": plan " << k.plan << ", "
            << limit_text(k.limits.rate_per_minute, k.limits.rate_from_key) << " per minute, "
            << limit_text(k.limits.monthly_quota, k.limits.quota_from_key) << " per month"
            << (k.webhook_url.empty() ? ", no webhook" : ", webhook set")
            << (updated.webhook_secret.empty()
                    ? ""
                    : "; the new webhook signing secret is on stdout, shown only this once")
            << "\n";
}

void revoke_key(const KeysOptions& o) {
  Admin a(resolve_config(o));
  switch (a.admin.revoke(o.prefix)) {
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

// The options a key's settings are given with (create and update).
void add_setting_options(CLI::App* sub, const std::shared_ptr<KeysOptions>& o, bool plan_required) {
  auto* plan = sub->add_option_function<std::string>(
      "--plan", [o](const std::string& v) { o->plan = v; },
      "Plan of the key (free, pro, business, …)");
  if (plan_required) plan->required();
  sub->add_option_function<std::string>(
      "--label", [o](const std::string& v) { o->label = v; }, "Free text shown by `keys list`");
  sub->add_option_function<std::string>(
      "--rate-per-minute", [o](const std::string& v) { o->rate_per_minute = v; },
      "This key's per-minute limit instead of its plan's ('plan': the plan's)");
  sub->add_option_function<std::string>(
      "--monthly-quota", [o](const std::string& v) { o->monthly_quota = v; },
      "This key's monthly quota instead of its plan's ('plan': the plan's)");
  sub->add_option_function<std::string>(
      "--webhook-url", [o](const std::string& v) { o->webhook_url = v; },
      "Where quota alerts (80/90/100 %) are POSTed ('none': no webhook); prints a new signing "
      "secret");
}

}  // namespace

void add_keys_command(CLI::App& app) {
  CLI::App* keys = app.add_subcommand("keys", "Create, list, rotate, update and revoke API keys");
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
  auto prefix_argument = [](CLI::App* sub, const std::shared_ptr<KeysOptions>& o) {
    sub->add_option("prefix", o->prefix,
                    "First " + std::to_string(accounts::kKeyPrefixLength) +
                        " characters of the key, as `keys list` shows them")
        ->required();
  };

  auto [create, create_opts] =
      subcommand("create", "Create a key and print it on stdout (shown only once)");
  add_setting_options(create, create_opts, true);
  create->add_flag("--new-store", create_opts->new_store,
                   "Create a new, empty store where the data directory's store is missing, "
                   "empty or unreadable (its files are renamed aside), as `serve --new-store`");
  create->callback([o = create_opts] { run_reporting_errors("create", [&] { create_key(*o); }); });

  auto [list, list_opts] = subcommand(
      "list", "List keys: prefix, label, plan, limits, created, revoked, this month's usage");
  list->callback([o = list_opts] { run_reporting_errors("list", [&] { list_keys(*o); }); });

  auto [rotate, rotate_opts] = subcommand(
      "rotate",
      "Give a key a new secret (printed once) with the same prefix, plan, limits and usage");
  prefix_argument(rotate, rotate_opts);
  rotate->add_option("--grace", rotate_opts->grace,
                     "How long the old secret keeps working: " +
                         std::to_string(accounts::kDefaultRotationGraceS / 3600) +
                         "h (default), 90m, 30s, 7d, 0 (refused at once); at most " +
                         std::to_string(accounts::kMaxRotationGraceS / 86'400) + " days");
  rotate->callback([o = rotate_opts] { run_reporting_errors("rotate", [&] { rotate_key(*o); }); });

  auto [update, update_opts] =
      subcommand("update", "Change a key's plan, per-key limits, label or webhook URL");
  prefix_argument(update, update_opts);
  add_setting_options(update, update_opts, false);
  update->callback([o = update_opts] { run_reporting_errors("update", [&] { update_key(*o); }); });

  auto [revoke, revoke_opts] = subcommand("revoke", "Revoke the key with this prefix");
  prefix_argument(revoke, revoke_opts);
  revoke->callback([o = revoke_opts] { run_reporting_errors("revoke", [&] { revoke_key(*o); }); });
}

}  // namespace toolcalc::cli
