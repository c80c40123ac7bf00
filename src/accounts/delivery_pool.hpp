#pragma once
// The threads that deliver quota alerts (quota_alerts.hpp), apart from the thread that
// detects them: a delivery can take its whole timeout (a receiver that accepts and never
// answers), and it must delay neither the detection of other keys' thresholds nor their
// deliveries. At most `per_receiver` deliveries to one receiver (host and port) run at
// once and as many wait behind them; the rest of the threads stay free for the others.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace toolcalc::accounts {

class DeliveryPool {
 public:
  using Job = std::function<void()>;

  DeliveryPool(size_t threads, size_t per_receiver);
  ~DeliveryPool();  // stop()
  DeliveryPool(const DeliveryPool&) = delete;
  DeliveryPool& operator=(const DeliveryPool&) = delete;

  // How many more jobs the pool takes now: two per thread, less those queued or running.
  size_t room() const;
  // Queues `job` for `receiver`; false (and not queued) when the pool is full or the
  // receiver already has `per_receiver` jobs running and as many waiting.
  bool submit(const std::string& receiver, Job job);
  // Returns once no job is queued or running.
  void wait_idle();
  // Drops the jobs not started and waits for the running ones. Idempotent.
  void stop();

 private:
  struct Queued {
    std::string receiver;
    Job job;
  };
  void work();
  // The first queued job whose receiver has room; end() when none.
  std::deque<Queued>::iterator runnable();

  const size_t per_receiver_;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Queued> queue_;
  std::map<std::string, size_t> running_, pending_;  // per receiver; pending: queued + running
  size_t total_ = 0;                                 // queued + running
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace toolcalc::accounts
