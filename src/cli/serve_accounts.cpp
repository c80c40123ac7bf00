#include "cli/serve_accounts.hpp"

#include "accounts/accounts.hpp"
#include "accounts/shared_accounts.hpp"
#include "cli/store_factory.hpp"
#include "store/account_store.hpp"
#include "store/redis_store.hpp"

namespace toolcalc::cli {
namespace {

std::unique_ptr<accounts::AccessControl> open_accounts(const ServiceConfig& config,
                                                       const Clock& clock) {
  const std::chrono::milliseconds refresh(config.key_refresh_interval_ms);
  if (uses_redis(config)) {
    const store::RedisOptions o = redis_options(config);
    return std::make_unique<accounts::SharedAccounts>(
        store::open_redis_store(o), store::open_redis_counters(o), config.plans, clock, refresh);
  }
  return std::make_unique<accounts::Accounts>(
      store::open_sqlite_store(config.data_dir), config.plans, clock,
      std::chrono::milliseconds(config.usage_flush_interval_ms), refresh);
}

}  // namespace

// Either backend, through the few calls serve makes besides AccessControl.
struct ServeAccounts::Impl {
  std::unique_ptr<accounts::AccessControl> access;
  accounts::Accounts* embedded = nullptr;
  accounts::SharedAccounts* shared = nullptr;

  Impl(const ServiceConfig& config, const Clock& clock) : access(open_accounts(config, clock)) {
    embedded = dynamic_cast<accounts::Accounts*>(access.get());
    shared = dynamic_cast<accounts::SharedAccounts*>(access.get());
  }
};

ServeAccounts::ServeAccounts(const ServiceConfig& config, const Clock& clock)
    : impl_(std::make_unique<Impl>(config, clock)) {}
ServeAccounts::~ServeAccounts() = default;
accounts::AccessControl& ServeAccounts::access() {
  return *impl_->access;
}
std::string ServeAccounts::create_dev_key() {
  return impl_->shared ? impl_->shared->create_dev_key("pro")
                       : impl_->embedded->create_dev_key("pro");
}
void ServeAccounts::start() {
  if (impl_->shared) impl_->shared->start();
  if (impl_->embedded) impl_->embedded->start();
}
void ServeAccounts::stop() {
  if (impl_->shared) impl_->shared->stop();
  if (impl_->embedded) impl_->embedded->stop();
}

}  // namespace toolcalc::cli
