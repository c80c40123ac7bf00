#include "cli/serve_accounts.hpp"

#include "accounts/accounts.hpp"
#include "store/account_store.hpp"

namespace toolcalc::cli {

struct ServeAccounts::Impl {
  accounts::Accounts accounts;
  Impl(const ServiceConfig& config, const Clock& clock)
      : accounts(store::open_sqlite_store(config.data_dir), config.plans, clock,
                 std::chrono::milliseconds(config.usage_flush_interval_ms),
                 std::chrono::milliseconds(config.key_refresh_interval_ms)) {}
};

ServeAccounts::ServeAccounts(const ServiceConfig& config, const Clock& clock)
    : impl_(std::make_unique<Impl>(config, clock)) {}
ServeAccounts::~ServeAccounts() = default;
accounts::AccessControl& ServeAccounts::access() { return impl_->accounts; }
std::string ServeAccounts::create_dev_key() { return impl_->accounts.create_dev_key("pro"); }
void ServeAccounts::start() { impl_->accounts.start(); }
void ServeAccounts::stop() { impl_->accounts.stop(); }

}  // namespace toolcalc::cli
