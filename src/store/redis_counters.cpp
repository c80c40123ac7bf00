// Rate windows and monthly quotas in Redis (issue 9). Each step is one Lua script, run
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

#include "accounts/access_control.hpp"
#include "core/event_loop.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_pipeline.hpp"
#include "store/redis_store.hpp"

namespace toolcalc::store {
namespace {

namespace net = boost::asio;

// A window's counter lives two windows: long enough for instances whose clocks differ by
// a few seconds to still share it, short enough that memory holds about one minute of
// subjects.
constexpr int64_t kRateKeyTtlS = 120;

// KEYS[1] window counter; ARGV[1] limit, ARGV[2] ttl (s) → {allowed 0|1, used}
const RedisScript kTakeRate(R"lua(
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return {1, used}
)lua");

// KEYS[1] window counter, KEYS[2] quota counter; ARGV[1] rate limit, ARGV[2] ttl (s),
// ARGV[3] quota limit → {rate allowed, rate used, quota allowed, quota used}
const RedisScript kTakeRateAndQuota(R"lua(
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used, 0, 0} end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
local q = tonumber(redis.call('GET', KEYS[2]) or '0')
if q >= tonumber(ARGV[3]) then return {1, used, 0, q} end
return {1, used, 1, redis.call('INCR', KEYS[2])}
)lua");

// The rate steps a server thread started in one turn of its event loop, in one call:
// step i has KEYS[2i+1] its window counter and KEYS[2i+2] its quota counter (the window
// counter again when it has no quota), ARGV[4i+1..4i+4] = has quota (1|0), rate limit,
// ttl (s), quota limit. The steps are decided in order exactly as kTakeRate /
// kTakeRateAndQuota decide them one by one, each seeing the counts the steps before it
// left; every counter is read once and written once at the end (INCRBY of what the batch
// added, and the window's EXPIRE when the batch created it), so steps of one caller cost
// Redis one GET and one write per counter instead of four commands each. A refused step
// still writes nothing. Reply: {rate allowed, rate used, quota allowed, quota used} per
// step. One call per batch: Redis's cost per call and per command is most of its cost
// per request (docs/performance.md, "Shared store").
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
  local used = current(rate_key)
  if used >= tonumber(ARGV[4 * i + 2]) then
    out[#out + 1] = 0; out[#out + 1] = used; out[#out + 1] = 0; out[#out + 1] = 0
  else
    used = used + 1
    count[rate_key] = used
    ttl[rate_key] = ARGV[4 * i + 3]
    out[#out + 1] = 1; out[#out + 1] = used
    if ARGV[4 * i + 1] ~= '1' then
      out[#out + 1] = 0; out[#out + 1] = 0
    else
      local q = current(quota_key)
      if q >= tonumber(ARGV[4 * i + 4]) then
        out[#out + 1] = 0; out[#out + 1] = q
      else
        q = q + 1
        count[quota_key] = q
        out[#out + 1] = 1; out[#out + 1] = q
      end
    end
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

accounts::CounterStep step(const RedisValue& v, size_t at) {
  if (v.type != RedisValue::Type::Array || v.elements.size() < at + 2)
    throw StoreError("redis: unexpected reply from a counter script");
  return {v.elements[at].as_integer() == 1, v.elements[at + 1].as_integer()};
}

// A counter script with its keys and arguments.
struct ScriptCall {
  const RedisScript* script;
  std::vector<std::string> keys;
  std::vector<std::string> args;
};

// The rate step of SharedCounters: kTakeRate, or kTakeRateAndQuota with a quota limit.
ScriptCall rate_step_call(std::string_view subject, int64_t window_start_s, int64_t rate_limit,
                          int64_t key_id, std::string_view period,
                          std::optional<int64_t> quota_limit) {
  ScriptCall c{quota_limit ? &kTakeRateAndQuota : &kTakeRate,
               {redis_keys::rate(subject, window_start_s)},
               {std::to_string(rate_limit), std::to_string(kRateKeyTtlS)}};
  if (quota_limit) {
    c.keys.push_back(redis_keys::quota(key_id, period));
    c.args.push_back(std::to_string(*quota_limit));
  }
  return c;
}

// An error reply (MISCONF when Redis cannot write its AOF, OOM, READONLY on a replica)
// means the count was not recorded: the same fail-closed answer as no Redis at all.
template <typename Fn>
auto guarded(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const StoreError& e) {
    throw accounts::StoreUnavailable(e.what());
  }
}

// The counters' outages are what clients see as 503s: the server's log tells when they
// start and end.
RedisOptions with_state_log(RedisOptions o) {
  o.log_state_changes = true;
  return o;
}

class RedisCounters final : public accounts::SharedCounters {
 public:
  explicit RedisCounters(RedisOptions options) : redis_(with_state_log(std::move(options))) {}

  accounts::CounterStep take_rate(std::string_view subject, int64_t window_start_s,
                                  int64_t limit) override {
    const ScriptCall c = rate_step_call(subject, window_start_s, limit, 0, {}, std::nullopt);
    return guarded([&] { return step(redis_.eval(*c.script, c.keys, c.args), 0); });
  }

  accounts::RateAndQuotaStep take_rate_and_quota(std::string_view subject, int64_t window_start_s,
                                                 int64_t rate_limit, int64_t key_id,
                                                 std::string_view period,
                                                 int64_t quota_limit) override {
    const ScriptCall c =
        rate_step_call(subject, window_start_s, rate_limit, key_id, period, quota_limit);
    return guarded([&] {
      const RedisValue v = redis_.eval(*c.script, c.keys, c.args);
      return accounts::RateAndQuotaStep{step(v, 0), step(v, 2)};
    });
  }

  accounts::CounterStep reserve_quota(int64_t key_id, std::string_view period, int64_t limit,
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
  // started in one turn of the loop go to Redis together as one kTakeRateSteps call (a
  // lone step as its own script): the first one posts the flush, which runs after the
  // handlers the loop has ready (the other requests that arrived with it).
  bool start_rate_step(std::string_view subject, int64_t window_start_s, int64_t rate_limit,
                       int64_t key_id, std::string_view period, std::optional<int64_t> quota_limit,
                       StepDone done) override {
    if (!steps_asynchronously()) return false;
    ScriptCall c = rate_step_call(subject, window_start_s, rate_limit, key_id, period, quota_limit);
    net::io_context& loop = *this_thread_event_loop();
    StepBatch& batch = batches()[redis_.id()];
    if (batch.steps.empty()) net::post(loop, [this, &loop] { flush_steps(loop); });
    batch.steps.push_back({std::move(c), quota_limit.has_value(), std::move(done)});
    return true;
  }

  int64_t rate_used(std::string_view subject, int64_t window_start_s) override {
    return guarded([&] { return count(redis_keys::rate(subject, window_start_s)); });
  }

  int64_t quota_used(int64_t key_id, std::string_view period) override {
    return guarded([&] { return count(redis_keys::quota(key_id, period)); });
  }

 private:
  struct PendingStep {
    ScriptCall call;
    bool with_quota = false;
    StepDone done;
  };
  struct StepBatch {
    std::vector<PendingStep> steps;
  };
  // The steps waiting for their loop's flush, per Redis client: per thread, since each
  // event loop runs on its own thread. Keyed by the client's id, which is never reused.
  static std::unordered_map<uint64_t, StepBatch>& batches() {
    thread_local std::unordered_map<uint64_t, StepBatch> by_client;
    return by_client;
  }

  static void complete(PendingStep& pending, const RedisValue& v, size_t at,
                       std::exception_ptr error) {
    accounts::RateAndQuotaStep result;
    try {
      result = guarded([&] {
        if (error) std::rethrow_exception(error);
        return accounts::RateAndQuotaStep{
            step(v, at), pending.with_quota ? step(v, at + 2) : accounts::CounterStep{}};
      });
    } catch (...) {
      error = std::current_exception();
    }
    pending.done(result, error);
  }

  void flush_steps(net::io_context& loop) {
    std::vector<PendingStep> steps = std::move(batches()[redis_.id()].steps);
    batches()[redis_.id()].steps.clear();
    if (steps.size() == 1) {
      auto shared = std::make_shared<PendingStep>(std::move(steps.front()));
      pipeline_eval(loop, redis_, *shared->call.script, std::move(shared->call.keys),
                    std::move(shared->call.args),
                    [shared](RedisValue&& v, std::exception_ptr error) {
                      // kTakeRate answers {allowed, used}; kTakeRateAndQuota adds the quota's.
                      complete(*shared, v, 0, error);
                    });
      return;
    }
    std::vector<std::string> keys, args;
    keys.reserve(2 * steps.size());
    args.reserve(4 * steps.size());
    for (PendingStep& p : steps) {
      ScriptCall& c = p.call;
      keys.push_back(c.keys[0]);
      keys.push_back(p.with_quota ? std::move(c.keys[1]) : std::move(c.keys[0]));
      args.push_back(p.with_quota ? "1" : "0");
      args.push_back(std::move(c.args[0]));  // rate limit
      args.push_back(std::move(c.args[1]));  // ttl
      args.push_back(p.with_quota ? std::move(c.args[2]) : "0");
    }
    auto shared = std::make_shared<std::vector<PendingStep>>(std::move(steps));
    pipeline_eval(loop, redis_, kTakeRateSteps, std::move(keys), std::move(args),
                  [shared](RedisValue&& v, std::exception_ptr error) {
                    if (!error && (v.type != RedisValue::Type::Array ||
                                   v.elements.size() != 4 * shared->size()))
                      error = std::make_exception_ptr(
                          StoreError("redis: unexpected reply from the rate steps script"));
                    for (size_t i = 0; i < shared->size(); ++i)
                      complete((*shared)[i], v, 4 * i, error);
                  });
  }

  int64_t count(const std::string& key) {
    const RedisValue v = redis_.command({"GET", key});
    return v.is_nil() ? 0 : v.as_integer();
  }

  RedisClient redis_;
};

}  // namespace

std::unique_ptr<accounts::SharedCounters> open_redis_counters(const RedisOptions& options) {
  return std::make_unique<RedisCounters>(options);
}

}  // namespace toolcalc::store
