#pragma once
// The keys a server accepts, in memory: an immutable snapshot (key hash → active key)
// built from the store and swapped atomically when the store's key generation moves, so a
// request's key lookup takes no lock and touches no database.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "accounts/access_control.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

struct ActiveKey {
  int64_t id = 0;
  std::string subject;  // "key:<id>"
  std::string prefix;
  std::string label;
  Plan plan;
};

class KeySnapshot {
 public:
  // Active keys of `set` whose plan is configured (and not the anonymous plan). Keys left
  // out for an unknown plan are named (by prefix) in `skipped`.
  static std::shared_ptr<const KeySnapshot> build(const store::KeySet& set,
                                                  const std::vector<Plan>& plans,
                                                  std::vector<std::string>* skipped = nullptr);

  const ActiveKey* find_by_hash(std::string_view key_hash) const;
  int64_t generation() const { return generation_; }
  size_t size() const { return by_hash_.size(); }

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  int64_t generation_ = -1;
  std::unordered_map<std::string, ActiveKey, StringHash, std::equal_to<>> by_hash_;
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
