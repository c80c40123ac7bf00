#pragma once
// What the API layer needs from accounts (spec §5, §8): who is calling, may
// they make one more call this minute, and may one more execution count against the
// month. The API never sees keys' storage; the implementation keeps keys in memory and
// persists usage behind store/.
#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/account_store.hpp"
#include "store/store_errors.hpp"

namespace toolcalc::accounts {

struct Plan {
  std::string name;
  int64_t rate_per_minute = 60;
  std::optional<int64_t> monthly_quota;  // nullopt: no monthly quota (anonymous plan)
};

struct Caller {
  bool anonymous = true;
  std::string subject;     // rate-limit subject: key id, or client IP for anonymous
  std::string key_prefix;  // first 12 characters of the key; "" for anonymous
  std::string label;
  // The plan's name and the key's effective limits: the plan's, or the key's own where it
  // has them (rate_from_key, quota_from_key).
  Plan plan;
  int64_t key_id = 0;  // the key's store id (its quota counter); 0 for anonymous
  bool rate_from_key = false;
  bool quota_from_key = false;
};

enum class AuthStatus { Ok, Missing, Invalid };

struct AuthResult {
  AuthStatus status = AuthStatus::Missing;
  // The key's caller when status == Ok; otherwise (Missing, Invalid) the anonymous caller
  // for the peer IP, so that even a 401 can carry the anonymous X-RateLimit-* headers.
  Caller caller;
};

// One unit of the per-minute window (fixed 60 s windows aligned to the clock).
struct RateDecision {
  bool allowed = true;
  int64_t limit = 0;
  int64_t remaining = 0;      // never negative
  int64_t reset_epoch_s = 0;  // end of the current window
  int64_t retry_after_s = 0;  // ≥ 1 when !allowed
  int64_t now_s = 0;          // the instant the decision was taken (epoch seconds)
};

// The monthly quota as one response reports it (the RateLimit header's "month" policy):
// the caller's limit and what is left after this request's units.
struct QuotaView {
  int64_t limit = 0;
  int64_t remaining = 0;
};

// Units of the calendar-month (UTC) quota, reserved before a tool runs and either
// committed (200) or released (anything else). Execute reserves one unit; a sweep one per
// point, and releases those of the points that produced no result.
struct QuotaReservation {
  bool allowed = true;
  bool unlimited = false;  // plan has no quota
  int64_t units = 0;       // reserved (0 when refused)
  int64_t limit = 0;
  int64_t remaining = 0;      // after this call; when refused, what is left (< units asked)
  int64_t retry_after_s = 0;  // seconds until 00:00 UTC on the 1st of next month
  std::string resets_at;      // ISO-8601 UTC of that instant
  std::string period;         // "YYYY-MM" the unit was counted in
  // Served from a unit the shared store leased to this instance and counted in its usage
  // ledger (SharedAccounts): given back there, not in the store.
  bool from_lease = false;
};

struct QuotaStatus {
  bool unlimited = false;
  int64_t limit = 0, used = 0, remaining = 0;
  std::string period;     // YYYY-MM
  std::string resets_at;  // ISO-8601 UTC
};

// What the counting calls below throw when the store holding the counts (a shared one:
// Redis) cannot count: nothing was counted, so the API answers 503 STORE_UNAVAILABLE and
// does not run the request (fail closed). The store defines it (store/store_errors.hpp);
// the API layer names it here, with the rest of what AccessControl promises.
using store::StoreUnavailable;

// What the rate step of a request produced (AccessControl::rate_step): the rate decision,
// the execution's quota unit when the step reserved it, and the caller's month when the
// step read it on the way (a shared store does).
struct RateStep {
  RateDecision rate;
  std::optional<QuotaReservation> early;
  std::optional<QuotaView> month;
};

// What one request counted: units of monthly quota reserved and not given back, by key
// and UTC month (UtcMonth::index()). A request counts for one key, and in two months at
// most (one that straddles 00:00 UTC on the 1st). The request carries it (api's
// ServiceContext::counted) and hands it to every AccessControl call that counts; an
// AccessControl whose counts reach durable storage only after the call that counted them
// (the embedded store's group commit, a fleet instance's usage ledger) records them in it,
// and await_durable then waits for them.
struct CountedUnits {
  struct Entry {
    int64_t key_id = 0;
    int64_t month = -1;
    int64_t units = 0;
  };
  std::array<Entry, 2> entries{};

  // `units` < 0 gives units back. A third (key, month) cannot happen and is not recorded.
  void add(int64_t key_id, int64_t month, int64_t units) {
    for (Entry& e : entries) {
      if (e.month == -1) e = {key_id, month, 0};
      if (e.key_id == key_id && e.month == month) {
        e.units += units;
        return;
      }
    }
  }
  int64_t total() const { return entries[0].units + entries[1].units; }
  bool empty() const { return total() <= 0; }
};

// A request that waits for the AccessControl: for its rate step on a shared store
// (rate_step returned nullopt), or for the units it counted to be durable (await_durable
// returned Waiting). It is told once, on the thread that made that call, through the
// function of what it waited for; the AccessControl holds it until then.
class Suspended {
 public:
  virtual ~Suspended() = default;
  // The step, or the StoreUnavailable the step would have thrown had it been taken at once.
  virtual void rate_step_taken(RateStep&& step, std::exception_ptr failure) = 0;
  // false: they could not be stored; they were given back (neither counted nor to be
  // acknowledged), and the request is answered as if the store were unreachable.
  virtual void units_durable(bool durable) = 0;
};

// What a request that can wait hands the calls that may have to: rate_step and
// await_durable call suspend() only when they will tell the request later, at most once
// per call, and read nothing of the request's afterwards: the Caller and the CountedUnits
// they were given move with it.
class Suspendable {
 public:
  // Moves the request off the caller's stack (a request that waited before is already
  // off it) and returns it.
  virtual std::shared_ptr<Suspended> suspend() = 0;

 protected:
  ~Suspendable() = default;
};

enum class Durability {
  Durable,  // stored (or nothing to store): the response may be sent
  Failed,   // could not be stored; the units were given back (see Suspended::units_durable)
  Waiting,  // the request was suspended and is told later
};

// The counting calls below (rate_step, reserve_quota, quota_status) may throw
// StoreUnavailable; authenticate, peek_rate and release_quota never do. Those that count
// record in the request's CountedUnits what await_durable must wait for.
class AccessControl {
 public:
  virtual ~AccessControl() = default;

  // `authorization` is the raw Authorization header, if any. With no header the caller is
  // anonymous (status Missing, caller filled for the anonymous plan keyed by `peer_ip`).
  virtual AuthResult authenticate(std::optional<std::string_view> authorization,
                                  std::string_view peer_ip) const = 0;
  // The rate step of one request: one unit of the caller's per-minute window and, when
  // `for_execution` and the implementation prefers, one unit of the monthly quota reserved
  // in the same step (RateStep::early: a shared store then needs one round trip instead of
  // two; empty when nothing was reserved, and the quota is then reserved by reserve_quota
  // after the inputs are validated). With `early` filled the caller reports a refusal only
  // where reserve_quota would have (after validation), and releases an allowed
  // reservation it does not use. Nothing is reserved when the rate unit is refused. An
  // implementation may fill `month` on the way.
  //
  // Returns the step when it is taken now: in memory (an embedded store), from units a
  // shared store leased to the calling thread (no round trip; counted in `counted`), or
  // blocking on the store. With `request`, and an event loop on the calling thread
  // (core/event_loop.hpp), an implementation that waits for a store over the network
  // instead suspends `request` and returns nullopt; the request is told the step later,
  // on this thread (Suspended::rate_step_taken). Throws StoreUnavailable when taken now
  // and the store cannot count.
  virtual std::optional<RateStep> rate_step(const Caller& caller, bool for_execution,
                                            CountedUnits& counted, Suspendable* request) = 0;
  // The window's state without using a unit: for responses that are never counted
  // (/v1/health, OPTIONS) but still carry the X-RateLimit-* headers.
  virtual RateDecision peek_rate(const Caller& caller) const = 0;
  // All `units` (≥ 1) or none: refused when fewer are left this month.
  virtual QuotaReservation reserve_quota(const Caller& caller, int64_t units,
                                         CountedUnits& counted) = 0;
  // Gives back `units` (≤ reservation.units) of an allowed reservation.
  virtual void release_quota(const Caller& caller, const QuotaReservation& reservation,
                             int64_t units, CountedUnits& counted) = 0;
  virtual QuotaStatus quota_status(const Caller& caller) const = 0;

  // A response that acknowledges counted units (a 200 of an execution) is sent only once
  // they are durable (docs/reliability.md, "Counts on disk"). With `request` and an event
  // loop on the calling thread (core/event_loop.hpp), an implementation that must write
  // them first may suspend `request` and return Waiting, then tell it on this thread once
  // they are written (Suspended::units_durable); otherwise it writes them before
  // returning. Implementations that count in durable storage directly record nothing and
  // return Durable.
  virtual Durability await_durable(const CountedUnits& counted, Suspendable* request) {
    (void)counted, (void)request;
    return Durability::Durable;
  }

  // The caller's month as it stands, for a response whose rate step did not read it;
  // nullopt without a quota or when the store cannot tell now. Never throws.
  virtual std::optional<QuotaView> peek_quota(const Caller& caller) const {
    if (caller.anonymous || !caller.plan.monthly_quota) return std::nullopt;
    try {
      const QuotaStatus s = quota_status(caller);
      if (s.unlimited) return std::nullopt;
      return QuotaView{s.limit, s.remaining};
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  // Usage history (GET /v1/usage): one request of a key about a tool ("domain", "slug")
  // ended with `status`; `units` quota units were kept (a 200). Counted in memory and
  // written with the monthly usage; never throws, never waits on a store.
  virtual void record_usage(const Caller& caller, std::string_view domain, std::string_view slug,
                            int status, int64_t units) {
    (void)caller, (void)domain, (void)slug, (void)status, (void)units;
  }
  // The caller's history on days [first_day, end_day) (days since the epoch, UTC), with
  // what this process has not written yet. May throw StoreUnavailable or store::StoreError.
  virtual std::vector<store::HistoryRow> usage_history(const Caller& caller, int32_t first_day,
                                                       int32_t end_day) {
    (void)caller, (void)first_day, (void)end_day;
    return {};
  }
  // Keys were changed through this process (the admin API): reload them now rather than
  // at the next refresh.
  virtual void keys_changed() {}

  // False while a shared store is unreachable (as of the last background key refresh,
  // at most key_refresh_ms ago): GET /v1/ready answers 503. An embedded store is part of
  // the process and always counts as reachable.
  virtual bool store_reachable() const { return true; }
};

}  // namespace toolcalc::accounts
