#pragma once
// Issuing and revoking keys: shared by `toolcalc keys` and `serve --dev`.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/api_key.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

// A plan name a key cannot have; the message lists the plans it can have.
class UnknownPlan : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct IssuedKey {
  std::string key;  // plaintext: shown once, never stored
  std::string prefix;
  int64_t id = 0;
};

inline constexpr size_t kMaxLabelLength = 100;

// Plans a key may be issued on: every configured plan except the anonymous one.
std::vector<std::string> assignable_plans(const std::vector<Plan>& plans);

// Throws UnknownPlan unless `plan` is an assignable plan of `plans`.
void check_assignable_plan(const std::vector<Plan>& plans, std::string_view plan);

// Throws std::invalid_argument when `label` is longer than kMaxLabelLength or holds a
// control character.
void check_label(std::string_view label);

// Generates a key of `kind` on `plan` and records its hash. Throws UnknownPlan,
// std::invalid_argument (label too long or with control characters), store::StoreError.
IssuedKey issue_key(store::AccountStore& store, const std::vector<Plan>& plans,
                    std::string_view plan, std::string_view label, KeyKind kind,
                    int64_t now_epoch_s);

// The same with everything else a key record holds taken from `record` (its prefix and
// hash are generated).
IssuedKey issue_key(store::AccountStore& store, const std::vector<Plan>& plans,
                    store::NewKey record, KeyKind kind);

}  // namespace toolcalc::accounts
