#include "accounts/key_table.hpp"

#include "accounts/plans.hpp"

namespace toolcalc::accounts {

std::shared_ptr<const KeySnapshot> KeySnapshot::build(const store::KeySet& set,
                                                      const std::vector<Plan>& plans,
                                                      std::vector<std::string>* skipped) {
  auto snap = std::make_shared<KeySnapshot>();
  snap->generation_ = set.generation;
  for (const auto& k : set.keys) {
    if (k.revoked_epoch_s) continue;
    const Plan* plan = find_plan(plans, k.plan);
    // A key whose plan was removed from the config (or that names the anonymous plan) is
    // refused rather than silently moved to another plan's limits.
    if (!plan || plan->name == kAnonymousPlan) {
      if (skipped) skipped->push_back(k.prefix + " (plan '" + k.plan + "')");
      continue;
    }
    ActiveKey a;
    a.id = k.id;
    a.subject = "key:" + std::to_string(k.id);
    a.prefix = k.prefix;
    a.label = k.label;
    a.plan = *plan;
    snap->by_hash_.emplace(k.key_hash, std::move(a));
  }
  return snap;
}

const ActiveKey* KeySnapshot::find_by_hash(std::string_view key_hash) const {
  auto it = by_hash_.find(key_hash);
  return it == by_hash_.end() ? nullptr : &it->second;
}

}  // namespace toolcalc::accounts
