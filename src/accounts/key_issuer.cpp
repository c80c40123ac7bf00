#include "accounts/key_issuer.hpp"

#include "accounts/plans.hpp"

namespace toolcalc::accounts {

std::vector<std::string> assignable_plans(const std::vector<Plan>& plans) {
  std::vector<std::string> names;
  for (const auto& p : plans)
    if (p.name != kAnonymousPlan) names.push_back(p.name);
  return names;
}

void check_assignable_plan(const std::vector<Plan>& plans, std::string_view plan) {
  if (plan != kAnonymousPlan && find_plan(plans, plan)) return;
  std::string list;
  for (const auto& name : assignable_plans(plans)) list += (list.empty() ? "" : ", ") + name;
  throw UnknownPlan("unknown plan '" + std::string(plan) + "' (plans: " + list + ")");
}

void check_label(std::string_view label) {
  if (label.size() > kMaxLabelLength)
    throw std::invalid_argument("label is longer than " + std::to_string(kMaxLabelLength) +
                                " bytes");
  for (char c : label)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw std::invalid_argument("label contains a control character");
}

IssuedKey issue_key(store::AccountStore& store, const std::vector<Plan>& plans,
                    std::string_view plan, std::string_view label, KeyKind kind,
                    int64_t now_epoch_s) {
  store::NewKey rec;
  rec.label = std::string(label);
  rec.plan = std::string(plan);
  rec.created_epoch_s = now_epoch_s;
  return issue_key(store, plans, std::move(rec), kind);
}

IssuedKey issue_key(store::AccountStore& store, const std::vector<Plan>& plans, store::NewKey rec,
                    KeyKind kind) {
  check_assignable_plan(plans, rec.plan);
  check_label(rec.label);
  // The prefix holds only 4 random characters (62⁴ ≈ 14.8 million per kind), so a clash
  // with an existing key is rare but not negligible past a few thousand keys: retry.
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string key = generate_api_key(kind);
    rec.prefix = std::string(key_prefix(key));
    rec.key_hash = hash_api_key(key);
    if (auto id = store.create_key(rec)) return IssuedKey{std::move(key), rec.prefix, *id};
  }
  throw std::runtime_error("could not find a free key prefix after 64 attempts");
}

}  // namespace toolcalc::accounts
