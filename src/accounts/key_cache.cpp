#include "accounts/key_cache.hpp"

#include "accounts/api_key.hpp"
#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::accounts {

KeyCache::KeyCache(store::AccountStore& store, const std::vector<Plan>& plans, const Clock& clock)
    : store_(store), plans_(plans), clock_(clock) {
  if (const Plan* anon = find_plan(plans_, kAnonymousPlan))
    anonymous_plan_ = *anon;
  else
    anonymous_plan_ = Plan{std::string(kAnonymousPlan), 60, std::nullopt};
  anonymous_plan_.monthly_quota.reset();
}

void KeyCache::refresh(bool force) {
  MutexLock lock(refresh_mu_);
  const auto current = keys_.current();
  if (!force && store_.key_generation() == current->generation()) return;
  std::vector<std::string> skipped;
  auto next = KeySnapshot::build(store_.load_keys(), plans_, &skipped);
  // Named by its prefix only.
  for (const auto& s : skipped)
    log::warn("a key is refused: its plan is not configured", {{"key_prefix", s}});
  const size_t count = next->size();
  keys_.replace(std::move(next));
  metrics::key_reloads.inc();
  metrics::keys_cached.set(static_cast<int64_t>(count));
  log::info("keys loaded", {{"keys", std::to_string(count)}});
}

Caller KeyCache::anonymous_caller(std::string_view peer_ip) const {
  Caller c;
  c.anonymous = true;
  c.subject = "ip:" + std::string(peer_ip);
  c.plan = anonymous_plan_;
  return c;
}

AuthResult KeyCache::authenticate(std::optional<std::string_view> authorization,
                                  std::string_view peer_ip) const {
  AuthResult r;
  if (!authorization) {
    r.status = AuthStatus::Missing;
    r.caller = anonymous_caller(peer_ip);
    return r;
  }
  const auto token = bearer_token(*authorization);
  if (token && is_well_formed_key(*token)) {
    const auto snapshot = keys_.current();
    const ActiveKey* key = snapshot->find_by_hash(hash_api_key_cached(*token));
    // A secret replaced by a rotation works until its grace period ends.
    if (key && key->expires_epoch_s != 0 && clock_.now_s() >= key->expires_epoch_s) key = nullptr;
    if (key) {
      r.status = AuthStatus::Ok;
      r.caller.anonymous = false;
      r.caller.subject = key->subject;
      r.caller.key_prefix = key->prefix;
      r.caller.label = key->label;
      r.caller.plan = key->plan;
      r.caller.key_id = key->id;
      r.caller.rate_from_key = key->rate_from_key;
      r.caller.quota_from_key = key->quota_from_key;
      return r;
    }
  }
  r.status = AuthStatus::Invalid;
  r.caller = anonymous_caller(peer_ip);
  return r;
}

std::string KeyCache::create_dev_key(const std::string& plan, int64_t now_s) {
  IssuedKey issued = issue_key(store_, plans_, plan, "dev", KeyKind::Test, now_s);
  for (const auto& k : store_.load_keys().keys)
    if (k.id != issued.id && !k.revoked_epoch_s && k.label == "dev" &&
        std::string_view(k.prefix).starts_with(kTestKeyPrefix))
      store_.revoke_key(k.prefix, now_s);
  refresh(true);
  return std::move(issued.key);
}

}  // namespace toolcalc::accounts
