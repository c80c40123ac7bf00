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
