#pragma once
// The threads that run tolerance analyses and solves off the I/O threads (docs/api.md,
// "Analyses"): an analysis of 100,000 samples takes tens of milliseconds, which would
// stall every other connection of an I/O thread's event loop. A request's analysis runs
// here and its answer is finished back on the event loop that read it
// (core/event_loop.hpp), which meanwhile serves its other connections.
//
// Bounded: at most `queue_limit` analyses wait for a thread; one more is refused (the API
// answers 503 SERVER_BUSY), so a flood of analyses costs memory for a fixed number of
// them, never more.
//
// Lowest priority: each pool thread moves itself to Linux's SCHED_IDLE policy when it
// starts, so that an I/O thread (short requests, SCHED_OTHER) that wakes on a core where an
// analysis runs takes that core at once, and an analysis gets the CPU the requests leave.
// A core shared by an I/O thread and an analysis thread would otherwise be split evenly,
// and execute's tail latency would carry half of every analysis; a raised nice value alone
// (weight 110 against 1024) still let a running analysis hold the core for a scheduler
// slice, and execute's p99 beside analyses stayed above 5 ms (docs/analysis.md).
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace toolcalc::api {

// Where SCHED_IDLE is refused, a pool thread raises its nice value by this much (capped at
// 19) instead: nice 10 weighs 110 against nice 0's 1024, about a tenth of a contended core.
inline constexpr int kAnalysisFallbackNiceIncrement = 10;

class AnalysisPool {
 public:
  AnalysisPool(int threads, int queue_limit);
  ~AnalysisPool();  // stop()
  AnalysisPool(const AnalysisPool&) = delete;
  AnalysisPool& operator=(const AnalysisPool&) = delete;

  // Runs `work` on a pool thread, then `finish` on `loop`'s thread. False (and neither
  // runs) when `queue_limit` analyses are already waiting, or the pool has stopped.
  // `work` must not throw.
  bool submit(std::function<void()> work, boost::asio::io_context& loop,
              std::function<void()> finish);
  // Refuses new work, drops the analyses still waiting (their `finish` never runs: call it
  // when the event loops have stopped), waits for the running ones and joins the threads.
  // Idempotent.
  void stop();

  int threads() const { return static_cast<int>(threads_.size()); }
  int queue_limit() const { return queue_limit_; }

 private:
  void run();

  const int queue_limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> waiting_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace toolcalc::api
