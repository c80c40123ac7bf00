#include "core/line_writer.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>

#include "core/service_metrics.hpp"

using toolcalc::LineWriter;
using toolcalc::metrics::log_lines_dropped;

namespace {

std::string contents(int fd) {
  std::string out(static_cast<size_t>(::lseek(fd, 0, SEEK_END)), '\0');
  if (::pread(fd, out.data(), out.size(), 0) != static_cast<ssize_t>(out.size())) return "?";
  return out;
}

// Makes fd 2 a temporary file for the life of the object (the resume message goes there).
class CapturedStderr {
 public:
  CapturedStderr() : file_(std::tmpfile()), saved_(::dup(STDERR_FILENO)) {
    ::dup2(::fileno(file_), STDERR_FILENO);
  }
  ~CapturedStderr() {
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    std::fclose(file_);
  }
  std::string text() const { return contents(::fileno(file_)); }

 private:
  std::FILE* file_;
  int saved_;
};

}  // namespace

TEST(LineWriter, WritesWholeLines) {
  std::FILE* f = std::tmpfile();
  LineWriter w(::fileno(f), "test log");
  EXPECT_TRUE(w.write("one\n"));
  EXPECT_TRUE(w.write("two\nthree\n"));
  EXPECT_EQ(contents(::fileno(f)), "one\ntwo\nthree\n");
  EXPECT_EQ(w.dropped(), 0u);
  std::fclose(f);
}

TEST(LineWriter, ALineThatCannotBeWrittenIsDroppedAndCounted) {
  const int full = ::open("/dev/full", O_WRONLY);  // every write: ENOSPC
  ASSERT_GE(full, 0);
  const uint64_t before = log_lines_dropped.value();
  LineWriter w(full, "test log");
  EXPECT_FALSE(w.write("a\nb\n"));
  EXPECT_FALSE(w.write("c\n"));
  EXPECT_EQ(w.dropped(), 3u);
  EXPECT_EQ(log_lines_dropped.value() - before, 3u);
  ::close(full);
}

// A line cut short by the file's size limit (as by a full disk: part of it fits) is taken
// back off the file; once lines fit again, one message says how many were dropped.
TEST(LineWriter, APartlyWrittenLineIsCutBackAndTheResumeIsReported) {
  std::FILE* f = std::tmpfile();
  const int fd = ::fileno(f);
  LineWriter w(fd, "test log");
  ASSERT_TRUE(w.write("first whole line\n"));
  CapturedStderr err;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit small = saved;
  small.rlim_cur = 17 + 10;  // room for 10 more bytes
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string long_line(40, 'x');
  const bool written = w.write(long_line + "\n");
  const bool second = w.write(long_line + "\n");
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_FALSE(written);
  EXPECT_FALSE(second);
  EXPECT_EQ(contents(fd), "first whole line\n");  // the 10 bytes that fitted are gone
  EXPECT_EQ(w.dropped(), 2u);
  EXPECT_TRUE(w.write("next\n"));
  EXPECT_EQ(contents(fd), "first whole line\nnext\n");
  const std::string message = err.text();
  EXPECT_NE(message.find(R"("msg":"log lines were dropped while the log could not be written")"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(R"("log":"test log","dropped_lines":"2")"), std::string::npos) << message;
  EXPECT_TRUE(w.write("more\n"));
  EXPECT_EQ(err.text(), message);  // reported once
  std::fclose(f);
}

// A batch of lines of which only some fit: those that reached the file whole stay, the
// one cut short is cut off again, it and the rest are counted as dropped.
TEST(LineWriter, ABatchKeepsItsWholeLinesAndDropsTheRest) {
  std::FILE* f = std::tmpfile();
  const int fd = ::fileno(f);
  LineWriter w(fd, "test log");
  CapturedStderr err;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit small = saved;
  small.rlim_cur = 12;  // "aaaa\nbbbb\n" (10 bytes) and 2 bytes of the third line
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const uint64_t before = log_lines_dropped.value();
  const bool written = w.write("aaaa\nbbbb\ncccc\ndddd\n");
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_FALSE(written);
  EXPECT_EQ(contents(fd), "aaaa\nbbbb\n");
  EXPECT_EQ(w.dropped(), 2u);
  EXPECT_EQ(log_lines_dropped.value() - before, 2u);
  EXPECT_TRUE(w.write("eeee\n"));
  EXPECT_EQ(contents(fd), "aaaa\nbbbb\neeee\n");
  EXPECT_NE(err.text().find(R"("dropped_lines":"2")"), std::string::npos) << err.text();
  std::fclose(f);
}
