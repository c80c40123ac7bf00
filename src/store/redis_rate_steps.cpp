#include "store/redis_rate_steps.hpp"

#include "store/redis_keys.hpp"
#include "store/store_errors.hpp"

namespace toolcalc::store {

// Rate steps in order, one or many (the steps a server thread started in one turn of its
// event loop go in one call). ARGV[1] is the calling thread's holder name (leases) and
// ARGV[2] the granted counters' ttl (s); step i has KEYS[4i+1] its window counter,
// KEYS[4i+2] the window's lease hash, KEYS[4i+3] its quota counter (the units counted) and
// KEYS[4i+4] the month's granted counter (keys a step does not use repeat the window's),
// and ARGV[7i+3..7i+9] = quota mode (1 reserve | 2 read | 0 none), rate limit, the window's
// ttl (s), quota limit, units n, rate lease (1 when the thread asks for one), month lease
// cap (0: none asked).
//
// A step of n units is decided as n steps of one unit in a row: each takes a unit of its
// window unless the window is at its limit, then (reserve) a unit of its month unless the
// month's granted units are at its limit, and counts it; each sees the counts the steps
// before it left. A step that reads, or whose rate unit is refused, reports its quota's
// count without taking a unit (the RateLimit header's month).
//
// Leases (counter_leases.hpp), asked only by steps of limits of kMinLeasedLimit or more:
// once all n units are granted, the window grants its holder half of what is left of a
// tenth of its limit after the other holders' last leases (the hash keeps each holder's
// last one: a holder asks again only once it has served its lease, so its unserved units
// never exceed that record); the month grants half of a tenth of its limit less what is
// granted and not counted, at most the cap. Served units never exceed granted ones, and
// granted ones never exceed the limit.
//
// Every counter is read once and written once at the end (INCRBY of what the call added,
// and EXPIRE when the call created it). A refused step writes nothing. Reply per step:
// {rate units granted k, rate used before, window lease, quota units granted, quota
// used before, month granted after the units (what a refused unit reports), month
// lease}; unit j of the step reads its own figures from those (merged_step_result).
// Redis's cost per call, per argument and per step is most of its cost per request
// (docs/performance.md, "Shared store"), so identical steps in a row travel as one
// (RateSteps::add).
const RedisScript kTakeRateSteps(R"lua(
local holder = ARGV[1]
local count, before, ttl = {}, {}, {}
local function current(key)
  local v = count[key]
  if v == nil then
    v = tonumber(redis.call('GET', key) or '0')
    count[key] = v
    before[key] = v
  end
  return v
end
local out = {}
for i = 0, #KEYS / 4 - 1 do
  local rate_key, leases_key = KEYS[4 * i + 1], KEYS[4 * i + 2]
  local quota_key, granted_key = KEYS[4 * i + 3], KEYS[4 * i + 4]
  local a = 2 + 7 * i
  local mode, limit, n = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 5])
  local used = current(rate_key)
  local k = math.min(n, math.max(0, limit - used))
  local lease = 0
  if k == n and ARGV[a + 6] == '1' then
    local others, held = 0, redis.call('HGETALL', leases_key)
    for j = 1, #held, 2 do
      if held[j] ~= holder then others = others + tonumber(held[j + 1]) end
    end
    lease = math.floor((math.floor(limit / 10) - others) / 2)
    lease = math.max(0, math.min(lease, limit - used - k))
    redis.call('HSET', leases_key, holder, lease)
    redis.call('EXPIRE', leases_key, ARGV[a + 3])
  end
  if k + lease > 0 then
    count[rate_key] = used + k + lease
    ttl[rate_key] = ARGV[a + 3]
  end
  out[#out + 1] = k; out[#out + 1] = used; out[#out + 1] = lease
  if mode == '0' then
    out[#out + 1] = 0; out[#out + 1] = 0; out[#out + 1] = 0; out[#out + 1] = 0
  elseif mode == '2' then
    local q = current(quota_key)
    out[#out + 1] = 0; out[#out + 1] = q; out[#out + 1] = q; out[#out + 1] = 0
  else
    local q, qlimit = current(quota_key), tonumber(ARGV[a + 4])
    local g = math.max(current(granted_key), q)
    local m = math.min(k, math.max(0, qlimit - g))
    local month_lease, cap = 0, tonumber(ARGV[a + 7])
    if cap > 0 and k == n and m == k then
      month_lease = math.floor((math.floor(qlimit / 10) - (g - q)) / 2)
      month_lease = math.max(0, math.min(month_lease, cap, qlimit - g - m))
    end
    if m > 0 then count[quota_key] = q + m end
    if m + month_lease > 0 then
      count[granted_key] = g + m + month_lease
      ttl[granted_key] = ARGV[2]
    end
    out[#out + 1] = m; out[#out + 1] = q; out[#out + 1] = g + m; out[#out + 1] = month_lease
  end
end
for key, v in pairs(count) do
  if v > before[key] then
    redis.call('INCRBY', key, v - before[key])
    if before[key] == 0 and ttl[key] then redis.call('EXPIRE', key, ttl[key]) end
  end
end
return out
)lua");

RateSteps::Place RateSteps::add(std::string_view subject, int64_t window_start_s,
                                int64_t rate_limit, int64_t key_id, std::string_view period,
                                std::optional<int64_t> quota_limit, bool reserve, bool lease_window,
                                int64_t month_lease_cap) {
  std::string window = redis_keys::rate(subject, window_start_s);
  std::string quota = quota_limit ? redis_keys::quota(key_id, period) : window;
  std::string_view mode = !quota_limit ? "0" : reserve ? "1" : "2";
  std::string rate = std::to_string(rate_limit);
  std::string quota_max = quota_limit ? std::to_string(*quota_limit) : "0";
  if (!units.empty()) {
    const size_t last = units.size() - 1;
    std::string* a = &args[2 + 7 * last];
    if (keys[4 * last] == window && keys[4 * last + 2] == quota && a[0] == mode && a[1] == rate &&
        a[3] == quota_max) {
      if (lease_window) {
        keys[4 * last + 1] = redis_keys::rate_leases(window);
        a[5] = "1";
      }
      if (month_lease_cap > 0) a[6] = std::to_string(month_lease_cap);
      return {last, units[last]++};
    }
  }
  std::string granted = mode == "1" ? redis_keys::quota_granted(quota) : window;
  keys.push_back(window);
  keys.push_back(lease_window ? redis_keys::rate_leases(window) : window);
  keys.push_back(std::move(quota));
  keys.push_back(std::move(granted));
  args.emplace_back(mode);
  args.push_back(std::move(rate));
  args.push_back(std::to_string(kRateKeyTtlS));
  args.push_back(std::move(quota_max));
  args.emplace_back();
  args.emplace_back(lease_window ? "1" : "0");
  args.push_back(std::to_string(month_lease_cap));
  units.push_back(1);
  return {units.size() - 1, 0};
}

void RateSteps::finish(const std::string& holder) {
  args[0] = holder;
  for (size_t i = 0; i < units.size(); ++i) args[2 + 7 * i + 4] = std::to_string(units[i]);
}

StepFigures step_figures(const RedisValue& v, size_t step) {
  const size_t first = 7 * step;
  if (v.type != RedisValue::Type::Array || v.elements.size() < first + 7)
    throw StoreError("redis: unexpected reply from a counter script");
  const auto figure = [&](size_t i) { return v.elements[first + i].as_integer(); };
  return {figure(0), figure(1), figure(2), figure(3), figure(4), figure(5), figure(6)};
}

RateAndQuotaStep merged_step_result(const RedisValue& v, RateSteps::Place at, bool with_quota) {
  const StepFigures f = step_figures(v, at.step);
  const auto unit = [&](int64_t granted, int64_t before, int64_t refused_at) {
    return at.unit < granted ? CounterStep{true, before + at.unit + 1}
                             : CounterStep{false, refused_at};
  };
  RateAndQuotaStep r;
  r.rate = unit(f.rate_granted, f.rate_before, f.rate_before + f.rate_granted);
  if (with_quota) r.quota = unit(f.quota_granted, f.quota_before, f.month_granted);
  return r;
}

}  // namespace toolcalc::store
