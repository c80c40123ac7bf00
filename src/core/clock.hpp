#pragma once
// Wall-clock time behind an interface so that rate windows and month rollover can be
// tested with a clock the test moves.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>

namespace toolcalc {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t now_ms() const = 0;  // Unix epoch milliseconds, UTC
  int64_t now_s() const { return now_ms() / 1000; }
};

// The kernel's coarse clocks: read from the vDSO page without reading the TSC (about 4 ns
// against 17 ns for CLOCK_REALTIME on the bench VM), exact to one kernel tick (4 ms there).
// What reads them per request needs no more: minute rate windows, UTC months, deadlines
// of whole seconds. Latency (meta.latency_ms) is measured with std::chrono::steady_clock.
inline int64_t coarse_realtime_ms() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME_COARSE, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}
inline int64_t coarse_monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Wall-clock time to within a kernel tick (coarse_realtime_ms).
class SystemClock final : public Clock {
 public:
  int64_t now_ms() const override { return coarse_realtime_ms(); }
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms) : ms_(start_ms) {}
  int64_t now_ms() const override { return ms_.load(); }
  void set_ms(int64_t ms) { ms_.store(ms); }
  void advance_ms(int64_t delta) { ms_.fetch_add(delta); }

 private:
  std::atomic<int64_t> ms_;
};

}  // namespace toolcalc
