#pragma once
// Whole log lines to a file descriptor, never torn (docs/reliability.md, "Logs").
//
// Each call writes one line, or a batch of whole lines, with one write(2) while holding
// a lock that every LineWriter of the process shares: the access log (stdout) and the
// operational log (stderr), which an operator may point at the same file, never
// interleave. When a line cannot be written whole (the file system is full, the quota is
// reached, an I/O error), it is dropped whole: the bytes of it that did reach a regular
// file are cut off again (ftruncate), so the file only ever holds whole lines. Dropped
// lines are counted (log_lines_dropped for the metrics, dropped() per writer), and the
// first line written after a run of drops is followed by one operational message saying
// how many were dropped.
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolcalc {

// Lines dropped by every LineWriter of the process since it started.
inline std::atomic<uint64_t> log_lines_dropped{0};

class LineWriter {
 public:
  // `name` says which log it is in the resume message ("access log", "operational log").
  LineWriter(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;

  // `lines`: one or more whole lines, each ending in '\n'. True when all were written;
  // false when they were dropped (nothing of them is left in the file).
  bool write(std::string_view lines);

  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  int fd_;
  std::string name_;
  std::atomic<uint64_t> dropped_{0};
  uint64_t dropped_unreported_ = 0;  // since the last line written; under the shared lock
};

// The process's standard streams as line writers (the access log writes to the first,
// the operational log to the second).
LineWriter& stdout_lines();
LineWriter& stderr_lines();

}  // namespace toolcalc
