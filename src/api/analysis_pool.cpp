#include "api/analysis_pool.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <cerrno>
#include <iterator>

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

AnalysisPool::AnalysisPool(int threads, int queue_limit, int per_owner_limit)
    : queue_limit_(queue_limit), per_owner_limit_(per_owner_limit) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

AnalysisPool::~AnalysisPool() {
  stop();
}

AnalysisPool::Admission AnalysisPool::submit(std::string_view owner, std::function<void()> work,
                                             boost::asio::io_context& loop,
                                             std::function<void()> finish) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return Admission::Stopped;
    auto [entry, added] = owners_.try_emplace(std::string(owner));
    Owner& o = entry->second;
    if (added) o.name = entry->first;
    const Admission refusal = o.running + static_cast<int>(o.waiting.size()) >= per_owner_limit_
                                  ? Admission::OwnerAtLimit
                              : waiting_ >= queue_limit_ ? Admission::Full
                                                         : Admission::Accepted;
    if (refusal != Admission::Accepted) {
      if (added) owners_.erase(entry);
      return refusal;
    }
    if (o.waiting.empty()) ready_.push_back(&o);
    // Posting from another thread is what the I/O threads' schedulers keep their lock for
    // (http/worker.hpp).
    o.waiting.push_back([work = std::move(work), &loop, finish = std::move(finish)]() mutable {
      work();
      boost::asio::post(loop, std::move(finish));
    });
    ++waiting_;
  }
  wake_.notify_one();
  return Admission::Accepted;
}

void AnalysisPool::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    for (Owner* o : ready_) o->waiting.clear();
    ready_.clear();
    waiting_ = 0;
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

std::list<AnalysisPool::Owner*>::iterator AnalysisPool::next_owner() {
  auto best = ready_.begin();
  for (auto it = std::next(best); it != ready_.end(); ++it)
    if ((*it)->running < (*best)->running) best = it;
  return best;
}

void AnalysisPool::run() {
  lower_own_priority();
  for (;;) {
    std::function<void()> job;
    Owner* owner = nullptr;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
      if (stopping_) return;
      const auto turn = next_owner();
      owner = *turn;
      ready_.erase(turn);
      job = std::move(owner->waiting.front());
      owner->waiting.pop_front();
      --waiting_;
      ++owner->running;
      if (!owner->waiting.empty()) ready_.push_back(owner);
    }
    job();
    std::lock_guard lock(mutex_);
    if (--owner->running == 0 && owner->waiting.empty()) owners_.erase(owners_.find(owner->name));
  }
}

}  // namespace toolcalc::api
