#include "accounts/delivery_pool.hpp"

#include <algorithm>

namespace toolcalc::accounts {

DeliveryPool::DeliveryPool(size_t threads, size_t per_receiver)
    : threads_count_(std::max<size_t>(threads, 1)),
      per_receiver_(std::clamp<size_t>(per_receiver, 1, std::max<size_t>(threads_count_ - 1, 1))),
      capacity_(2 * threads_count_) {
  for (size_t i = 0; i < threads_count_; ++i) threads_.emplace_back([this] { work(); });
}

DeliveryPool::~DeliveryPool() {
  stop();
}

size_t DeliveryPool::counted() const {
  size_t n = 0;
  for (const auto& [receiver, pending] : pending_)
    if (pending < 2 * per_receiver_) n += pending;
  return n;
}

size_t DeliveryPool::room() const {
  std::lock_guard lock(mu_);
  const size_t used = counted();
  return stopping_ || used >= capacity_ ? 0 : capacity_ - used;
}

bool DeliveryPool::submit(const std::string& receiver, Job job) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return false;
    const auto it = pending_.find(receiver);
    if (it != pending_.end() && it->second >= 2 * per_receiver_) return false;
    if (counted() >= capacity_) return false;
    ++pending_[receiver];
    queue_.push_back({receiver, std::move(job)});
  }
  changed_.notify_all();
  return true;
}

void DeliveryPool::wait_idle() {
  std::unique_lock lock(mu_);
  // No receiver has a job queued or running.
  changed_.wait(lock, [this] { return pending_.empty(); });
}

void DeliveryPool::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    for (const Queued& q : queue_)
      if (--pending_[q.receiver] == 0) pending_.erase(q.receiver);
    queue_.clear();
  }
  changed_.notify_all();
  for (auto& t : threads_) t.join();
}

std::deque<DeliveryPool::Queued>::iterator DeliveryPool::runnable() {
  if (running_total_ >= threads_count_) return queue_.end();
  const bool last_thread = running_total_ + 1 == threads_count_;
  return std::find_if(queue_.begin(), queue_.end(), [&](const Queued& q) {
    const auto it = running_.find(q.receiver);
    if (it == running_.end()) return true;
    return !last_thread && it->second < per_receiver_;
  });
}

void DeliveryPool::work() {
  std::unique_lock lock(mu_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || runnable() != queue_.end(); });
    if (stopping_) return;
    const auto it = runnable();
    Queued q = std::move(*it);
    queue_.erase(it);
    ++running_[q.receiver];
    ++running_total_;
    lock.unlock();
    q.job();
    lock.lock();
    if (--running_[q.receiver] == 0) running_.erase(q.receiver);
    --running_total_;
    if (--pending_[q.receiver] == 0) pending_.erase(q.receiver);
    changed_.notify_all();
  }
}

}  // namespace toolcalc::accounts
