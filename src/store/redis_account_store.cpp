// API keys and monthly usage in Redis, behind the AccountStore interface that
// the SQLite store implements: `toolcalc keys … --config` against Redis, and the key
// refresh of every server of the fleet. Changes are Lua scripts (atomic: a key and its
// indexes and the generation move together); the keys of docs/deploy.md, "Redis data".
// Only the SHA-256 of a key is stored (hex), never the key.
#include <algorithm>
#include <string>

#include "store/redis_keys.hpp"
#include "store/redis_store.hpp"

namespace toolcalc::store {
namespace {

namespace rk = redis_keys;

// KEYS: by_prefix, by_hash, next_id, generation. ARGV: prefix, hash hex, label, plan,
// created → the new id, 0 when the prefix is taken, -1 when the hash is (never seen:
// 190 random bits).
const RedisScript kCreateKey(R"lua(
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return -1 end
local id = redis.call('INCR', KEYS[3])
redis.call('HSET', 'tc:key:' .. id, 'prefix', ARGV[1], 'hash', ARGV[2], 'label', ARGV[3],
           'plan', ARGV[4], 'created', ARGV[5])
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

// KEYS: by_prefix, generation → {generation, then per key: id, prefix, hash, label, plan,
// created, revoked ('' while active)}: one consistent snapshot.
const RedisScript kLoadKeys(R"lua(
local out = {tonumber(redis.call('GET', KEYS[2]) or '0')}
for _, id in ipairs(redis.call('HVALS', KEYS[1])) do
  local f = redis.call('HMGET', 'tc:key:' .. id, 'prefix', 'hash', 'label', 'plan', 'created',
                       'revoked')
  out[#out + 1] = id
  for i = 1, 6 do out[#out + 1] = f[i] or '' end
end
return out
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

constexpr size_t kFieldsPerKey = 7;

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

class RedisAccountStore final : public AccountStore {
 public:
  explicit RedisAccountStore(const RedisOptions& options) : redis_(options) {
    redis_.command({"PING"});  // fail at start-up, naming the URL, when Redis is not there
  }

  std::optional<int64_t> create_key(const NewKey& key) override {
    const int64_t id = redis_
                           .eval(kCreateKey,
                                 {std::string(rk::kByPrefix), std::string(rk::kByHash),
                                  std::string(rk::kNextId), std::string(rk::kGeneration)},
                                 {key.prefix, to_hex(key.key_hash), key.label, key.plan,
                                  std::to_string(key.created_epoch_s)})
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

  void add_usage(const std::vector<UsageDelta>& deltas) override {
    std::vector<std::string> keys, args;
    for (const auto& d : deltas) {
      if (d.delta == 0) continue;
      keys.push_back(rk::quota(d.key_id, d.period));
      args.push_back(std::to_string(d.delta));
    }
    if (!keys.empty()) redis_.eval(kAddUsage, keys, args);
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
