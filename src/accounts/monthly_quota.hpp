#pragma once
// Monthly quota: one counter per key per calendar month (UTC), held in
// memory (sharded, mutex-guarded, so reservations are exact under concurrency) and
// persisted as deltas: every change is also added to the entry's `pending` count, which
// the flusher takes and writes to the store.
//
// A month's counts start from what the store holds for it, read the first time the month
// is used (at start-up for the current one; then when the clock enters another month,
// also backwards after a clock step), so that a month is never counted from zero twice.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "accounts/access_control.hpp"
#include "accounts/utc_month.hpp"
#include "core/clock.hpp"
#include "core/thread_safety.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

class MonthlyQuota {
 public:
  // key id → units the store holds for a period ("YYYY-MM"); may throw store::StoreError.
  using UsageLoader = std::function<std::unordered_map<int64_t, int64_t>(std::string_view)>;

  // Without a loader every month starts from zero (tests).
  explicit MonthlyQuota(const Clock& clock, UsageLoader loader = {})
      : clock_(clock), loader_(std::move(loader)) {}

  // Sets the counts of `month` to what the store recorded, nothing pending, and marks the
  // month loaded.
  void seed(const UtcMonth& month, const std::unordered_map<int64_t, int64_t>& used);

  // Takes `units` of this month's quota of `key_id` when `limit` leaves that many, else
  // none (a sweep is charged all its points or refused).
  QuotaReservation reserve(int64_t key_id, int64_t limit, int64_t units = 1);
  // Returns `units` of an allowed reservation (to the month they were counted in), at
  // most the reservation's own units.
  void release(int64_t key_id, const QuotaReservation& reservation, int64_t units = 1);
  // Returns `units` counted for `key_id` in `month` (UtcMonth::index()).
  void give_back(int64_t key_id, int64_t month, int64_t units);
  QuotaStatus status(int64_t key_id, int64_t limit) const;
  // This month's count of `key_id` (status's `used`, without its texts).
  int64_t used(int64_t key_id) const;

  // Every non-zero pending delta, zeroing it; the caller writes them to the store and,
  // when that fails, hands them back with restore_pending so the next flush retries.
  std::vector<store::UsageDelta> take_pending();
  void restore_pending(const std::vector<store::UsageDelta>& deltas);

  // Forgets the months before the previous one whose entries have nothing pending (the
  // previous month is kept for a clock stepped back across the 1st). A forgotten month is
  // loaded from the store again if the clock ever returns to it.
  void evict_stale();

 private:
  struct Slot {
    int64_t key_id;
    int64_t month;  // UtcMonth::index()
    bool operator==(const Slot&) const = default;
  };
  struct SlotHash {
    size_t operator()(const Slot& s) const {
      return std::hash<int64_t>{}(s.key_id * 1'000'003 + s.month);
    }
  };
  struct Count {
    int64_t used = 0;     // this month so far, flushed or not
    int64_t pending = 0;  // not yet written to the store
    bool listed = false;  // in its shard's `changed`
  };
  struct alignas(64) Shard {
    // Taken after load_mu_ when both are held (seed, evict_stale).
    mutable Mutex mu;
    std::unordered_map<Slot, Count, SlotHash> counts TOOLCALC_GUARDED_BY(mu);
    // The entries whose pending count moved since the last take: a take (each group
    // commit) visits these, not every key seen this month.
    std::vector<Slot> changed TOOLCALC_GUARDED_BY(mu);
  };
  // Lists `count` (at `slot` of `shard`) for the next take.
  static void note_change(Shard& shard, const Slot& slot, Count& count)
      TOOLCALC_REQUIRES(shard.mu) {
    if (count.listed) return;
    count.listed = true;
    shard.changed.push_back(slot);
  }
  static constexpr size_t kShards = 16;

  Shard& shard_for(int64_t key_id) const {
    return shards_[static_cast<uint64_t>(key_id) % kShards];
  }
  // Loads `month` from the store unless it is loaded. Cheap for the month loaded last.
  void ensure_loaded(int64_t month) const;
  void seed_locked(int64_t month, const std::unordered_map<int64_t, int64_t>& used) const
      TOOLCALC_REQUIRES(load_mu_);

  const Clock& clock_;
  UsageLoader loader_;
  mutable std::array<Shard, kShards> shards_;
  mutable Mutex load_mu_;  // one load at a time
  // The months whose stored counts are in shards_.
  mutable std::set<int64_t> loaded_ TOOLCALC_GUARDED_BY(load_mu_);
  mutable std::atomic<int64_t> last_loaded_{-1};
};

// "YYYY-MM" ↔ UtcMonth::index(); parse returns -1 on a malformed period.
std::string period_of_index(int64_t month_index);
int64_t month_index_of_period(std::string_view period);

}  // namespace toolcalc::accounts
