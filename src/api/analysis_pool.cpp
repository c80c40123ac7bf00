#include "api/analysis_pool.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <cerrno>

namespace toolcalc::api {
namespace {

// sched_setscheduler(0, …) changes the calling thread alone; moving to SCHED_IDLE needs no
// privilege (sched(7)). Where it is refused (a seccomp profile, another kernel), the thread
// raises its nice value instead (setpriority on a thread id also changes that thread
// alone); if that fails too, it keeps the process's priority and the analyses still run.
void lower_own_priority() {
  sched_param none{};
  if (::sched_setscheduler(0, SCHED_IDLE, &none) == 0) return;
  const pid_t tid = ::gettid();
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  if (current == -1 && errno != 0) return;
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(tid),
                std::min(current + kAnalysisFallbackNiceIncrement, 19));
}

}  // namespace

AnalysisPool::AnalysisPool(int threads, int queue_limit) : queue_limit_(queue_limit) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

AnalysisPool::~AnalysisPool() {
  stop();
}

bool AnalysisPool::submit(std::function<void()> work, boost::asio::io_context& loop,
                          std::function<void()> finish) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || static_cast<int>(waiting_.size()) >= queue_limit_) return false;
    // Posting from another thread is what the I/O threads' schedulers keep their lock for
    // (http/worker.hpp).
    waiting_.push_back([work = std::move(work), &loop, finish = std::move(finish)]() mutable {
      work();
      boost::asio::post(loop, std::move(finish));
    });
  }
  wake_.notify_one();
  return true;
}

void AnalysisPool::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    waiting_.clear();
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void AnalysisPool::run() {
  lower_own_priority();
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      if (stopping_) return;
      job = std::move(waiting_.front());
      waiting_.pop_front();
    }
    job();
  }
}

}  // namespace toolcalc::api
