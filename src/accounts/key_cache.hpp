#pragma once
// The keys a server accepts, cached from the store (shared by Accounts and
// SharedAccounts): a KeyTable snapshot reloaded when the store's key generation moves,
// authentication against it (no store access per request), and the dev key of
// `serve --dev`.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/key_table.hpp"
#include "core/clock.hpp"
#include "core/thread_safety.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

class KeyCache {
 public:
  // `store` and `clock` must outlive the cache. Nothing is loaded until refresh().
  KeyCache(store::AccountStore& store, const std::vector<Plan>& plans, const Clock& clock);

  // Reloads when the store's generation moved (or always with force). Keys on a plan that
  // is not configured are refused and reported on stderr (by prefix). Throws what the
  // store throws; the current keys are then kept.
  void refresh(bool force = false) TOOLCALC_EXCLUDES(refresh_mu_);

  AuthResult authenticate(std::optional<std::string_view> authorization,
                          std::string_view peer_ip) const;
  Caller anonymous_caller(std::string_view peer_ip) const;

  // A `tc_test_` key labelled "dev" on `plan`; the older dev keys are revoked and the new
  // key is usable at once. Throws UnknownPlan, store::StoreError.
  std::string create_dev_key(const std::string& plan, int64_t now_s);

  // The active keys with a webhook URL, as of the last refresh.
  std::vector<WebhookKey> webhook_keys() const { return keys_.current()->webhook_keys(); }

 private:
  store::AccountStore& store_;
  const std::vector<Plan>& plans_;
  const Clock& clock_;
  Plan anonymous_plan_;
  KeyTable keys_;
  Mutex refresh_mu_;  // one reload at a time (the snapshot itself is read without it)
};

}  // namespace toolcalc::accounts
