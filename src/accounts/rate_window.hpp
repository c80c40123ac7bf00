#pragma once
// Per-minute rate limit: fixed 60 s windows aligned to the clock
// (start = ⌊now/60⌋·60), one counter per subject. Counters live in sharded, mutex-guarded
// maps, so N simultaneous calls against limit L allow exactly L. A window never starts
// afresh because the clock went back (see take).
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "accounts/access_control.hpp"
#include "core/clock.hpp"
#include "core/thread_safety.hpp"

namespace toolcalc::accounts {

inline constexpr int64_t kRateWindowSeconds = 60;

// The window `now_ms` falls in, and the decision a window's count gives: shared by the
// in-memory windows below and the shared-store ones (shared_accounts.cpp).
struct WindowBounds {
  int64_t now_s, start_s, end_s;
};
WindowBounds rate_window_bounds(int64_t now_ms);
RateDecision rate_decision(const WindowBounds& w, int64_t limit, int64_t used, bool allowed);

class RateWindows {
 public:
  explicit RateWindows(const Clock& clock) : clock_(clock) {}

  // Uses one unit of `subject`'s current window when one is left.
  RateDecision take(std::string_view subject, int64_t limit);
  // The current window's state, using nothing.
  RateDecision peek(std::string_view subject, int64_t limit) const;

  // Forgets windows that have ended, so memory holds only subjects seen this minute (and
  // those of a window the clock was stepped back from, until they are used or end).
  void evict_stale();
  size_t tracked_subjects() const;

 private:
  struct Window {
    int64_t start_s = 0;
    int64_t used = 0;
  };
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct alignas(64) Shard {
    mutable Mutex mu;
    std::unordered_map<std::string, Window, StringHash, std::equal_to<>> windows
        TOOLCALC_GUARDED_BY(mu);
  };
  static constexpr size_t kShards = 64;

  Shard& shard_for(std::string_view subject) const;

  const Clock& clock_;
  mutable std::array<Shard, kShards> shards_;
};

}  // namespace toolcalc::accounts
