#include "accounts/key_admin.hpp"

#include <charconv>

#include "accounts/api_key.hpp"
#include "accounts/key_table.hpp"
#include "accounts/plans.hpp"
#include "accounts/utc_month.hpp"
#include "accounts/webhook_client.hpp"
#include "core/random.hpp"

namespace toolcalc::accounts {
namespace {

void check_limit(const std::optional<LimitSetting>& v, const char* field, int64_t min,
                 int64_t max) {
  if (!v || !*v) return;
  if (**v < min || **v > max)
    throw KeyRequestError(field, std::string(field) + " must be an integer from " +
                                     std::to_string(min) + " to " + std::to_string(max));
}

std::string max_grace_days() {
  return std::to_string(kMaxRotationGraceS / 86'400);
}

}  // namespace

int64_t parse_grace(std::string_view text) {
  const std::string bad = "grace must be a duration such as 24h, 90m, 30s, 7d or 0";
  if (text.empty()) throw KeyRequestError("grace", bad);
  int64_t n = 0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, n);
  if (r.ec != std::errc() || n < 0) throw KeyRequestError("grace", bad);
  const std::string_view unit(r.ptr, static_cast<size_t>(end - r.ptr));
  int64_t scale = 0;
  if (unit.empty() && n == 0)
    scale = 1;
  else if (unit == "s")
    scale = 1;
  else if (unit == "m")
    scale = 60;
  else if (unit == "h")
    scale = 3600;
  else if (unit == "d")
    scale = 86400;
  else
    throw KeyRequestError("grace", bad);
  if (n > kMaxRotationGraceS / scale)
    throw KeyRequestError("grace", "grace must be at most " + max_grace_days() + " days");
  return n * scale;
}

std::string generate_webhook_secret() {
  std::string s = "whsec_";
  append_random_base62(s, kWebhookSecretRandomChars);
  return s;
}

void KeyAdmin::check(const KeySettings& s) const {
  if (s.plan) check_assignable_plan(plans_, *s.plan);  // UnknownPlan names the plans
  if (s.label) {
    try {
      check_label(*s.label);
    } catch (const std::invalid_argument& e) {
      throw KeyRequestError("label", e.what());
    }
  }
  check_limit(s.rate_per_minute, "rate_per_minute", 1, kMaxRatePerMinute);
  check_limit(s.monthly_quota, "monthly_quota", 0, kMaxMonthlyQuota);
  if (s.webhook_url && !s.webhook_url->empty()) {
    std::string why;
    const auto url = parse_webhook_url(*s.webhook_url, &why);
    if (!url) throw KeyRequestError("webhook_url", why);
    if (auto refused = receivers_.refusal_of_host(url->host))
      throw KeyRequestError("webhook_url", "the receiver is refused: " + *refused);
  }
}

KeyView KeyAdmin::view_of(const store::KeyRecord& k, int64_t used,
                          const std::string& period) const {
  KeyView v;
  v.id = k.id;
  v.prefix = k.prefix;
  v.label = k.label;
  v.plan = k.plan;
  v.created_epoch_s = k.created_epoch_s;
  v.revoked_epoch_s = k.revoked_epoch_s;
  if (const Plan* plan = find_plan(plans_, k.plan))
    v.limits = effective_limits(*plan, k);
  else
    v.limits = effective_limits(Plan{k.plan, 0, std::nullopt}, k);
  v.used = used;
  v.period = period;
  v.webhook_url = k.webhook_url;
  if (!k.previous_hash.empty() && k.previous_expires_epoch_s > clock_.now_s())
    v.previous_secret_expires_epoch_s = k.previous_expires_epoch_s;
  return v;
}

CreatedKey KeyAdmin::create(const KeySettings& settings) {
  if (!settings.plan) throw KeyRequestError("plan", "plan is required");
  check(settings);
  store::NewKey rec;
  rec.label = settings.label.value_or("");
  rec.plan = *settings.plan;
  rec.created_epoch_s = clock_.now_s();
  if (settings.rate_per_minute) rec.rate_per_minute = *settings.rate_per_minute;
  if (settings.monthly_quota) rec.monthly_quota = *settings.monthly_quota;
  CreatedKey out;
  if (settings.webhook_url && !settings.webhook_url->empty()) {
    rec.webhook_url = *settings.webhook_url;
    rec.webhook_secret = out.webhook_secret = generate_webhook_secret();
  }
  IssuedKey issued = issue_key(store_, plans_, rec, KeyKind::Live);
  out.key = std::move(issued.key);
  out.view = get(issued.prefix);
  return out;
}

std::vector<KeyView> KeyAdmin::list() {
  const std::string period = utc_month_of(clock_.now_s()).period();
  std::vector<KeyView> out;
  for (const auto& k : store_.list_keys(period)) out.push_back(view_of(k.key, k.used, period));
  return out;
}

KeyView KeyAdmin::get(std::string_view prefix) {
  for (auto& v : list())
    if (v.prefix == prefix) return v;
  throw KeyNotFound("no key with prefix '" + std::string(prefix) + "'");
}

RotatedKey KeyAdmin::rotate(std::string_view prefix, int64_t grace_s) {
  if (grace_s < 0 || grace_s > kMaxRotationGraceS)
    throw KeyRequestError("grace", "grace must be from 0 to " + max_grace_days() + " days");
  if (!is_key_prefix(prefix)) throw KeyNotFound("no key with prefix '" + std::string(prefix) + "'");
  RotatedKey out;
  out.previous_expires_epoch_s = clock_.now_s() + grace_s;
  out.key = generate_api_key_with_prefix(prefix);
  switch (store_.rotate_key(prefix, hash_api_key(out.key), out.previous_expires_epoch_s)) {
    case store::ChangeOutcome::NotFound:
      throw KeyNotFound("no key with prefix '" + std::string(prefix) + "'");
    case store::ChangeOutcome::Revoked:
      throw KeyRevoked("key " + std::string(prefix) + " is revoked; issue a new key instead");
    case store::ChangeOutcome::Done:
      break;
  }
  out.view = get(prefix);
  return out;
}

UpdatedKey KeyAdmin::update(std::string_view prefix, const KeySettings& changes) {
  check(changes);
  store::KeyUpdate u;
  u.plan = changes.plan;
  u.label = changes.label;
  if (changes.rate_per_minute) {
    u.set_rate_per_minute = true;
    u.rate_per_minute = *changes.rate_per_minute;
  }
  if (changes.monthly_quota) {
    u.set_monthly_quota = true;
    u.monthly_quota = *changes.monthly_quota;
  }
  UpdatedKey out;
  if (changes.webhook_url) {
    u.set_webhook = true;
    u.webhook_url = *changes.webhook_url;
    if (!changes.webhook_url->empty())
      u.webhook_secret = out.webhook_secret = generate_webhook_secret();
  }
  switch (store_.update_key(prefix, u)) {
    case store::ChangeOutcome::NotFound:
      throw KeyNotFound("no key with prefix '" + std::string(prefix) + "'");
    case store::ChangeOutcome::Revoked:
      throw KeyRevoked("key " + std::string(prefix) + " is revoked; it cannot be changed");
    case store::ChangeOutcome::Done:
      break;
  }
  out.view = get(prefix);
  return out;
}

store::RevokeOutcome KeyAdmin::revoke(std::string_view prefix) {
  return store_.revoke_key(prefix, clock_.now_s());
}

}  // namespace toolcalc::accounts
