#pragma once
// The background thread of an accounts implementation (Accounts, SharedAccounts): runs a
// step function until stopped, sleeping until the time the step asks for next; stop()
// wakes it at once. Started at most once: start() after stop() does nothing.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace toolcalc::accounts {

class BackgroundLoop {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  BackgroundLoop() = default;
  BackgroundLoop(const BackgroundLoop&) = delete;
  BackgroundLoop& operator=(const BackgroundLoop&) = delete;
  ~BackgroundLoop() { stop(); }

  // `step` runs on the thread, without the loop's lock, first at `first`, then each time
  // at the instant it returned.
  void start(TimePoint first, std::function<TimePoint()> step) {
    std::lock_guard lock(mu_);
    if (thread_.joinable() || stopping_) return;
    thread_ = std::thread([this, first, step = std::move(step)] { run(first, step); });
  }

  // Idempotent; returns once the thread has ended (a running step finishes first).
  void stop() {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run(TimePoint next, const std::function<TimePoint()>& step) {
    std::unique_lock lock(mu_);
    while (!stopping_) {
      wake_.wait_until(lock, next, [this] { return stopping_; });
      if (stopping_) break;
      lock.unlock();
      next = step();
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace toolcalc::accounts
