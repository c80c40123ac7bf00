// Rate windows and monthly quotas in Redis. Each decision is one Lua script, run
// atomically by Redis, so N instances taking units of one window concurrently allow
// exactly `limit`; a refused step writes nothing (no AOF append for a 429). Executions of
// large limits are served from leases of units granted by that script ahead of need
// (counter_leases.hpp), counted with a plain INCRBY.
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

    // Executions of a key whose window and month are both large enough to lease: served
    // from this thread's leases when they hold units, and counted with a plain INCRBY.
    bool leased() const {
      return reserve && quota_limit && rate_limit >= kMinLeasedLimit &&
             *quota_limit >= kMinLeasedLimit;
    }
  };
  // What this thread keeps per Redis client: the steps started in this turn, its leases
  // and its name as a lease holder. Per thread, since each event loop runs on its own
  // thread; keyed by the client's id, which is never reused.
  struct ThreadState {
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

  // A turn's steps, decided: each one either served from the leases (its quota unit then
  // counted by the turn's INCRBY of its quota counter) or sent in the turn's script call.
  struct Bill {
    std::string quota_key;
    int64_t units = 0;
    int64_t count_after = 0;  // the INCRBY's reply
    std::exception_ptr error;
  };
  struct Decided {
    bool local = false;
    CounterStep rate;  // local: decided here
    size_t bill = 0;   // local: its Bill, and its unit in it
    int64_t bill_unit = 0;
    RateSteps::Place at;  // sent: where its reply is read
  };
  // A lease asked by a step of the call: the counters' keys in the book (empty: not asked)
  // and the limits asked under.
  struct Refill {
    size_t step = 0;
    std::string window, month;
    int64_t rate_limit = 0, quota_limit = 0;
  };
  struct Turn {
    std::vector<StartedStep> steps;
    std::vector<Decided> decided;
    std::vector<Bill> bills;
    std::vector<Refill> refills;
    RedisValue reply;
    std::exception_ptr call_error;
    size_t replies_due = 0;
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
    turn->decided.resize(turn->steps.size());
    RateSteps call;
    for (size_t i = 0; i < turn->steps.size(); ++i)
      decide(thread.leases, turn->steps[i], call, *turn, turn->decided[i]);
    turn->replies_due = turn->bills.size() + (call.units.empty() ? 0 : 1);
    if (turn->replies_due == 0) return complete(*turn);
    const uint64_t client_id = redis_.id();
    for (size_t b = 0; b < turn->bills.size(); ++b) {
      const Bill& bill = turn->bills[b];
      pipeline_command(loop, redis_, {"INCRBY", bill.quota_key, std::to_string(bill.units)},
                       [turn, b](RedisValue&& v, std::exception_ptr error) {
                         Bill& bill = turn->bills[b];
                         bill.error = error;
                         try {
                           if (!error) bill.count_after = v.as_integer();
                         } catch (const StoreError&) {
                           bill.error = std::current_exception();
                         }
                         if (--turn->replies_due == 0) complete(*turn);
                       });
    }
    if (call.units.empty()) return;
    call.finish(thread.holder);
    pipeline_eval(loop, redis_, kTakeRateSteps, std::move(call.keys), std::move(call.args),
                  [turn, client_id](RedisValue&& v, std::exception_ptr error) {
                    turn->reply = std::move(v);
                    turn->call_error = error;
                    take_refills(thread_state(client_id).leases, *turn);
                    if (--turn->replies_due == 0) complete(*turn);
                  });
  }

  // Serves `s` from the leases when both hold a unit; otherwise adds it to the call,
  // asking for a lease that is spent and not already on its way.
  static void decide(LeaseBook& book, const StartedStep& s, RateSteps& call, Turn& turn,
                     Decided& d) {
    if (!s.leased()) {
      d.at = call.add(s.subject, s.window_start_s, s.rate_limit, s.key_id, s.period, s.quota_limit,
                      s.reserve);
      return;
    }
    const std::string window = redis_keys::rate(s.subject, s.window_start_s);
    const std::string quota = redis_keys::quota(s.key_id, s.period);
    Lease& rate = book.at(window, s.rate_limit, s.window_start_s, false);
    Lease& month = book.at(quota, *s.quota_limit, month_index(s.period), true);
    if (rate.left > 0 && month.left > 0) {
      --rate.left;
      --month.left;
      d.local = true;
      d.rate = {true, rate.count - rate.left};
      d.bill = bill_for(turn, quota);
      d.bill_unit = turn.bills[d.bill].units++;
      return;
    }
    const bool ask_window = rate.left == 0 && !rate.refilling && !rate.no_refill;
    // A month's lease is at most a minute of the key's rate limit: no holder can serve
    // more in a minute, and that bounds what a stopped instance leaves unserved.
    const int64_t month_cap = month.left == 0 && !month.refilling ? s.rate_limit : 0;
    rate.refilling |= ask_window;
    month.refilling |= month_cap > 0;
    d.at = call.add(s.subject, s.window_start_s, s.rate_limit, s.key_id, s.period, s.quota_limit,
                    s.reserve, ask_window, month_cap);
    if (ask_window || month_cap > 0)
      turn.refills.push_back({d.at.step, ask_window ? window : std::string(),
                              month_cap > 0 ? quota : std::string(), s.rate_limit, *s.quota_limit});
  }

  static size_t bill_for(Turn& turn, const std::string& quota_key) {
    for (size_t b = 0; b < turn.bills.size(); ++b)
      if (turn.bills[b].quota_key == quota_key) return b;
    turn.bills.emplace_back().quota_key = quota_key;
    return turn.bills.size() - 1;
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
  static void take_refills(LeaseBook& book, const Turn& turn) {
    for (const Refill& r : turn.refills) {
      StepFigures f{};
      bool granted = !turn.call_error;
      if (granted) {
        try {
          f = step_figures(turn.reply, r.step);
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

  static void complete(Turn& turn) {
    for (size_t i = 0; i < turn.steps.size(); ++i) {
      const StartedStep& s = turn.steps[i];
      const Decided& d = turn.decided[i];
      RateAndQuotaStep result;
      std::exception_ptr error;
      try {
        result = guarded([&] {
          if (d.local) {
            const Bill& bill = turn.bills[d.bill];
            if (bill.error) std::rethrow_exception(bill.error);
            return RateAndQuotaStep{d.rate,
                                    {true, bill.count_after - (bill.units - d.bill_unit - 1)}};
          }
          if (turn.call_error) std::rethrow_exception(turn.call_error);
          return merged_step_result(turn.reply, d.at, s.quota_limit.has_value());
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
