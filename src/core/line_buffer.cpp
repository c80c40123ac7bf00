#include "core/line_buffer.hpp"

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace toolcalc {

LineBuffer::LineBuffer(Writer writer, Options options)
    : writer_(std::move(writer)), options_(options) {
  // A line that arrives when the buffer is nearly full still fits without a reallocation.
  buffer_.reserve(options_.capacity + 4096);
  spare_.reserve(options_.capacity + 4096);
}

LineBuffer::~LineBuffer() {
  stop();
}

void LineBuffer::append(std::string_view lines) {
  std::unique_lock lock(mutex_);
  buffer_.append(lines);
  if (buffer_.size() < options_.capacity && options_.flush_interval.count() > 0 &&
      !stopped_.load(std::memory_order_relaxed))
    return;
  // Taken before the buffer is released, so batches are written in the order they filled.
  const std::lock_guard write(write_mutex_);
  spare_.swap(buffer_);
  lock.unlock();
  write_batch(spare_);
}

void LineBuffer::flush() {
  std::unique_lock lock(mutex_);
  if (buffer_.empty()) return;
  const std::lock_guard write(write_mutex_);
  spare_.swap(buffer_);
  lock.unlock();
  write_batch(spare_);
}

void LineBuffer::write_batch(std::string& batch) {
  writer_(batch);
  batch.clear();  // keeps its capacity for the next swap
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

LineBuffer::Writer write_to_fd(int fd) {
  return [fd](std::string_view text) {
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  };
}

}  // namespace toolcalc
