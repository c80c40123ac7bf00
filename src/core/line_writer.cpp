#include "core/line_writer.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <string>
#include <utility>

#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc {
namespace {

// One lock for every writer: two descriptors may share one open file (`>log 2>&1`).
std::mutex& write_lock() {
  static std::mutex m;
  return m;
}

bool is_regular_file(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

// Removes the last `n` bytes written to the regular file `fd` (a line cut short by a full
// disk): the file ends again after the last whole line.
void cut_back(int fd, size_t n) {
  const off_t end = ::lseek(fd, 0, SEEK_CUR);
  if (end < static_cast<off_t>(n)) return;
  const off_t whole = end - static_cast<off_t>(n);
  if (::ftruncate(fd, whole) == 0) ::lseek(fd, whole, SEEK_SET);  // O_APPEND ignores the offset
}

// Writes `data` (whole lines) and returns how many of its bytes stay written: all of
// them, or on a failure the lines that reached the file whole, a line cut short being
// cut off again in a regular file. A pipe or terminal that takes part of a line gets the
// rest (it cannot be taken back); one that would block (a non-blocking descriptor) is
// waited for.
size_t write_lines(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, 1000) > 0) continue;
    }
    break;
  }
  if (done == data.size() || done == 0) return done;
  const size_t last_newline = data.substr(0, done).rfind('\n');
  const size_t whole = last_newline == std::string_view::npos ? 0 : last_newline + 1;
  if (whole < done) {
    if (!is_regular_file(fd)) return done;  // the line's rest cannot follow; nothing to undo
    cut_back(fd, done - whole);
  }
  return whole;
}

}  // namespace

bool LineWriter::write(std::string_view lines) {
  uint64_t resumed_after = 0;
  {
    std::lock_guard lock(write_lock());
    const size_t written = write_lines(fd_, lines);
    if (written < lines.size()) {
      const std::string_view lost = lines.substr(written);
      const auto n = static_cast<uint64_t>(std::count(lost.begin(), lost.end(), '\n'));
      dropped_.fetch_add(n, std::memory_order_relaxed);
      metrics::log_lines_dropped.inc(n);
      dropped_unreported_ += n;
      return false;
    }
    std::swap(resumed_after, dropped_unreported_);
  }
  if (resumed_after > 0 &&
      !log::write(log::Level::Warn, "log lines were dropped while the log could not be written",
                  {{"log", name_}, {"dropped_lines", std::to_string(resumed_after)}})) {
    // The message itself was dropped (the disk filled again): the next write says it.
    std::lock_guard lock(write_lock());
    dropped_unreported_ += resumed_after;
  }
  return true;
}

LineWriter& stdout_lines() {
  static LineWriter w(STDOUT_FILENO, "access log");
  return w;
}

LineWriter& stderr_lines() {
  static LineWriter w(STDERR_FILENO, "operational log");
  return w;
}

}  // namespace toolcalc
