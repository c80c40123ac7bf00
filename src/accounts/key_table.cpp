#include "accounts/key_table.hpp"

#include "accounts/plans.hpp"

namespace toolcalc::accounts {

EffectiveLimits effective_limits(const Plan& plan, const store::KeyRecord& key) {
  EffectiveLimits e;
  e.rate_per_minute = key.rate_per_minute.value_or(plan.rate_per_minute);
  e.rate_from_key = key.rate_per_minute.has_value();
  e.monthly_quota = key.monthly_quota ? key.monthly_quota : plan.monthly_quota;
  e.quota_from_key = key.monthly_quota.has_value();
  return e;
}

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
    const EffectiveLimits limits = effective_limits(*plan, k);
    ActiveKey a;
    a.id = k.id;
    a.subject = "key:" + std::to_string(k.id);
    a.prefix = k.prefix;
    a.label = k.label;
    a.plan = {plan->name, limits.rate_per_minute, limits.monthly_quota};
    a.rate_from_key = limits.rate_from_key;
    a.quota_from_key = limits.quota_from_key;
    // The secret before a rotation, until its grace period ends (checked per request, so
    // that it ends on time without a reload).
    if (!k.previous_hash.empty() && k.previous_expires_epoch_s > 0) {
      ActiveKey previous = a;
      previous.expires_epoch_s = k.previous_expires_epoch_s;
      snap->by_hash_.emplace(k.previous_hash, std::move(previous));
    }
    if (!k.webhook_url.empty())
      snap->webhook_keys_.push_back(
          {k.id, k.prefix, k.label, k.webhook_url, k.webhook_secret, limits.monthly_quota});
    snap->by_hash_.emplace(k.key_hash, std::move(a));
  }
  return snap;
}

const ActiveKey* KeySnapshot::find_by_hash(std::string_view key_hash) const {
  auto it = by_hash_.find(key_hash);
  return it == by_hash_.end() ? nullptr : &it->second;
}

}  // namespace toolcalc::accounts
