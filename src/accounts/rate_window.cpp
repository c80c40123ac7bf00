#include "accounts/rate_window.hpp"

#include <algorithm>

namespace toolcalc::accounts {
namespace {

int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

}  // namespace

WindowBounds rate_window_bounds(int64_t now_ms) {
  const int64_t now_s = floor_div(now_ms, 1000);
  const int64_t start_s = floor_div(now_s, kRateWindowSeconds) * kRateWindowSeconds;
  return {now_s, start_s, start_s + kRateWindowSeconds};
}

RateDecision rate_decision(const WindowBounds& w, int64_t limit, int64_t used, bool allowed) {
  RateDecision d;
  d.allowed = allowed;
  d.limit = limit;
  d.remaining = std::max<int64_t>(0, limit - used);
  d.reset_epoch_s = w.end_s;
  d.now_s = w.now_s;
  // Whole seconds until the window ends: 1..60 (now_s < end_s always).
  d.retry_after_s = allowed ? 0 : std::max<int64_t>(1, w.end_s - w.now_s);
  return d;
}

RateWindows::Shard& RateWindows::shard_for(std::string_view subject) const {
  return shards_[StringHash{}(subject) % kShards];
}

RateDecision RateWindows::take(std::string_view subject, int64_t limit) {
  Shard& shard = shard_for(subject);
  MutexLock lock(shard.mu);
  // The clock is read under the lock: a caller that read it before waiting here could
  // otherwise move a window that a later caller already started back to the previous one.
  const WindowBounds w = rate_window_bounds(clock_.now_ms());
  auto it = shard.windows.find(subject);
  if (it == shard.windows.end()) it = shard.windows.emplace(std::string(subject), Window{}).first;
  Window& win = it->second;
  if (w.start_s > win.start_s) {
    win = Window{w.start_s, 0};
  } else if (w.start_s < win.start_s) {
    // The wall clock was stepped back: the window moves back with it and keeps its count,
    // so a step back never hands out a fresh window within the same real minute, and
    // X-RateLimit-Reset stays within 60 s of the clock's now.
    win.start_s = w.start_s;
  }
  if (win.used >= limit) return rate_decision(w, limit, win.used, false);
  ++win.used;
  return rate_decision(w, limit, win.used, true);
}

RateDecision RateWindows::peek(std::string_view subject, int64_t limit) const {
  Shard& shard = shard_for(subject);
  int64_t used = 0;
  WindowBounds w;
  {
    MutexLock lock(shard.mu);
    w = rate_window_bounds(clock_.now_ms());
    auto it = shard.windows.find(subject);
    if (it != shard.windows.end() && it->second.start_s >= w.start_s) used = it->second.used;
  }
  return rate_decision(w, limit, used, used < limit);
}

void RateWindows::evict_stale() {
  for (Shard& shard : shards_) {
    MutexLock lock(shard.mu);
    const WindowBounds w = rate_window_bounds(clock_.now_ms());
    std::erase_if(shard.windows, [&](const auto& kv) { return kv.second.start_s < w.start_s; });
  }
}

size_t RateWindows::tracked_subjects() const {
  size_t n = 0;
  for (const Shard& shard : shards_) {
    MutexLock lock(shard.mu);
    n += shard.windows.size();
  }
  return n;
}

}  // namespace toolcalc::accounts
