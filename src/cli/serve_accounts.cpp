#include "cli/serve_accounts.hpp"

#include "cli/local_access.hpp"

namespace toolcalc::cli {

// Interim: replaced by accounts::Accounts on the SQLite store (issue 4).
struct ServeAccounts::Impl {
  LocalAccess access;
};

ServeAccounts::ServeAccounts(const ServiceConfig&, const Clock&) : impl_(std::make_unique<Impl>()) {}
ServeAccounts::~ServeAccounts() = default;
accounts::AccessControl& ServeAccounts::access() { return impl_->access; }
std::string ServeAccounts::create_dev_key() { return "local"; }
void ServeAccounts::start() {}
void ServeAccounts::stop() {}

}  // namespace toolcalc::cli
