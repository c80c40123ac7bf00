#pragma once
// The keys a server accepts, in memory: an immutable snapshot (key hash → active key)
// built from the store and swapped atomically when the store's key generation moves, so a
// request's key lookup takes no lock and touches no database.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "accounts/access_control.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

// A key's limits: its own where it has them, else its plan's.
struct EffectiveLimits {
  int64_t rate_per_minute = 0;
  bool rate_from_key = false;
  std::optional<int64_t> monthly_quota;
  bool quota_from_key = false;
};
EffectiveLimits effective_limits(const Plan& plan, const store::KeyRecord& key);

struct ActiveKey {
  int64_t id = 0;
  std::string subject;  // "key:<id>"
  std::string prefix;
  std::string label;
  Plan plan;  // the plan's name with the key's effective limits
  bool rate_from_key = false;
  bool quota_from_key = false;
  // The secret before a rotation is accepted until this instant (epoch seconds); 0 for
  // the current secret, which has no end.
  int64_t expires_epoch_s = 0;
};

// An active key with a webhook URL (quota alerts).
struct WebhookKey {
  int64_t id = 0;
  std::string prefix, label, url, secret;
  std::optional<int64_t> monthly_quota;
};

class KeySnapshot {
 public:
  // Active keys of `set` whose plan is configured (and not the anonymous plan). Keys left
  // out for an unknown plan are named (by prefix) in `skipped`.
  static std::shared_ptr<const KeySnapshot> build(const store::KeySet& set,
                                                  const std::vector<Plan>& plans,
                                                  std::vector<std::string>* skipped = nullptr);

  // The key this hash is a secret of, whether or not that secret has expired
  // (ActiveKey::expires_epoch_s).
  const ActiveKey* find_by_hash(std::string_view key_hash) const;
  int64_t generation() const { return generation_; }
  size_t size() const { return by_hash_.size(); }
  const std::vector<WebhookKey>& webhook_keys() const { return webhook_keys_; }

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  int64_t generation_ = -1;
  std::unordered_map<std::string, ActiveKey, StringHash, std::equal_to<>> by_hash_;
  std::vector<WebhookKey> webhook_keys_;
};

class KeyTable {
 public:
  KeyTable() : current_(std::make_shared<const KeySnapshot>()) {}
  std::shared_ptr<const KeySnapshot> current() const {
    return current_.load(std::memory_order_acquire);
  }
  void replace(std::shared_ptr<const KeySnapshot> next) {
    current_.store(std::move(next), std::memory_order_release);
  }

 private:
  std::atomic<std::shared_ptr<const KeySnapshot>> current_;
};

}  // namespace toolcalc::accounts
