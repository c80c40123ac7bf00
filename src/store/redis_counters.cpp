// Rate windows and monthly quotas in Redis. Each call is one Lua script, run
// atomically by Redis, so N instances taking units of one window concurrently allow
// exactly `limit`; a refused step writes nothing (no AOF append for a 429).
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/event_loop.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_pipeline.hpp"
#include "store/redis_store.hpp"
#include "store/store_errors.hpp"

namespace toolcalc::store {
namespace {

namespace net = boost::asio;

// A window's counter lives two windows: long enough for instances whose clocks differ by
// a few seconds to still share it, short enough that memory holds about one minute of
// subjects.
constexpr int64_t kRateKeyTtlS = 120;

// Rate steps in order, one or many (the steps a server thread started in one turn of its
// event loop go in one call): step i has KEYS[2i+1] its window counter and KEYS[2i+2] its
// quota counter (the window counter again when it has no quota), ARGV[5i+1..5i+5] = quota
// mode (1 reserve | 2 read | 0 none), rate limit, ttl (s), quota limit, units n. A step of
// n units is decided as n steps of one unit in a row: each takes a unit of its window
// unless the window is at its limit, then (reserve) a unit of its quota unless that is at
// its limit; each sees the counts the steps before it left. A step that reads, or whose
// rate unit is refused, reports its quota's count without taking a unit (the RateLimit
// header's month). Every counter is read once and written once at the end (INCRBY of what
// the call added, and the window's EXPIRE when the call created it). A refused step
// writes nothing. Reply per step: {rate units granted k, rate used before, quota units
// granted, quota used before}; unit j of the step reads its own figures from those
// (merged_step_result). Redis's cost per call, per argument and per step is most of its
// cost per request (docs/performance.md, "Shared store"), so identical steps in a row
// travel as one (RateSteps::add).
const RedisScript kTakeRateSteps(R"lua(
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
for i = 0, #KEYS / 2 - 1 do
  local rate_key, quota_key = KEYS[2 * i + 1], KEYS[2 * i + 2]
  local mode, n = ARGV[5 * i + 1], tonumber(ARGV[5 * i + 5])
  local used = current(rate_key)
  local k = math.min(n, math.max(0, tonumber(ARGV[5 * i + 2]) - used))
  if k > 0 then
    count[rate_key] = used + k
    ttl[rate_key] = ARGV[5 * i + 3]
  end
  out[#out + 1] = k; out[#out + 1] = used
  if mode == '0' then
    out[#out + 1] = 0; out[#out + 1] = 0
  elseif mode == '2' then
    out[#out + 1] = 0; out[#out + 1] = current(quota_key)
  else
    local q = current(quota_key)
    local m = math.min(k, math.max(0, tonumber(ARGV[5 * i + 4]) - q))
    if m > 0 then count[quota_key] = q + m end
    out[#out + 1] = m; out[#out + 1] = q
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

// KEYS[1] quota counter; ARGV[1] limit, ARGV[2] units → {allowed, used}
const RedisScript kReserveQuota(R"lua(
local q = tonumber(redis.call('GET', KEYS[1]) or '0')
if q + tonumber(ARGV[2]) > tonumber(ARGV[1]) then return {0, q} end
return {1, redis.call('INCRBY', KEYS[1], ARGV[2])}
)lua");

// KEYS[1] quota counter; ARGV[1] units → the count after (never below zero)
const RedisScript kReleaseQuota(R"lua(
local q = tonumber(redis.call('GET', KEYS[1]) or '0')
if q <= 0 then return 0 end
return redis.call('DECRBY', KEYS[1], math.min(q, tonumber(ARGV[1])))
)lua");

CounterStep step(const RedisValue& v, size_t at) {
  if (v.type != RedisValue::Type::Array || v.elements.size() < at + 2)
    throw StoreError("redis: unexpected reply from a counter script");
  return {v.elements[at].as_integer() == 1, v.elements[at + 1].as_integer()};
}

// The keys and arguments of a kTakeRateSteps call. A step identical to the one before it
// (same window, quota counter, mode and limits: at many connections of one key, nearly
// every step of a turn) adds a unit to that one instead: the script decides it exactly as
// the next step in a row, so the replies are what separate steps would get.
struct RateSteps {
  std::vector<std::string> keys;
  std::vector<std::string> args;  // 5 per step; the units' place is filled by finish()
  std::vector<int64_t> units;

  // Where a step's reply is read: the step of the call, and the unit within it.
  struct Place {
    size_t step = 0;
    int64_t unit = 0;
  };

  Place add(std::string_view subject, int64_t window_start_s, int64_t rate_limit, int64_t key_id,
            std::string_view period, std::optional<int64_t> quota_limit, bool reserve = true) {
    std::string window = redis_keys::rate(subject, window_start_s);
    std::string quota = quota_limit ? redis_keys::quota(key_id, period) : window;
    std::string_view mode = !quota_limit ? "0" : reserve ? "1" : "2";
    std::string rate = std::to_string(rate_limit);
    std::string quota_max = quota_limit ? std::to_string(*quota_limit) : "0";
    if (!units.empty()) {
      const size_t last = units.size() - 1;
      const std::string* a = &args[5 * last];
      if (keys[2 * last] == window && keys[2 * last + 1] == quota && a[0] == mode && a[1] == rate &&
          a[3] == quota_max)
        return {last, units[last]++};
    }
    keys.push_back(std::move(window));
    keys.push_back(std::move(quota));
    args.emplace_back(mode);
    args.push_back(std::move(rate));
    args.push_back(std::to_string(kRateKeyTtlS));
    args.push_back(std::move(quota_max));
    args.emplace_back();
    units.push_back(1);
    return {units.size() - 1, 0};
  }

  // Writes each step's units into its arguments, before the call is sent.
  void finish() {
    for (size_t i = 0; i < units.size(); ++i) args[5 * i + 4] = std::to_string(units[i]);
  }
};

// Unit `at.unit` of step `at.step` of a kTakeRateSteps reply (the quota's half left empty
// without a quota): the units of a step are decided in order, so unit j is granted while
// j < the units granted, and its count is the count before plus j + 1.
RateAndQuotaStep merged_step_result(const RedisValue& v, RateSteps::Place at, bool with_quota) {
  const size_t first = 4 * at.step;
  if (v.type != RedisValue::Type::Array || v.elements.size() < first + 4)
    throw StoreError("redis: unexpected reply from a counter script");
  const auto figure = [&](size_t i) { return v.elements[first + i].as_integer(); };
  const auto unit = [&](int64_t granted, int64_t before) {
    return at.unit < granted ? CounterStep{true, before + at.unit + 1}
                             : CounterStep{false, before + granted};
  };
  RateAndQuotaStep r;
  r.rate = unit(figure(0), figure(1));
  if (with_quota) r.quota = unit(figure(2), figure(3));
  return r;
}

// The reply of a call of one step, as sent by the blocking calls.
RateAndQuotaStep single_step(RateSteps& c, bool with_quota, RedisClient& redis) {
  c.finish();
  return merged_step_result(redis.eval(kTakeRateSteps, c.keys, c.args), {}, with_quota);
}

// An error reply (MISCONF when Redis cannot write its AOF, OOM, READONLY on a replica)
// means the count was not recorded: the same fail-closed answer as no Redis at all.
template <typename Fn>
auto guarded(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const StoreError& e) {
    throw StoreUnavailable(e.what());
  }
}

// The counters' outages are what clients see as 503s: the server's log tells when they
// start and end.
RedisOptions with_state_log(RedisOptions o) {
  o.log_state_changes = true;
  return o;
}

class RedisCounters final : public SharedCounters {
 public:
  explicit RedisCounters(RedisOptions options) : redis_(with_state_log(std::move(options))) {}

  CounterStep take_rate(std::string_view subject, int64_t window_start_s, int64_t limit) override {
    RateSteps c;
    c.add(subject, window_start_s, limit, 0, {}, std::nullopt);
    return guarded([&] { return single_step(c, false, redis_).rate; });
  }

  RateAndQuotaStep take_rate_and_quota(std::string_view subject, int64_t window_start_s,
                                       int64_t rate_limit, int64_t key_id, std::string_view period,
                                       int64_t quota_limit, bool reserve) override {
    RateSteps c;
    c.add(subject, window_start_s, rate_limit, key_id, period, quota_limit, reserve);
    return guarded([&] { return single_step(c, true, redis_); });
  }

  CounterStep reserve_quota(int64_t key_id, std::string_view period, int64_t limit,
                            int64_t units) override {
    return guarded([&] {
      return step(redis_.eval(kReserveQuota, {redis_keys::quota(key_id, period)},
                              {std::to_string(limit), std::to_string(units)}),
                  0);
    });
  }

  // On a server thread the release is sent on the pipeline and not waited for: a request
  // refused after its unit was reserved (400, 422) never holds its thread on Redis. A
  // release that fails leaves the unit counted, as the blocking one does (SharedAccounts).
  void release_quota(int64_t key_id, std::string_view period, int64_t units) override {
    std::vector<std::string> keys{redis_keys::quota(key_id, period)};
    std::vector<std::string> args{std::to_string(units)};
    if (!steps_asynchronously()) {
      guarded([&] { return redis_.eval(kReleaseQuota, keys, args); });
      return;
    }
    pipeline_eval(*this_thread_event_loop(), redis_, kReleaseQuota, std::move(keys),
                  std::move(args), [](RedisValue&&, std::exception_ptr) {});
  }

  bool steps_asynchronously() const override {
    return this_thread_event_loop() != nullptr && !redis_.failing_fast();
  }

  // take_rate / take_rate_and_quota on the event loop's pipelined connection. The steps
  // started in one turn of the loop go to Redis together as one kTakeRateSteps call: the
  // first one posts the flush, which runs after the handlers the loop has ready (the
  // other requests that arrived with it).
  bool start_rate_step(std::string_view subject, int64_t window_start_s, int64_t rate_limit,
                       int64_t key_id, std::string_view period, std::optional<int64_t> quota_limit,
                       bool reserve, StepDone done) override {
    if (!steps_asynchronously()) return false;
    net::io_context& loop = *this_thread_event_loop();
    StepBatch& batch = batches()[redis_.id()];
    if (batch.waiting.empty()) net::post(loop, [this, &loop] { flush_steps(loop); });
    const RateSteps::Place at =
        batch.call.add(subject, window_start_s, rate_limit, key_id, period, quota_limit, reserve);
    batch.waiting.push_back({quota_limit.has_value(), at, std::move(done)});
    return true;
  }

  int64_t rate_used(std::string_view subject, int64_t window_start_s) override {
    return guarded([&] { return count(redis_keys::rate(subject, window_start_s)); });
  }

  int64_t quota_used(int64_t key_id, std::string_view period) override {
    return guarded([&] { return count(redis_keys::quota(key_id, period)); });
  }

 private:
  struct WaitingStep {
    bool with_quota = false;
    RateSteps::Place at;  // where its reply is read
    StepDone done;
  };
  // The steps of this turn: the call being built and who waits on each of its steps.
  struct StepBatch {
    RateSteps call;
    std::vector<WaitingStep> waiting;
  };
  // The batches waiting for their loop's flush, per Redis client: per thread, since each
  // event loop runs on its own thread. Keyed by the client's id, which is never reused.
  static std::unordered_map<uint64_t, StepBatch>& batches() {
    thread_local std::unordered_map<uint64_t, StepBatch> by_client;
    return by_client;
  }

  void flush_steps(net::io_context& loop) {
    StepBatch batch = std::exchange(batches()[redis_.id()], StepBatch{});
    batch.call.finish();
    auto waiting = std::make_shared<std::vector<WaitingStep>>(std::move(batch.waiting));
    pipeline_eval(loop, redis_, kTakeRateSteps, std::move(batch.call.keys),
                  std::move(batch.call.args), [waiting](RedisValue&& v, std::exception_ptr error) {
                    for (size_t i = 0; i < waiting->size(); ++i) {
                      WaitingStep& w = (*waiting)[i];
                      RateAndQuotaStep result;
                      std::exception_ptr step_error = error;
                      try {
                        result = guarded([&] {
                          if (step_error) std::rethrow_exception(step_error);
                          return merged_step_result(v, w.at, w.with_quota);
                        });
                      } catch (...) {
                        step_error = std::current_exception();
                      }
                      w.done(result, step_error);
                    }
                  });
  }

  int64_t count(const std::string& key) {
    const RedisValue v = redis_.command({"GET", key});
    return v.is_nil() ? 0 : v.as_integer();
  }

  RedisClient redis_;
};

}  // namespace

std::unique_ptr<SharedCounters> open_redis_counters(const RedisOptions& options) {
  return std::make_unique<RedisCounters>(options);
}

}  // namespace toolcalc::store
