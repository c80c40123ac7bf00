#include "accounts/delivery_pool.hpp"

#include <algorithm>

namespace toolcalc::accounts {

DeliveryPool::DeliveryPool(size_t threads, size_t per_receiver)
    : per_receiver_(std::max<size_t>(per_receiver, 1)),
      capacity_(2 * std::max<size_t>(threads, 1)) {
  for (size_t i = 0; i < std::max<size_t>(threads, 1); ++i)
    threads_.emplace_back([this] { work(); });
}

DeliveryPool::~DeliveryPool() {
  stop();
}

size_t DeliveryPool::room() const {
  std::lock_guard lock(mu_);
  return stopping_ ? 0 : capacity_ - total_;
}

bool DeliveryPool::submit(const std::string& receiver, Job job) {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || total_ >= capacity_) return false;
    size_t& pending = pending_[receiver];
    if (pending >= 2 * per_receiver_) return false;
    ++pending;
    ++total_;
    queue_.push_back({receiver, std::move(job)});
  }
  changed_.notify_all();
  return true;
}

void DeliveryPool::wait_idle() {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [this] { return total_ == 0; });
}

void DeliveryPool::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    for (const Queued& q : queue_)
      if (--pending_[q.receiver] == 0) pending_.erase(q.receiver);
    total_ -= queue_.size();
    queue_.clear();
  }
  changed_.notify_all();
  for (auto& t : threads_) t.join();
}

std::deque<DeliveryPool::Queued>::iterator DeliveryPool::runnable() {
  return std::find_if(queue_.begin(), queue_.end(), [this](const Queued& q) {
    const auto it = running_.find(q.receiver);
    return it == running_.end() || it->second < per_receiver_;
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
    lock.unlock();
    q.job();
    lock.lock();
    if (--running_[q.receiver] == 0) running_.erase(q.receiver);
    if (--pending_[q.receiver] == 0) pending_.erase(q.receiver);
    --total_;
    changed_.notify_all();
  }
}

}  // namespace toolcalc::accounts
