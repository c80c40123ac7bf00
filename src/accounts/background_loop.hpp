#pragma once
// A background thread of accounts (Accounts, SharedAccounts, LedgerShipper, QuotaAlerts):
// runs a step function until stopped, sleeping until the time the step asks for next; stop()
// wakes it at once. Started at most once: start() after stop() does nothing.
#include <chrono>
#include <functional>
#include <thread>
#include <utility>

#include "core/thread_safety.hpp"

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
    MutexLock lock(mu_);
    if (thread_.joinable() || stopping_) return;
    thread_ = std::thread([this, first, step = std::move(step)] { run(first, step); });
  }

  // Idempotent; returns once the thread has ended (a running step finishes first).
  void stop() {
    {
      MutexLock lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run(TimePoint next, const std::function<TimePoint()>& step) {
    MutexLock lock(mu_);
    while (!stopping_) {
      wake_.wait_until(lock, next, [this]() TOOLCALC_REQUIRES(mu_) { return stopping_; });
      if (stopping_) break;
      lock.unlock();
      next = step();
      lock.lock();
    }
  }

  Mutex mu_;
  CondVar wake_;
  bool stopping_ TOOLCALC_GUARDED_BY(mu_) = false;
  // Started under mu_ unless stopping; joined by stop() once stopping_ is set (no start()
  // can follow).
  std::thread thread_;
};

}  // namespace toolcalc::accounts
