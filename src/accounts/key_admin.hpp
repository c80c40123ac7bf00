#pragma once
// Managing keys: create, list, rotate, update and revoke, with one set of rules for
// `toolcalc keys` and the admin API (/admin/v1/keys), so that both do exactly the same.
// Every change is committed to the store before it returns; running servers pick it up
// with their next key refresh (store.key_refresh_ms).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/key_issuer.hpp"
#include "accounts/key_table.hpp"
#include "accounts/plans.hpp"
#include "accounts/webhook_address.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

// A value that is not accepted; `field` names the option or JSON member at fault.
class KeyRequestError : public std::invalid_argument {
 public:
  KeyRequestError(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// No key has this prefix.
class KeyNotFound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The key is revoked: it cannot be rotated or updated.
class KeyRevoked : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A per-key limit: nullopt = the plan's.
using LimitSetting = std::optional<int64_t>;

// What `create` takes (plan required) and `update` changes (each field when given).
struct KeySettings {
  std::optional<std::string> plan;
  std::optional<std::string> label;
  std::optional<LimitSetting> rate_per_minute;
  std::optional<LimitSetting> monthly_quota;
  std::optional<std::string> webhook_url;  // "" removes the webhook
};

// A key's own limits: the rate as a plan's (kMaxRatePerMinute, plans.hpp); the quota a bound,
// not a business limit.
inline constexpr int64_t kMaxMonthlyQuota = 1'000'000'000'000;
inline constexpr int64_t kDefaultRotationGraceS = 24 * 3600;
inline constexpr int64_t kMaxRotationGraceS = 30 * 24 * 3600;

// "24h", "90m", "30s", "7d", "0" → seconds; throws KeyRequestError("grace", …) otherwise,
// and beyond kMaxRotationGraceS.
int64_t parse_grace(std::string_view text);

// A key as `keys list` and GET /admin/v1/keys show it: never its hash or secrets.
struct KeyView {
  int64_t id = 0;
  std::string prefix, label, plan;
  int64_t created_epoch_s = 0;
  std::optional<int64_t> revoked_epoch_s;
  EffectiveLimits limits;
  int64_t used = 0;    // this month (UTC), as the store has it
  std::string period;  // that month, "YYYY-MM"
  std::string webhook_url;
  std::optional<int64_t> previous_secret_expires_epoch_s;  // while the pre-rotation secret works
};

struct CreatedKey {
  std::string key;             // shown once
  std::string webhook_secret;  // shown once; "" without a webhook
  KeyView view;
};

struct RotatedKey {
  std::string key;                       // the new secret, shown once
  int64_t previous_expires_epoch_s = 0;  // the old secret is refused from then on
  KeyView view;
};

struct UpdatedKey {
  std::string webhook_secret;  // a new signing secret when the webhook URL was set
  KeyView view;
};

class KeyAdmin {
 public:
  // `store`, `plans` and `clock` must outlive this object. A webhook URL whose host is an
  // address `receivers` refuses (a literal, or localhost) is refused when it is set.
  KeyAdmin(store::AccountStore& store, const std::vector<Plan>& plans, const Clock& clock,
           ReceiverPolicy receivers = {})
      : store_(store), plans_(plans), clock_(clock), receivers_(std::move(receivers)) {}

  CreatedKey create(const KeySettings& settings);
  std::vector<KeyView> list();
  KeyView get(std::string_view prefix);
  // A new secret for the same key (same prefix, plan, limits, label and usage); the old
  // one is accepted for `grace_s` more seconds (0: refused at once). A second rotation
  // within the grace period ends the first old secret at once.
  RotatedKey rotate(std::string_view prefix, int64_t grace_s);
  UpdatedKey update(std::string_view prefix, const KeySettings& changes);
  store::RevokeOutcome revoke(std::string_view prefix);

 private:
  // Checks the values of `s` (the plan against the configured plans); throws
  // KeyRequestError or UnknownPlan.
  void check(const KeySettings& s) const;
  KeyView view_of(const store::KeyRecord& k, int64_t used, const std::string& period) const;

  store::AccountStore& store_;
  const std::vector<Plan>& plans_;
  const Clock& clock_;
  ReceiverPolicy receivers_;
};

// A fresh webhook signing secret: "whsec_" and kWebhookSecretRandomChars base62 characters.
inline constexpr size_t kWebhookSecretRandomChars = 32;
std::string generate_webhook_secret();

}  // namespace toolcalc::accounts
