#pragma once
// The threads that deliver quota alerts (quota_alerts.hpp), apart from the thread that
// detects them: a delivery can take its whole timeout (a receiver that accepts and never
// answers), and it must delay neither the detection of other keys' thresholds nor their
// deliveries. At most `per_receiver` deliveries to one receiver (host and port) run at
// once (and never all the threads) and as many wait behind them. The last free thread only
// goes to a receiver with nothing running: however many receivers hang, a receiver not
// running anything gets a thread within one delivery's time at most. The jobs of a
// receiver that has all it may have (running and waiting) do not take the room of others.
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

  // How many more jobs the pool takes now: two per thread, less those queued or running
  // for receivers that can take more (a full receiver's jobs wait apart).
  size_t room() const;
  // Queues `job` for `receiver`; false (and not queued) when the pool is full or the
  // receiver already has its share running (per_receiver, at most threads − 1) and as
  // many waiting.
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
  // The first queued job that may start now; end() when none.
  std::deque<Queued>::iterator runnable();
  // Queued and running jobs of the receivers that can take more (mu_ held).
  size_t counted() const;

  const size_t threads_count_;
  const size_t per_receiver_;  // running at once, per receiver
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Queued> queue_;
  std::map<std::string, size_t> running_, pending_;  // per receiver; pending: queued + running
  size_t running_total_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace toolcalc::accounts
