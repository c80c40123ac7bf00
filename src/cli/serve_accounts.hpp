#pragma once
// The accounts a server runs with: accounts::Accounts on the embedded SQLite store under
// the data directory, or accounts::SharedAccounts on Redis ([store] backend = "redis").
#include <memory>
#include <string>

#include "accounts/access_control.hpp"
#include "accounts/key_admin.hpp"
#include "cli/service_config.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"

namespace toolcalc::cli {

class ServeAccounts {
 public:
  // `new_store`: whether the store of the data directory (the embedded store, or a fleet
  // instance's usage ledger) may be created anew where one was used before (--new-store).
  ServeAccounts(const ServiceConfig& config, const Clock& clock, store::NewStore new_store);
  ~ServeAccounts();
  accounts::AccessControl& access();
  // Key management for the admin API, over a connection of its own to the same store.
  accounts::KeyAdmin& key_admin();
  std::string create_dev_key();  // tc_test_ key on the pro plan, printed once
  void start();                  // background key refresh, usage flush and quota alerts
  void stop();                   // final flush

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace toolcalc::cli
