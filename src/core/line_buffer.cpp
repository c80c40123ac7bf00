#include "core/line_buffer.hpp"

#include <utility>

namespace toolcalc {

LineBuffer::LineBuffer(Writer writer, Options options)
    : writer_(std::move(writer)), options_(options) {}

LineBuffer::~LineBuffer() {
  stop();
}

LineBuffer::Shard& LineBuffer::this_threads_shard() {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t slot = next.fetch_add(1, std::memory_order_relaxed) % kShards;
  return shards_[slot];
}

void LineBuffer::append(std::string_view lines) {
  Shard& shard = this_threads_shard();
  std::unique_lock lock(shard.mutex);
  if (shard.buffer.capacity() == 0)  // a line that comes when it is nearly full still fits
    shard.buffer.reserve(options_.capacity + 4096);
  shard.buffer.append(lines);
  if (shard.buffer.size() < options_.capacity && options_.flush_interval.count() > 0 &&
      !stopped_.load(std::memory_order_relaxed))
    return;
  write_out(shard, lock);
}

void LineBuffer::flush() {
  for (Shard& shard : shards_) {
    std::unique_lock lock(shard.mutex);
    if (!shard.buffer.empty()) write_out(shard, lock);
  }
}

void LineBuffer::write_out(Shard& shard, std::unique_lock<std::mutex>& lock) {
  // Taken before the shard is released, so a shard's batches go out in the order they
  // filled.
  const std::lock_guard write(write_mutex_);
  spare_.swap(shard.buffer);  // the shard keeps appending into the spare's capacity
  lock.unlock();
  writer_(spare_);
  spare_.clear();
}

void LineBuffer::start() {
  const std::lock_guard lock(stop_mutex_);
  if (flusher_.joinable() || stopping_ || options_.flush_interval.count() <= 0) return;
  flusher_ = std::thread([this] { flush_loop(); });
}

void LineBuffer::flush_loop() {
  std::unique_lock lock(stop_mutex_);
  while (!stopping_) {
    stop_cv_.wait_for(lock, options_.flush_interval, [this] { return stopping_; });
    lock.unlock();
    flush();
    lock.lock();
  }
}

void LineBuffer::stop() {
  {
    const std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stopped_.store(true, std::memory_order_relaxed);  // from now on a line is written at once
  stop_cv_.notify_all();
  if (flusher_.joinable()) flusher_.join();
  flush();
}

}  // namespace toolcalc
