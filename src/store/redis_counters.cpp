// Rate windows and monthly quotas in Redis (issue 9). Each step is one Lua script, run
// atomically by Redis, so N instances taking units of one window concurrently allow
// exactly `limit`; a refused step writes nothing (no AOF append for a 429).
#include <charconv>
#include <exception>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accounts/access_control.hpp"
#include "core/event_loop.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_pipeline.hpp"
#include "store/redis_store.hpp"
#include "store/resp.hpp"

namespace toolcalc::store {
namespace {

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
    return guarded([&] {
      return step(redis_.eval(kTakeRate, {redis_keys::rate(subject, window_start_s)},
                              {std::to_string(limit), std::to_string(kRateKeyTtlS)}),
                  0);
    });
  }

  accounts::RateAndQuotaStep take_rate_and_quota(std::string_view subject, int64_t window_start_s,
                                                 int64_t rate_limit, int64_t key_id,
                                                 std::string_view period,
                                                 int64_t quota_limit) override {
    return guarded([&] {
      const RedisValue v = redis_.eval(
          kTakeRateAndQuota,
          {redis_keys::rate(subject, window_start_s), redis_keys::quota(key_id, period)},
          {std::to_string(rate_limit), std::to_string(kRateKeyTtlS), std::to_string(quota_limit)});
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
    boost::asio::io_context* loop = this_thread_event_loop();
    if (!loop || redis_.failing_fast()) {
      guarded([&] { return redis_.eval(kReleaseQuota, keys, args); });
      return;
    }
    thread_local std::string command;
    command.clear();
    const std::string_view argv[] = {"EVALSHA", kReleaseQuota.sha1_hex, "1", keys[0], args[0]};
    resp::append_command(command, argv, std::size(argv));
    pipeline_call(*loop, redis_, command,
                  [this, keys = std::move(keys), args = std::move(args)](PipelineReply&& reply) {
                    if (!reply.error_reply || !reply.value.str.starts_with("NOSCRIPT")) return;
                    try {
                      redis_.eval(kReleaseQuota, keys, args);
                    } catch (const std::exception&) {
                      // stays counted; the client has reported the outage
                    }
                  });
  }

  bool steps_asynchronously() const override {
    return this_thread_event_loop() != nullptr && !redis_.failing_fast();
  }

  // The same scripts as take_rate and take_rate_and_quota, sent on the event loop's
  // pipelined connection. Redis answers NOSCRIPT once after a restart or SCRIPT FLUSH:
  // that request then runs its step on the blocking client, which loads the script.
  bool start_rate_step(std::string_view subject, int64_t window_start_s, int64_t rate_limit,
                       int64_t key_id, std::string_view period, std::optional<int64_t> quota_limit,
                       StepDone done) override {
    boost::asio::io_context* loop = this_thread_event_loop();
    if (!loop || redis_.failing_fast()) return false;
    RateStepArgs a{redis_keys::rate(subject, window_start_s),
                   quota_limit ? redis_keys::quota(key_id, period) : std::string(), rate_limit,
                   quota_limit};
    // One buffer per thread for the encoded command: pipeline_call copies it.
    thread_local std::string command;
    command.clear();
    a.encode(command);
    pipeline_call(*loop, redis_, command,
                  [this, a = std::move(a), done = std::move(done)](PipelineReply&& reply) {
                    accounts::RateAndQuotaStep step;
                    std::exception_ptr error;
                    try {
                      step = decode_rate_step(a, reply);
                    } catch (...) {
                      error = std::current_exception();
                    }
                    done(step, error);
                  });
    return true;
  }

  int64_t rate_used(std::string_view subject, int64_t window_start_s) override {
    return guarded([&] { return count(redis_keys::rate(subject, window_start_s)); });
  }

  int64_t quota_used(int64_t key_id, std::string_view period) override {
    return guarded([&] { return count(redis_keys::quota(key_id, period)); });
  }

 private:
  // The keys and arguments of a rate step's script (kTakeRate, or kTakeRateAndQuota when
  // quota_limit is set).
  struct RateStepArgs {
    std::string rate_key;
    std::string quota_key;  // empty without a quota
    int64_t rate_limit = 0;
    std::optional<int64_t> quota_limit;

    const RedisScript& script() const { return quota_limit ? kTakeRateAndQuota : kTakeRate; }
    std::vector<std::string> keys() const {
      if (quota_limit) return {rate_key, quota_key};
      return {rate_key};
    }
    std::vector<std::string> args() const {
      std::vector<std::string> v{std::to_string(rate_limit), std::to_string(kRateKeyTtlS)};
      if (quota_limit) v.push_back(std::to_string(*quota_limit));
      return v;
    }
    // EVALSHA sha numkeys keys… args…
    void encode(std::string& out) const {
      char limit[24], ttl[24], quota[24];
      auto text = [](char* buf, int64_t v) {
        return std::string_view(buf,
                                static_cast<size_t>(std::to_chars(buf, buf + 24, v).ptr - buf));
      };
      const std::string_view sha = script().sha1_hex;
      if (quota_limit) {
        const std::string_view argv[] = {"EVALSHA",
                                         sha,
                                         "2",
                                         rate_key,
                                         quota_key,
                                         text(limit, rate_limit),
                                         text(ttl, kRateKeyTtlS),
                                         text(quota, *quota_limit)};
        resp::append_command(out, argv, std::size(argv));
      } else {
        const std::string_view argv[] = {
            "EVALSHA", sha, "1", rate_key, text(limit, rate_limit), text(ttl, kRateKeyTtlS)};
        resp::append_command(out, argv, std::size(argv));
      }
    }
  };

  accounts::RateAndQuotaStep decode_rate_step(const RateStepArgs& a, const PipelineReply& reply) {
    if (!reply.failure.empty())
      throw accounts::StoreUnavailable("redis " + redis_.options().url() + ": " + reply.failure);
    return guarded([&] {
      RedisValue v = reply.value;
      if (reply.error_reply) {
        if (!v.str.starts_with("NOSCRIPT")) throw StoreError("redis: " + v.str);
        v = redis_.eval(a.script(), a.keys(), a.args());
      }
      if (!a.quota_limit) return accounts::RateAndQuotaStep{step(v, 0), {}};
      return accounts::RateAndQuotaStep{step(v, 0), step(v, 2)};
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
