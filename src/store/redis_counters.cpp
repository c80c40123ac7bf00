// Rate windows and monthly quotas in Redis. Each decision is one Lua script, run
// atomically by Redis, so N instances taking units of one window concurrently allow
// exactly `limit`; a refused step writes nothing (no AOF append for a 429). Executions of
// large limits may be served from leases of units granted by that script ahead of need
// (counter_leases.hpp): taken on the serving thread without Redis (take_leased), counted by
// the caller in its usage ledger and shipped here (ship, kShipCount).
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/event_loop.hpp"
#include "store/counter_leases.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_pipeline.hpp"
#include "store/redis_rate_steps.hpp"
#include "store/redis_store.hpp"
#include "store/store_errors.hpp"

namespace toolcalc::store {
namespace {

namespace net = boost::asio;

// How long a server thread's steps may gather while its event loop still finds new
// requests each turn, before they go to Redis anyway: one round trip then covers every
// connection that had a request ready, and this bounds what gathering adds to a
// response's latency (the embedded store's group commit gathers the same way).
constexpr std::chrono::microseconds kStepGather{500};

// KEYS[1] quota counter, KEYS[2] the month's granted counter; ARGV[1] limit, ARGV[2]
// units, ARGV[3] the granted counter's ttl → {allowed, used} (refused: the granted count)
const RedisScript kReserveQuota(R"lua(
local q = tonumber(redis.call('GET', KEYS[1]) or '0')
local g = math.max(tonumber(redis.call('GET', KEYS[2]) or '0'), q)
local n = tonumber(ARGV[2])
if g + n > tonumber(ARGV[1]) then return {0, g} end
redis.call('SET', KEYS[2], g + n, 'EX', ARGV[3])
return {1, redis.call('INCRBY', KEYS[1], n)}
)lua");

// KEYS[1] quota counter, KEYS[2] the month's granted counter; ARGV[1] units → the count
// after (never below zero). The units go back to the month's granted ones as well.
const RedisScript kReleaseQuota(R"lua(
local q = tonumber(redis.call('GET', KEYS[1]) or '0')
if q <= 0 then return 0 end
local n = math.min(q, tonumber(ARGV[1]))
local g = tonumber(redis.call('GET', KEYS[2]) or '0')
if g > 0 then redis.call('DECRBY', KEYS[2], math.min(g, n)) end
return redis.call('DECRBY', KEYS[1], n)
)lua");

// KEYS[1] quota counter, KEYS[2] its hash of what each instance shipped; ARGV[1] the
// instance, ARGV[2] its count of the key in the month (all it ever counted, shipped or
// not) → the month's count after. Only the difference from the instance's last shipment is
// added: a shipment sent again (its reply lost, the instance restarted) adds nothing, and a
// count lowered by units given back lowers the month's by as much.
const RedisScript kShipCount(R"lua(
local before = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local count = tonumber(ARGV[2])
if count == before then return tonumber(redis.call('GET', KEYS[1]) or '0') end
redis.call('HSET', KEYS[2], ARGV[1], count)
return redis.call('INCRBY', KEYS[1], count - before)
)lua");

CounterStep step(const RedisValue& v, size_t at) {
  if (v.type != RedisValue::Type::Array || v.elements.size() < at + 2)
    throw StoreError("redis: unexpected reply from a counter script");
  return {v.elements[at].as_integer() == 1, v.elements[at + 1].as_integer()};
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

// 64 random bits in hex: a name no other process picks.
std::string random_name() {
  std::random_device random;
  const uint64_t n = (uint64_t{random()} << 32) | random();
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(n));
  return text;
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
      const std::string quota = redis_keys::quota(key_id, period);
      return step(redis_.eval(kReserveQuota, {quota, redis_keys::quota_granted(quota)},
                              {std::to_string(limit), std::to_string(units),
                               std::to_string(kGrantedKeyTtlS)}),
                  0);
    });
  }

  // On a server thread the release is sent on the pipeline and not waited for: a request
  // refused after its unit was reserved (400, 422) never holds its thread on Redis. A
  // release that fails leaves the unit counted, as the blocking one does (SharedAccounts).
  void release_quota(int64_t key_id, std::string_view period, int64_t units) override {
    std::string quota = redis_keys::quota(key_id, period);
    std::vector<std::string> keys{quota, redis_keys::quota_granted(quota)};
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
  // started in one turn of the loop are decided together when the first one's flush runs,
  // after the handlers the loop has ready (the other requests that arrived with it).
  bool start_rate_step(std::string_view subject, int64_t window_start_s, int64_t rate_limit,
                       int64_t key_id, std::string_view period, std::optional<int64_t> quota_limit,
                       bool reserve, StepDone done) override {
    if (!steps_asynchronously()) return false;
    net::io_context& loop = *this_thread_event_loop();
    ThreadState& thread = thread_state(redis_.id());
    if (thread.holder.empty())
      thread.holder = holder_prefix_ + ":" + std::to_string(next_holder_.fetch_add(1));
    if (thread.started.empty()) {
      thread.first_started = std::chrono::steady_clock::now();
      thread.seen = 0;
      net::post(loop, [this, &loop] { flush_steps(loop); });
    }
    thread.started.push_back({std::string(subject), window_start_s, rate_limit, key_id,
                              std::string(period), quota_limit, reserve, std::move(done)});
    return true;
  }

  void lease_units(bool on) override { leasing_ = on; }

  std::optional<RateAndQuotaStep> take_leased(std::string_view subject, int64_t window_start_s,
                                              int64_t rate_limit, int64_t key_id,
                                              std::string_view period,
                                              int64_t quota_limit) override {
    if (!leasing_ || !leasable(rate_limit, quota_limit) || !steps_asynchronously())
      return std::nullopt;
    ThreadState& thread = thread_state(redis_.id());
    LastLeases& last = thread.last;
    // A thread serves the same key again and again: the leases it found last time, unless
    // the key, the window, the month or the book changed (no key names built, no lookups).
    if (last.version != thread.leases.version() || last.window_start_s != window_start_s ||
        last.key_id != key_id || last.subject != subject || last.period != period) {
      last = {thread.leases.find(redis_keys::rate(subject, window_start_s)),
              thread.leases.find(redis_keys::quota(key_id, period)),
              thread.leases.version(),
              window_start_s,
              key_id,
              std::string(subject),
              std::string(period)};
    }
    Lease* rate = last.rate;
    Lease* month = last.month;
    if (!rate || !month || rate->limit != rate_limit || month->limit != quota_limit ||
        rate->left == 0 || month->left == 0)
      return std::nullopt;
    --rate->left;
    --month->left;
    RateAndQuotaStep step;
    step.rate = {true, rate->count - rate->left};
    step.quota = {true, 0};  // counted by the caller, which knows the month's count
    return step;
  }

  void return_leased(int64_t key_id, std::string_view period, int64_t quota_limit,
                     int64_t units) override {
    if (this_thread_event_loop() == nullptr) return;
    Lease* month = thread_state(redis_.id()).leases.find(redis_keys::quota(key_id, period));
    if (month && month->limit == quota_limit) month->left += units;
  }

  int64_t ship(std::string_view instance, int64_t key_id, std::string_view period,
               int64_t count) override {
    return guarded([&] {
      const std::string quota = redis_keys::quota(key_id, period);
      return redis_
          .eval(kShipCount, {quota, redis_keys::quota_shipped(quota)},
                {std::string(instance), std::to_string(count)})
          .as_integer();
    });
  }

  int64_t rate_used(std::string_view subject, int64_t window_start_s) override {
    return guarded([&] { return count(redis_keys::rate(subject, window_start_s)); });
  }

  int64_t quota_used(int64_t key_id, std::string_view period) override {
    return guarded([&] { return count(redis_keys::quota(key_id, period)); });
  }

 private:
  struct StartedStep {
    std::string subject;
    int64_t window_start_s = 0, rate_limit = 0, key_id = 0;
    std::string period;
    std::optional<int64_t> quota_limit;
    bool reserve = false;
    StepDone done;

    // Executions of a key whose window and month are both large enough to lease.
    bool leased() const { return reserve && quota_limit && leasable(rate_limit, *quota_limit); }
  };
  // What this thread keeps per Redis client: the steps started in this turn, its leases
  // and its name as a lease holder. Per thread, since each event loop runs on its own
  // thread; keyed by the client's id, which is never reused.
  // The leases take_leased found last on a thread, and what it looked them up by.
  struct LastLeases {
    Lease* rate = nullptr;
    Lease* month = nullptr;
    uint64_t version = 0;
    int64_t window_start_s = -1;
    int64_t key_id = -1;
    std::string subject, period;
  };
  struct ThreadState {
    LastLeases last;
    std::vector<StartedStep> started;
    std::chrono::steady_clock::time_point first_started;
    size_t seen = 0;  // steps started when the flush last looked
    LeaseBook leases;
    std::string holder;
  };
  static ThreadState& thread_state(uint64_t client_id) {
    thread_local std::unordered_map<uint64_t, ThreadState> by_client;
    return by_client[client_id];
  }

  static bool leasable(int64_t rate_limit, int64_t quota_limit) {
    return rate_limit >= kMinLeasedLimit && quota_limit >= kMinLeasedLimit;
  }

  // A lease asked by a step of the call: the counters' keys in the book (empty: not asked)
  // and the limits asked under.
  struct Refill {
    size_t step = 0;
    std::string window, month;
    int64_t rate_limit = 0, quota_limit = 0;
  };
  // A turn's steps, all decided by one script call (those the leases could serve were
  // taken with take_leased before they got here).
  struct Turn {
    std::vector<StartedStep> steps;
    std::vector<RateSteps::Place> at;  // where each step's reply is read
    std::vector<Refill> refills;
  };

  void flush_steps(net::io_context& loop) {
    ThreadState& thread = thread_state(redis_.id());
    if (thread.started.size() > thread.seen &&
        std::chrono::steady_clock::now() - thread.first_started < kStepGather) {
      thread.seen = thread.started.size();
      net::post(loop, [this, &loop] { flush_steps(loop); });
      return;
    }
    auto turn = std::make_shared<Turn>();
    turn->steps = std::exchange(thread.started, {});
    turn->at.resize(turn->steps.size());
    RateSteps call;
    for (size_t i = 0; i < turn->steps.size(); ++i)
      turn->at[i] = add_step(thread.leases, turn->steps[i], call, *turn);
    const uint64_t client_id = redis_.id();
    call.finish(thread.holder);
    pipeline_eval(loop, redis_, kTakeRateSteps, std::move(call.keys), std::move(call.args),
                  [turn, client_id](RedisValue&& v, std::exception_ptr error) {
                    take_refills(thread_state(client_id).leases, *turn, v, error);
                    complete(*turn, v, error);
                  });
  }

  // Adds `s` to the call; a step of leasable limits asks for the leases that are spent and
  // not already on their way (when leasing is on).
  RateSteps::Place add_step(LeaseBook& book, const StartedStep& s, RateSteps& call,
                            Turn& turn) const {
    if (!leasing_ || !s.leased())
      return call.add(s.subject, s.window_start_s, s.rate_limit, s.key_id, s.period, s.quota_limit,
                      s.reserve);
    const std::string window = redis_keys::rate(s.subject, s.window_start_s);
    const std::string quota = redis_keys::quota(s.key_id, s.period);
    Lease& rate = book.at(window, s.rate_limit, s.window_start_s, false);
    Lease& month = book.at(quota, *s.quota_limit, month_index(s.period), true);
    const bool ask_window = rate.left == 0 && !rate.refilling && !rate.no_refill;
    // A month's lease is at most a minute of the key's rate limit: no holder can serve
    // more in a minute, and that bounds what a stopped instance leaves unserved.
    const int64_t month_cap = month.left == 0 && !month.refilling ? s.rate_limit : 0;
    rate.refilling |= ask_window;
    month.refilling |= month_cap > 0;
    const RateSteps::Place at = call.add(s.subject, s.window_start_s, s.rate_limit, s.key_id,
                                         s.period, s.quota_limit, s.reserve, ask_window, month_cap);
    if (ask_window || month_cap > 0)
      turn.refills.push_back({at.step, ask_window ? window : std::string(),
                              month_cap > 0 ? quota : std::string(), s.rate_limit, *s.quota_limit});
    return at;
  }

  // "YYYY-MM" → months since year 0 (the order of months, for dropping old leases).
  static int64_t month_index(std::string_view period) {
    int64_t year = 0, month = 0;
    for (size_t i = 0; i < period.size() && i < 4; ++i) year = year * 10 + (period[i] - '0');
    for (size_t i = 5; i < period.size() && i < 7; ++i) month = month * 10 + (period[i] - '0');
    return year * 12 + month;
  }

  // The leases the call granted go to the book, unless their lease was given up meanwhile
  // (a new limit) or the call failed (then what it may have granted stays unserved).
  static void take_refills(LeaseBook& book, const Turn& turn, const RedisValue& reply,
                           std::exception_ptr call_error) {
    for (const Refill& r : turn.refills) {
      StepFigures f{};
      bool granted = !call_error;
      if (granted) {
        try {
          f = step_figures(reply, r.step);
        } catch (const std::exception&) {
          granted = false;
        }
      }
      // A lease takes one grant per refill asked (refilling: asked, not back yet).
      Lease* l = r.window.empty() ? nullptr : book.find(r.window);
      if (l && l->refilling) {
        l->refilling = false;
        if (granted && l->limit == r.rate_limit) {
          l->left += f.window_lease;
          l->count = f.rate_before + f.rate_granted + f.window_lease;
        } else if (!granted || f.window_lease > 0) {
          // Units it may hold stay recorded as this holder's: a new grant would replace
          // that record.
          l->no_refill = true;
        }
      }
      l = r.month.empty() ? nullptr : book.find(r.month);
      if (l && l->refilling) {
        l->refilling = false;
        if (granted && l->limit == r.quota_limit) l->left += f.month_lease;
      }
    }
  }

  static void complete(Turn& turn, const RedisValue& reply, std::exception_ptr call_error) {
    for (size_t i = 0; i < turn.steps.size(); ++i) {
      const StartedStep& s = turn.steps[i];
      RateAndQuotaStep result;
      std::exception_ptr error;
      try {
        result = guarded([&] {
          if (call_error) std::rethrow_exception(call_error);
          return merged_step_result(reply, turn.at[i], s.quota_limit.has_value());
        });
      } catch (...) {
        error = std::current_exception();
      }
      s.done(result, error);
    }
  }

  int64_t count(const std::string& key) {
    const RedisValue v = redis_.command({"GET", key});
    return v.is_nil() ? 0 : v.as_integer();
  }

  RedisClient redis_;
  bool leasing_ = false;  // set before the server threads start
  // This process's name as a lease holder, different at every start: a stopped
  // instance's leases stay recorded until their window ends. Each thread adds a number.
  const std::string holder_prefix_ = random_name();
  std::atomic<uint64_t> next_holder_{0};
};

}  // namespace

std::unique_ptr<SharedCounters> open_redis_counters(const RedisOptions& options) {
  return std::make_unique<RedisCounters>(options);
}

}  // namespace toolcalc::store
