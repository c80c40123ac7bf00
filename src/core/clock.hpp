#pragma once
// Wall-clock time behind an interface so that rate windows and month rollover can be
// tested with a clock the test moves.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace toolcalc {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t now_ms() const = 0;  // Unix epoch milliseconds, UTC
  int64_t now_s() const { return now_ms() / 1000; }
};

class SystemClock final : public Clock {
 public:
  int64_t now_ms() const override {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  }
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
