#pragma once
// Whole log lines to a file descriptor, never torn (docs/reliability.md, "Logs").
//
// Each call writes one line, or a batch of whole lines, with one write(2) while holding
// a lock that every LineWriter of the process shares: the access log (stdout) and the
// operational log (stderr), which an operator may point at the same file, never
// interleave. When a batch cannot be written whole (the file system is full, the quota is
// reached, an I/O error), the lines of it that did reach a regular file whole stay, and
// the rest are dropped whole: the bytes of a line cut short are cut off again
// (ftruncate), so the file only ever holds whole lines. Dropped lines are counted
// (toolcalc_log_lines_dropped_total, core/service_metrics.hpp; dropped() per writer), and
// the first write that succeeds after a run of drops is followed by one operational
// message saying how many were dropped.
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolcalc {

class LineWriter {
 public:
  // `name` says which log it is in the resume message ("access log", "operational log").
  LineWriter(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;

  // `lines`: one or more whole lines, each ending in '\n'. True when all were written;
  // false when some were dropped (the file holds the others whole, in order, and nothing
  // of the dropped ones).
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
