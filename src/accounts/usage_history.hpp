#pragma once
// Daily usage per key and tool (GET /v1/usage), counted in memory and written to the store
// by the accounts' background thread with the monthly usage, so that a request pays one
// lookup in a sharded map and never a store write. What a request adds: one execution and
// its quota units when it succeeded, else one refusal under its HTTP status.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/thread_safety.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

// Days since 1970-01-01 (UTC) of `epoch_s`.
inline int32_t utc_day_of(int64_t epoch_s) {
  return static_cast<int32_t>((epoch_s >= 0 ? epoch_s : epoch_s - 86'399) / 86'400);
}

class UsageHistory {
 public:
  // One request of `key_id` about the tool "domain/slug", on the day of `now_s`: a
  // success (status 200) counts one execution and its `units`; anything else one refusal
  // under its status. One map lookup under one shard's lock.
  void record(int64_t key_id, int64_t now_s, std::string_view domain, std::string_view slug,
              int status, int64_t units);

  // Every pending count as store deltas (a success's entry gives kHistoryExecutions and
  // kHistoryUnits), forgetting them; the caller writes them and, when that fails, hands
  // them back with restore_pending.
  std::vector<store::HistoryDelta> take_pending();
  void restore_pending(const std::vector<store::HistoryDelta>& deltas);

  // The deltas of `key_id` on days [first_day, end_day) not yet written: a reader adds them
  // to what the store holds.
  std::vector<store::HistoryDelta> pending_for(int64_t key_id, int32_t first_day,
                                               int32_t end_day) const;

 private:
  // metric: 200 for successes (their executions and units), else the refusal's status.
  struct Entry {
    int64_t key_id;
    int32_t day;
    int32_t metric;
    std::string tool;  // "domain/slug"
  };
  // A request's entry, looked up without building the tool's name (no allocation).
  struct Probe {
    int64_t key_id;
    int32_t day;
    int32_t metric;
    std::string_view domain, slug;
  };
  struct Counts {
    int64_t count = 0;  // executions (metric 200) or refusals
    int64_t units = 0;  // quota units of the executions
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Entry& e) const;
    size_t operator()(const Probe& p) const;
  };
  struct Equal {
    using is_transparent = void;
    bool operator()(const Entry& a, const Entry& b) const;
    bool operator()(const Probe& p, const Entry& e) const;
    bool operator()(const Entry& e, const Probe& p) const { return (*this)(p, e); }
  };
  using Map = std::unordered_map<Entry, Counts, Hash, Equal>;
  struct alignas(64) Shard {
    mutable Mutex mu;
    Map pending TOOLCALC_GUARDED_BY(mu);
  };
  static constexpr size_t kShards = 16;

  Shard& shard_for(int64_t key_id) const {
    return shards_[static_cast<uint64_t>(key_id) % kShards];
  }
  static void append_deltas(const Entry& e, const Counts& c, std::vector<store::HistoryDelta>& out);

  mutable std::array<Shard, kShards> shards_;
};

// The day rows of one month as GET /v1/usage reports them: the store's rows plus `pending`,
// summed per (day, tool, metric), ordered by day, tool and metric.
std::vector<store::HistoryRow> merge_history(std::vector<store::HistoryRow> stored,
                                             const std::vector<store::HistoryDelta>& pending);

}  // namespace toolcalc::accounts
