#pragma once
// Whole log lines gathered in memory and written in batches, as nginx's
// `access_log … buffer=size flush=time` does: a line costs a copy instead of a write(2),
// and the batch goes out when the buffer is full, when the oldest line in it has waited
// `flush_interval` (a background thread), and on flush()/stop(). What a batch is written
// with is one function, the `Writer`, called with whole lines only and never from two
// threads at once: where a line may go (a file, a pipe, a full disk) is its business.
//
//   LineBuffer lines([](std::string_view l) { stdout_lines().write(l); },  // line_writer.hpp
//                    {64 * 1024, std::chrono::milliseconds(1000)});
//   lines.start();          // the interval flush
//   lines.append(line);     // "…\n", from any thread
//   lines.stop();           // writes what is left: no line lost on an orderly stop
//
// A crash (SIGKILL) loses what was appended in the last `flush_interval` at most.
//
// Each thread appends to one of a few buffers of its own (as each nginx worker has its
// own): threads do not contend for one lock and one cache line per line. A thread's lines
// are written in the order it appended them; lines of different threads may reach the
// output out of time order by up to a flush interval (each line carries its time).
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace toolcalc {

class LineBuffer {
 public:
  using Writer = std::function<void(std::string_view whole_lines)>;
  struct Options {
    std::size_t capacity = 64 * 1024;  // a batch is written once it would pass this
    // The longest a line waits in memory; zero writes every line at once (no buffering).
    std::chrono::milliseconds flush_interval{1000};
  };

  LineBuffer(Writer writer, Options options);
  ~LineBuffer();  // stop()
  LineBuffer(const LineBuffer&) = delete;
  LineBuffer& operator=(const LineBuffer&) = delete;

  // One or more whole lines, each ending in '\n'. Thread-safe. Writes the batch (on the
  // calling thread) when it is full.
  void append(std::string_view lines);
  // Writes what is buffered now.
  void flush();
  // The background flush every flush_interval; again does nothing.
  void start();
  // Ends the background flush and writes what is left. Idempotent.
  void stop();

  const Options& options() const { return options_; }

 private:
  // One thread's buffer (threads share one when there are more threads than shards).
  struct alignas(64) Shard {
    std::mutex mutex;
    std::string buffer;
  };
  static constexpr std::size_t kShards = 8;

  Shard& this_threads_shard();
  // Writes `shard`'s lines; `lock` holds its mutex and is released once the lines are out
  // of it (the write itself runs without it, under write_mutex_).
  void write_out(Shard& shard, std::unique_lock<std::mutex>& lock);
  void flush_loop();

  Writer writer_;
  Options options_;
  std::array<Shard, kShards> shards_;
  std::mutex write_mutex_;  // writer_ and spare_: one batch at a time
  std::string spare_;       // the batch being written; its capacity is reused
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::atomic<bool> stopped_{false};
  std::thread flusher_;
};

}  // namespace toolcalc
