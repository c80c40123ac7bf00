#pragma once
// The threads that run tolerance analyses and solves off the I/O threads (docs/api.md,
// "Analyses"): an analysis of 100,000 samples takes tens of milliseconds to seconds, which
// would stall every other connection of an I/O thread's event loop. A request's analysis
// runs here and its answer is finished back on the event loop that read it
// (core/event_loop.hpp), which meanwhile serves its other connections.
//
// Fair between keys: each analysis belongs to an owner (the caller's key), and a free
// thread takes the oldest waiting analysis of the owner that has the fewest running, the
// owners with as many taking turns (round robin). A key that floods the pool waits behind
// its own analyses; another key's analysis waits only for the next thread to come free.
//
// Bounded: one owner has at most `per_owner_limit` analyses waiting or running (one more is
// refused: the API answers 429 TOO_MANY_ANALYSES), and at most `queue_limit` wait over all
// owners (one more: 503 SERVER_BUSY), so a flood of analyses costs memory for a fixed
// number of them, never more.
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
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
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
  AnalysisPool(int threads, int queue_limit, int per_owner_limit);
  ~AnalysisPool();  // stop()
  AnalysisPool(const AnalysisPool&) = delete;
  AnalysisPool& operator=(const AnalysisPool&) = delete;

  enum class Admission {
    Accepted,
    OwnerAtLimit,  // the owner has per_owner_limit analyses waiting or running
    Full,          // queue_limit analyses wait
    Stopped,
  };
  // Runs `work` on a pool thread, then `finish` on `loop`'s thread; anything but Accepted:
  // neither runs. `work` must not throw.
  Admission submit(std::string_view owner, std::function<void()> work,
                   boost::asio::io_context& loop, std::function<void()> finish);
  // Refuses new work, drops the analyses still waiting (their `finish` never runs: call it
  // when the event loops have stopped), waits for the running ones and joins the threads.
  // Idempotent.
  void stop();

  int threads() const { return static_cast<int>(threads_.size()); }
  int queue_limit() const { return queue_limit_; }
  int per_owner_limit() const { return per_owner_limit_; }

 private:
  struct Owner {
    std::string name;
    std::deque<std::function<void()>> waiting;
    int running = 0;
  };
  void run();
  // The owner whose oldest analysis runs next (see the header comment); `ready_` not empty.
  std::list<Owner*>::iterator next_owner();

  const int queue_limit_;
  const int per_owner_limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  // Owners with an analysis waiting or running (node-based: an Owner never moves).
  std::unordered_map<std::string, Owner> owners_;
  // Owners with an analysis waiting, in turn order: one served goes to the back.
  std::list<Owner*> ready_;
  int waiting_ = 0;  // over all owners
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace toolcalc::api
