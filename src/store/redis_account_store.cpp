// API keys and monthly usage in Redis, behind the AccountStore interface that
// the SQLite store implements: `toolcalc keys … --config` against Redis, and the key
// refresh of every server of the fleet. Changes are Lua scripts (atomic: a key and its
// indexes and the generation move together); the keys of docs/deploy.md, "Redis data".
// Only the SHA-256 of a key is stored (hex), never the key.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <tuple>

#include "store/redis_keys.hpp"
#include "store/redis_store.hpp"

namespace toolcalc::store {
namespace {

namespace rk = redis_keys;

// KEYS: by_prefix, by_hash, next_id, generation. ARGV: prefix, hash hex, label, plan,
// created, then field/value pairs of the optional fields set → the new id, 0 when the
// prefix is taken, -1 when the hash is (never seen: 190 random bits).
const RedisScript kCreateKey(R"lua(
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return -1 end
local id = redis.call('INCR', KEYS[3])
redis.call('HSET', 'tc:key:' .. id, 'prefix', ARGV[1], 'hash', ARGV[2], 'label', ARGV[3],
           'plan', ARGV[4], 'created', ARGV[5])
for i = 6, #ARGV, 2 do redis.call('HSET', 'tc:key:' .. id, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], ARGV[1], id)
redis.call('HSET', KEYS[2], ARGV[2], id)
redis.call('INCR', KEYS[4])
return id
)lua");

// KEYS: by_prefix, generation. ARGV: prefix, now → 0 not found, 1 already revoked, 2 revoked
const RedisScript kRevokeKey(R"lua(
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return 0 end
local rec = 'tc:key:' .. id
if redis.call('HEXISTS', rec, 'revoked') == 1 then return 1 end
redis.call('HSET', rec, 'revoked', ARGV[2])
redis.call('INCR', KEYS[2])
return 2
)lua");

// KEYS: by_prefix, by_hash, generation. ARGV: prefix, new hash hex, prev_expires →
// 0 not found, 1 revoked, -1 the hash is taken, 2 rotated. The previous secret before
// this one, if any, leaves the hash index.
const RedisScript kRotateKey(R"lua(
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return 0 end
local rec = 'tc:key:' .. id
if redis.call('HEXISTS', rec, 'revoked') == 1 then return 1 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return -1 end
local older = redis.call('HGET', rec, 'prev_hash')
if older and older ~= '' then redis.call('HDEL', KEYS[2], older) end
redis.call('HSET', rec, 'prev_hash', redis.call('HGET', rec, 'hash'), 'prev_expires', ARGV[3],
           'hash', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], id)
redis.call('INCR', KEYS[3])
return 2
)lua");

// KEYS: by_prefix, generation. ARGV: prefix, N, then N field/value pairs to set, then the
// fields to delete → 0 not found, 1 revoked, 2 updated.
const RedisScript kUpdateKey(R"lua(
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return 0 end
local rec = 'tc:key:' .. id
if redis.call('HEXISTS', rec, 'revoked') == 1 then return 1 end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do redis.call('HSET', rec, ARGV[3 + 2 * i], ARGV[4 + 2 * i]) end
for i = 3 + 2 * n, #ARGV do redis.call('HDEL', rec, ARGV[i]) end
redis.call('INCR', KEYS[2])
return 2
)lua");

// KEYS: by_prefix, generation → {generation, then per key: id and the 12 fields below}: one
// consistent snapshot ('' for a field that is absent).
const RedisScript kLoadKeys(R"lua(
local out = {tonumber(redis.call('GET', KEYS[2]) or '0')}
for _, id in ipairs(redis.call('HVALS', KEYS[1])) do
  local f = redis.call('HMGET', 'tc:key:' .. id, 'prefix', 'hash', 'label', 'plan', 'created',
                       'revoked', 'rate', 'quota', 'prev_hash', 'prev_expires', 'webhook_url',
                       'webhook_secret')
  out[#out + 1] = id
  for i = 1, 12 do out[#out + 1] = f[i] or '' end
end
return out
)lua");

// KEYS: history hashes, one per delta. ARGV: per delta its field, count and expiry
// (epoch seconds).
const RedisScript kAddHistory(R"lua(
for i = 1, #KEYS do
  redis.call('HINCRBY', KEYS[i], ARGV[3 * i - 2], ARGV[3 * i - 1])
  redis.call('EXPIREAT', KEYS[i], ARGV[3 * i])
end
return #KEYS
)lua");

// KEYS: the alert's hash, the due set. ARGV: member, key id, period, threshold, used, quota,
// created, expiry → 1 created, 0 it existed.
const RedisScript kCreateAlert(R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'key_id', ARGV[2], 'period', ARGV[3], 'threshold', ARGV[4],
           'used', ARGV[5], 'quota', ARGV[6], 'created', ARGV[7], 'attempts', 0,
           'state', 'pending')
redis.call('EXPIREAT', KEYS[1], ARGV[8])
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
return 1
)lua");

// KEYS: the due set. ARGV: now, lease until, limit, the alert hashes' prefix → per alert
// leased: key id, period, threshold, used, quota, created, attempts. A lease moves the
// alert's due time to `lease until`, so that no other server takes it meanwhile.
const RedisScript kLeaseAlerts(R"lua(
local out = {}
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])) do
  local f = redis.call('HMGET', ARGV[4] .. m, 'key_id', 'period', 'threshold', 'used', 'quota',
                       'created', 'attempts')
  if f[1] then
    redis.call('ZADD', KEYS[1], ARGV[2], m)
    for i = 1, 7 do out[#out + 1] = f[i] end
  else
    redis.call('ZREM', KEYS[1], m)
  end
end
return out
)lua");

// KEYS: the alert's hash, the due set. ARGV: member, outcome (delivered | abandoned |
// retry), at (the next attempt for retry).
const RedisScript kFinishAlert(R"lua(
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if ARGV[2] == 'retry' then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HSET', KEYS[1], 'state', ARGV[2], 'finished', ARGV[3])
end
return 1
)lua");

// KEYS: quota counters; ARGV: their deltas. Counts never go below zero.
const RedisScript kAddUsage(R"lua(
for i = 1, #KEYS do
  local v = tonumber(redis.call('GET', KEYS[i]) or '0') + tonumber(ARGV[i])
  if v < 0 then v = 0 end
  redis.call('SET', KEYS[i], v)
end
return #KEYS
)lua");

constexpr size_t kFieldsPerKey = 13;
constexpr size_t kFieldsPerAlert = 7;

std::string to_hex(std::string_view bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

std::string from_hex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw StoreError("redis: a stored key hash is not hex");
  };
  if (hex.size() % 2) throw StoreError("redis: a stored key hash is not hex");
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2)
    out += static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
  return out;
}

int64_t to_int(const RedisValue& v) {
  return v.as_integer();
}

std::optional<int64_t> optional_int(const RedisValue& v) {
  if (v.str.empty()) return std::nullopt;
  return v.as_integer();
}

std::string optional_text(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string();
}

using namespace std::chrono;

// The month ("YYYY-MM") of a day since the epoch, and the start of the month `months_later`.
std::string period_of_day(int32_t day) {
  const year_month_day ymd{sys_days{days{day}}};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()));
  return buf;
}
int64_t month_start_after(int32_t day, int months_later) {
  const year_month_day ymd{sys_days{days{day}}};
  const year_month ym = ymd.year() / ymd.month() + months(months_later);
  return sys_seconds(sys_days(ym / 1)).time_since_epoch().count();
}
int32_t first_day_of_next_month(int32_t day) {
  return static_cast<int32_t>(month_start_after(day, 1) / 86'400);
}

// An alert's record outlives its month by more than the delivery retries last.
constexpr int64_t kAlertKeepAfterMonthS = 40 * 86'400;

std::string alert_hash(const QuotaAlert& a) {
  return std::string(rk::kAlertPrefix) + rk::alert_member(a.key_id, a.period, a.threshold_pct);
}

class RedisAccountStore final : public AccountStore {
 public:
  explicit RedisAccountStore(const RedisOptions& options) : redis_(options) {
    redis_.command({"PING"});  // fail at start-up, naming the URL, when Redis is not there
  }

  std::optional<int64_t> create_key(const NewKey& key) override {
    std::vector<std::string> args{key.prefix, to_hex(key.key_hash), key.label, key.plan,
                                  std::to_string(key.created_epoch_s)};
    auto add = [&args](const char* field, std::string value) {
      if (value.empty()) return;
      args.push_back(field);
      args.push_back(std::move(value));
    };
    add("rate", optional_text(key.rate_per_minute));
    add("quota", optional_text(key.monthly_quota));
    add("webhook_url", key.webhook_url);
    add("webhook_secret", key.webhook_secret);
    const int64_t id = redis_
                           .eval(kCreateKey,
                                 {std::string(rk::kByPrefix), std::string(rk::kByHash),
                                  std::string(rk::kNextId), std::string(rk::kGeneration)},
                                 args)
                           .as_integer();
    if (id == 0) return std::nullopt;
    if (id < 0) throw StoreError("redis: a key with the same hash is already stored");
    return id;
  }

  RevokeOutcome revoke_key(std::string_view prefix, int64_t now_epoch_s) override {
    switch (redis_
                .eval(kRevokeKey, {std::string(rk::kByPrefix), std::string(rk::kGeneration)},
                      {std::string(prefix), std::to_string(now_epoch_s)})
                .as_integer()) {
      case 0:
        return RevokeOutcome::NotFound;
      case 1:
        return RevokeOutcome::AlreadyRevoked;
      default:
        return RevokeOutcome::Revoked;
    }
  }

  ChangeOutcome rotate_key(std::string_view prefix, std::string_view new_hash,
                           int64_t previous_expires_epoch_s) override {
    const int64_t r =
        redis_
            .eval(kRotateKey,
                  {std::string(rk::kByPrefix), std::string(rk::kByHash),
                   std::string(rk::kGeneration)},
                  {std::string(prefix), to_hex(new_hash), std::to_string(previous_expires_epoch_s)})
            .as_integer();
    if (r < 0) throw StoreError("redis: a key with the same hash is already stored");
    return r == 0 ? ChangeOutcome::NotFound : r == 1 ? ChangeOutcome::Revoked : ChangeOutcome::Done;
  }

  ChangeOutcome update_key(std::string_view prefix, const KeyUpdate& u) override {
    std::vector<std::pair<std::string, std::string>> set;
    std::vector<std::string> del;
    if (u.plan) set.emplace_back("plan", *u.plan);
    if (u.label) set.emplace_back("label", *u.label);
    auto limit = [&](const char* field, bool given, const std::optional<int64_t>& v) {
      if (!given) return;
      if (v)
        set.emplace_back(field, std::to_string(*v));
      else
        del.push_back(field);
    };
    limit("rate", u.set_rate_per_minute, u.rate_per_minute);
    limit("quota", u.set_monthly_quota, u.monthly_quota);
    if (u.set_webhook) {
      set.emplace_back("webhook_url", u.webhook_url);
      set.emplace_back("webhook_secret", u.webhook_secret);
    }
    std::vector<std::string> args{std::string(prefix), std::to_string(set.size())};
    for (auto& [f, v] : set) {
      args.push_back(f);
      args.push_back(v);
    }
    for (auto& f : del) args.push_back(f);
    const int64_t r =
        redis_.eval(kUpdateKey, {std::string(rk::kByPrefix), std::string(rk::kGeneration)}, args)
            .as_integer();
    return r == 0 ? ChangeOutcome::NotFound : r == 1 ? ChangeOutcome::Revoked : ChangeOutcome::Done;
  }

  int64_t key_generation() override {
    const RedisValue v = redis_.command({"GET", rk::kGeneration});
    return v.is_nil() ? 0 : v.as_integer();
  }

  KeySet load_keys() override {
    const RedisValue v =
        redis_.eval(kLoadKeys, {std::string(rk::kByPrefix), std::string(rk::kGeneration)}, {});
    if (v.type != RedisValue::Type::Array || v.elements.empty() ||
        (v.elements.size() - 1) % kFieldsPerKey != 0)
      throw StoreError("redis: unexpected reply when loading keys");
    KeySet set;
    set.generation = to_int(v.elements[0]);
    for (size_t i = 1; i < v.elements.size(); i += kFieldsPerKey) {
      const auto& f = v.elements;
      KeyRecord k;
      k.id = to_int(f[i]);
      k.prefix = f[i + 1].str;
      k.key_hash = from_hex(f[i + 2].str);
      k.label = f[i + 3].str;
      k.plan = f[i + 4].str;
      k.created_epoch_s = f[i + 5].str.empty() ? 0 : to_int(f[i + 5]);
      if (!f[i + 6].str.empty()) k.revoked_epoch_s = to_int(f[i + 6]);
      k.rate_per_minute = optional_int(f[i + 7]);
      k.monthly_quota = optional_int(f[i + 8]);
      if (!f[i + 9].str.empty()) k.previous_hash = from_hex(f[i + 9].str);
      k.previous_expires_epoch_s = optional_int(f[i + 10]).value_or(0);
      k.webhook_url = f[i + 11].str;
      k.webhook_secret = f[i + 12].str;
      set.keys.push_back(std::move(k));
    }
    std::sort(set.keys.begin(), set.keys.end(),
              [](const KeyRecord& a, const KeyRecord& b) { return a.id < b.id; });
    return set;
  }

  std::vector<KeyWithUsage> list_keys(std::string_view period) override {
    KeySet set = load_keys();
    const std::vector<int64_t> used = usage_of(set.keys, period);
    std::vector<KeyWithUsage> out;
    for (size_t i = 0; i < set.keys.size(); ++i) out.push_back({std::move(set.keys[i]), used[i]});
    return out;
  }

  std::unordered_map<int64_t, int64_t> load_usage(std::string_view period) override {
    const KeySet set = load_keys();
    const std::vector<int64_t> used = usage_of(set.keys, period);
    std::unordered_map<int64_t, int64_t> out;
    for (size_t i = 0; i < set.keys.size(); ++i)
      if (used[i] != 0) out[set.keys[i].id] = used[i];
    return out;
  }

  void add_usage(const std::vector<UsageDelta>& deltas,
                 const std::vector<HistoryDelta>& history) override {
    std::vector<std::string> keys, args;
    for (const auto& d : deltas) {
      if (d.delta == 0) continue;
      keys.push_back(rk::quota(d.key_id, d.period));
      args.push_back(std::to_string(d.delta));
    }
    if (!keys.empty()) redis_.eval(kAddUsage, keys, args);
    keys.clear();
    args.clear();
    for (const auto& h : history) {
      if (h.delta <= 0) continue;
      keys.push_back(rk::history(h.key_id, period_of_day(h.day)));
      args.push_back(std::to_string(h.day) + "|" + std::to_string(h.metric) + "|" + h.tool);
      args.push_back(std::to_string(h.delta));
      args.push_back(std::to_string(month_start_after(h.day, kHistoryMonths)));
    }
    if (!keys.empty()) redis_.eval(kAddHistory, keys, args);
  }

  std::vector<HistoryRow> load_history(int64_t key_id, int32_t first_day,
                                       int32_t end_day) override {
    std::vector<HistoryRow> out;
    for (int32_t day = first_day; day < end_day; day = first_day_of_next_month(day)) {
      const RedisValue v = redis_.command({"HGETALL", rk::history(key_id, period_of_day(day))});
      if (v.type != RedisValue::Type::Array || v.elements.size() % 2)
        throw StoreError("redis: unexpected reply to HGETALL");
      for (size_t i = 0; i < v.elements.size(); i += 2) {
        const std::string& field = v.elements[i].str;
        const size_t a = field.find('|'), b = field.find('|', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        HistoryRow r;
        r.day = static_cast<int32_t>(std::stol(field.substr(0, a)));
        r.metric = static_cast<int32_t>(std::stol(field.substr(a + 1, b - a - 1)));
        r.tool = field.substr(b + 1);
        r.count = to_int(v.elements[i + 1]);
        if (r.day >= first_day && r.day < end_day) out.push_back(std::move(r));
      }
    }
    std::sort(out.begin(), out.end(), [](const HistoryRow& x, const HistoryRow& y) {
      return std::tie(x.day, x.tool, x.metric) < std::tie(y.day, y.tool, y.metric);
    });
    return out;
  }

  // Each month's history hash expires on its own (kAddHistory's EXPIREAT).
  void drop_history_before(int32_t) override {}

  bool create_alert(const QuotaAlert& a) override {
    const int64_t keep_until =
        month_start_after(static_cast<int32_t>(a.created_epoch_s / 86'400), 1) +
        kAlertKeepAfterMonthS;
    return redis_
               .eval(kCreateAlert, {alert_hash(a), std::string(rk::kAlertsDue)},
                     {rk::alert_member(a.key_id, a.period, a.threshold_pct),
                      std::to_string(a.key_id), a.period, std::to_string(a.threshold_pct),
                      std::to_string(a.used), std::to_string(a.monthly_quota),
                      std::to_string(a.created_epoch_s), std::to_string(keep_until)})
               .as_integer() == 1;
  }

  std::vector<QuotaAlert> lease_due_alerts(int64_t now_s, int64_t lease_until_s,
                                           size_t limit) override {
    const RedisValue v = redis_.eval(kLeaseAlerts, {std::string(rk::kAlertsDue)},
                                     {std::to_string(now_s), std::to_string(lease_until_s),
                                      std::to_string(limit), std::string(rk::kAlertPrefix)});
    if (v.type != RedisValue::Type::Array || v.elements.size() % kFieldsPerAlert)
      throw StoreError("redis: unexpected reply when leasing alerts");
    std::vector<QuotaAlert> out;
    for (size_t i = 0; i < v.elements.size(); i += kFieldsPerAlert) {
      const auto& f = v.elements;
      QuotaAlert a;
      a.key_id = to_int(f[i]);
      a.period = f[i + 1].str;
      a.threshold_pct = static_cast<int32_t>(to_int(f[i + 2]));
      a.used = to_int(f[i + 3]);
      a.monthly_quota = to_int(f[i + 4]);
      a.created_epoch_s = to_int(f[i + 5]);
      a.attempts = static_cast<int32_t>(to_int(f[i + 6]));
      out.push_back(std::move(a));
    }
    return out;
  }

  void finish_alert(const QuotaAlert& a, AlertOutcome outcome, int64_t at_s) override {
    const char* what = outcome == AlertOutcome::Retry       ? "retry"
                       : outcome == AlertOutcome::Delivered ? "delivered"
                                                            : "abandoned";
    redis_.eval(
        kFinishAlert, {alert_hash(a), std::string(rk::kAlertsDue)},
        {rk::alert_member(a.key_id, a.period, a.threshold_pct), what, std::to_string(at_s)});
  }

 private:
  // The counts of `keys` in `period`, in one MGET.
  std::vector<int64_t> usage_of(const std::vector<KeyRecord>& keys, std::string_view period) {
    std::vector<int64_t> used(keys.size(), 0);
    if (keys.empty()) return used;
    std::vector<std::string> args{"MGET"};
    for (const auto& k : keys) args.push_back(rk::quota(k.id, period));
    const RedisValue v = redis_.command(args);
    if (v.type != RedisValue::Type::Array || v.elements.size() != keys.size())
      throw StoreError("redis: unexpected reply to MGET");
    for (size_t i = 0; i < keys.size(); ++i)
      if (!v.elements[i].is_nil()) used[i] = to_int(v.elements[i]);
    return used;
  }

  RedisClient redis_;
};

}  // namespace

std::unique_ptr<AccountStore> open_redis_store(const RedisOptions& options) {
  return std::make_unique<RedisAccountStore>(options);
}

}  // namespace toolcalc::store
