#pragma once
// Names of toolcalc's Redis keys (docs/deploy.md, "Redis data"), in one place. Every name
// starts with "tc:". The counters of one API key carry the hash tag {key:ID}, so a script
// touching its rate window and its quota names keys of one cluster slot.
#include <cstdint>
#include <string>
#include <string_view>

namespace toolcalc::store::redis_keys {

inline constexpr std::string_view kNextId = "tc:keys:next_id";         // INCR → a new key id
inline constexpr std::string_view kGeneration = "tc:keys:generation";  // INCR on every change
inline constexpr std::string_view kByPrefix = "tc:keys:by_prefix";     // HASH prefix → id
inline constexpr std::string_view kByHash = "tc:keys:by_hash";         // HASH sha256 hex → id

// HASH prefix, hash (SHA-256 hex), label, plan, created, revoked (absent while active),
// rate, quota (per-key limits; absent: the plan's), prev_hash, prev_expires (the secret
// before the last rotation), webhook_url, webhook_secret.
inline std::string key_record(int64_t id) {
  return "tc:key:" + std::to_string(id);
}
// Count of `subject`'s rate window starting at window_start_s (epoch seconds); expires.
inline std::string rate(std::string_view subject, int64_t window_start_s) {
  return "tc:rate:{" + std::string(subject) + "}:" + std::to_string(window_start_s);
}
// HASH holder → the units of `rate_key`'s window last leased to that server thread
// (counter_leases.hpp); expires with the window.
inline std::string rate_leases(const std::string& rate_key) {
  return rate_key + ":leases";
}
// Executions of key `id` counted in `period` ("YYYY-MM"); kept (the monthly usage record).
inline std::string quota(int64_t id, std::string_view period) {
  return "tc:quota:{key:" + std::to_string(id) + "}:" + std::string(period);
}
// Units of that month granted: counted, or leased to server threads and not counted yet
// (never below the count); expires 40 days after it was last written.
inline std::string quota_granted(const std::string& quota_key) {
  return quota_key + ":granted";
}

// HASH instance → that instance's count of the month, as it last shipped it from its usage
// ledger (usage_ledger.hpp); kept with the month's count.
inline std::string quota_shipped(const std::string& quota_key) {
  return quota_key + ":shipped";
}

// HASH "<day>|<metric>|<domain/slug>" → count: key `id`'s usage history of `period`
// ("YYYY-MM"); expires 13 months after the month began.
inline std::string history(int64_t id, std::string_view period) {
  return "tc:usage:{key:" + std::to_string(id) + "}:" + std::string(period);
}
// Quota alerts share one hash tag, so that a script touching an alert and the due set
// names keys of one cluster slot. ZSET "<id>:<period>:<pct>" → when its next delivery is due.
inline constexpr std::string_view kAlertsDue = "tc:alerts:{alerts}:due";
// HASH key_id, period, threshold, used, quota, created, attempts, state, finished.
inline constexpr std::string_view kAlertPrefix = "tc:alert:{alerts}:";
inline std::string alert_member(int64_t id, std::string_view period, int32_t pct) {
  return std::to_string(id) + ":" + std::string(period) + ":" + std::to_string(pct);
}

}  // namespace toolcalc::store::redis_keys
