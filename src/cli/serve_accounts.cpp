#include "cli/serve_accounts.hpp"

#include "accounts/accounts.hpp"
#include "accounts/quota_alerts.hpp"
#include "accounts/shared_accounts.hpp"
#include "cli/store_factory.hpp"
#include "store/account_store.hpp"
#include "store/redis_store.hpp"
#include "store/usage_ledger.hpp"

namespace toolcalc::cli {
namespace {

std::unique_ptr<accounts::AccessControl> open_accounts(const ServiceConfig& config,
                                                       const Clock& clock,
                                                       store::NewStore new_store) {
  const std::chrono::milliseconds refresh(config.key_refresh_interval_ms);
  if (uses_redis(config)) {
    const store::RedisOptions o = redis_options(config);
    return std::make_unique<accounts::SharedAccounts>(
        clock, accounts::SharedAccountsOptions{
                   .keys_store = store::open_redis_store(o),
                   .counters = store::open_redis_counters(o),
                   .plans = config.plans,
                   .key_refresh_interval = refresh,
                   .flush_interval = std::chrono::milliseconds(config.flush_interval_ms),
                   .ledger = store::open_usage_ledger(config.data_dir, new_store),
                   .ship_interval = std::chrono::milliseconds(config.ship_interval_ms)});
  }
  auto embedded = std::make_unique<accounts::Accounts>(
      clock, accounts::AccountsOptions{
                 .store = store::open_sqlite_store_for_serving(config.data_dir, new_store),
                 .plans = config.plans,
                 .flush_interval = std::chrono::milliseconds(config.flush_interval_ms),
                 .key_refresh_interval = refresh});
  embedded->acknowledge_after_commit(config.acknowledge_after_commit);
  return embedded;
}

}  // namespace

accounts::AlertOptions alert_options(const ServiceConfig& c) {
  accounts::AlertOptions o;
  o.check_interval = std::chrono::milliseconds(c.alerts_check_interval_ms);
  o.retry_initial = std::chrono::milliseconds(c.alerts_retry_initial_ms);
  o.retry_max = std::chrono::milliseconds(c.alerts_retry_max_ms);
  o.timeout = std::chrono::milliseconds(c.alerts_timeout_ms);
  o.give_up_after = std::chrono::seconds(c.alerts_give_up_after_s);
  o.delivery_threads = static_cast<size_t>(c.alerts_delivery_threads);
  o.per_receiver = static_cast<size_t>(c.alerts_per_receiver);
  o.receivers = accounts::ReceiverPolicy(c.alerts_allow_private_receivers);
  return o;
}

// Either backend, through the few calls serve makes besides AccessControl.
struct ServeAccounts::Impl {
  std::vector<accounts::Plan> plans;
  std::unique_ptr<accounts::AccessControl> access;
  accounts::Accounts* embedded = nullptr;
  accounts::SharedAccounts* shared = nullptr;
  // The admin API's and the alert sender's connection to the store: neither waits on the
  // accounts' own (the embedded store serialises its calls).
  std::unique_ptr<store::AccountStore> side_store;
  std::unique_ptr<accounts::KeyAdmin> admin;
  std::unique_ptr<accounts::QuotaAlerts> alerts;

  Impl(const ServiceConfig& config, const Clock& clock, store::NewStore new_store)
      : plans(config.plans), access(open_accounts(config, clock, new_store)) {
    embedded = dynamic_cast<accounts::Accounts*>(access.get());
    shared = dynamic_cast<accounts::SharedAccounts*>(access.get());
    side_store = open_account_store(config);
    admin = std::make_unique<accounts::KeyAdmin>(
        *side_store, plans, clock, accounts::ReceiverPolicy(config.alerts_allow_private_receivers));
    alerts = std::make_unique<accounts::QuotaAlerts>(
        *side_store, clock, [this] { return watches(); },
        [this](int64_t key_id, const std::string& period) {
          return shared ? shared->quota_used(key_id, period) : embedded->quota_used(key_id);
        },
        alert_options(config));
  }

  std::vector<accounts::AlertWatch> watches() const {
    std::vector<accounts::AlertWatch> out;
    for (const auto& k : shared ? shared->webhook_keys() : embedded->webhook_keys())
      if (k.monthly_quota)
        out.push_back({k.id, k.prefix, k.label, k.url, k.secret, *k.monthly_quota});
    return out;
  }
};

ServeAccounts::ServeAccounts(const ServiceConfig& config, const Clock& clock,
                             store::NewStore new_store)
    : impl_(std::make_unique<Impl>(config, clock, new_store)) {}
ServeAccounts::~ServeAccounts() = default;
accounts::AccessControl& ServeAccounts::access() {
  return *impl_->access;
}
accounts::KeyAdmin& ServeAccounts::key_admin() {
  return *impl_->admin;
}
std::string ServeAccounts::create_dev_key() {
  return impl_->shared ? impl_->shared->create_dev_key("pro")
                       : impl_->embedded->create_dev_key("pro");
}
void ServeAccounts::start() {
  if (impl_->shared) impl_->shared->start();
  if (impl_->embedded) impl_->embedded->start();
  impl_->alerts->start();
}
void ServeAccounts::stop() {
  impl_->alerts->stop();
  if (impl_->shared) impl_->shared->stop();
  if (impl_->embedded) impl_->embedded->stop();
}

}  // namespace toolcalc::cli
