#include "core/line_buffer.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using toolcalc::LineBuffer;
using namespace std::chrono_literals;

namespace {

// A writer that keeps every batch it is given.
struct Batches {
  std::mutex mutex;
  std::vector<std::string> batches;
  LineBuffer::Writer writer() {
    return [this](std::string_view text) {
      const std::lock_guard lock(mutex);
      batches.emplace_back(text);
    };
  }
  std::string all() {
    const std::lock_guard lock(mutex);
    std::string out;
    for (const auto& b : batches) out += b;
    return out;
  }
  size_t count() {
    const std::lock_guard lock(mutex);
    return batches.size();
  }
};

}  // namespace

TEST(LineBuffer, KeepsLinesUntilTheBatchIsFullThenWritesThemInOrder) {
  Batches out;
  LineBuffer lines(out.writer(), {30, 10s});
  lines.append("first line\n");   // 11
  lines.append("second line\n");  // 23
  EXPECT_EQ(out.count(), 0u);
  lines.append("third line\n");  // 34 >= 30: the batch goes out whole
  ASSERT_EQ(out.count(), 1u);
  EXPECT_EQ(out.batches[0], "first line\nsecond line\nthird line\n");
  lines.append("fourth\n");
  EXPECT_EQ(out.count(), 1u);
  lines.flush();
  ASSERT_EQ(out.count(), 2u);
  EXPECT_EQ(out.batches[1], "fourth\n");
  lines.flush();  // nothing buffered: no empty write
  EXPECT_EQ(out.count(), 2u);
}

TEST(LineBuffer, ZeroIntervalWritesEveryLineAtOnce) {
  Batches out;
  LineBuffer lines(out.writer(), {64 * 1024, 0ms});
  lines.start();  // no thread to start
  lines.append("a\n");
  lines.append("b\n");
  EXPECT_EQ(out.all(), "a\nb\n");
  EXPECT_EQ(out.count(), 2u);
}

TEST(LineBuffer, TheIntervalFlushWritesALineWithinTheInterval) {
  Batches out;
  LineBuffer lines(out.writer(), {64 * 1024, 50ms});
  lines.start();
  const auto appended = std::chrono::steady_clock::now();
  lines.append("waits at most 50 ms\n");
  while (out.count() == 0 && std::chrono::steady_clock::now() - appended < 5s)
    std::this_thread::sleep_for(1ms);
  const auto waited = std::chrono::steady_clock::now() - appended;
  EXPECT_EQ(out.all(), "waits at most 50 ms\n");
  // The interval, plus scheduling slack on a shared machine.
  EXPECT_LT(waited, 1s);
  lines.stop();
}

TEST(LineBuffer, StopWritesWhatIsLeftAndLaterLinesAtOnce) {
  Batches out;
  LineBuffer lines(out.writer(), {64 * 1024, 10s});
  lines.start();
  lines.append("kept until stop\n");
  EXPECT_EQ(out.count(), 0u);
  const auto before = std::chrono::steady_clock::now();
  lines.stop();  // wakes the flush thread: does not wait out the interval
  EXPECT_LT(std::chrono::steady_clock::now() - before, 5s);
  EXPECT_EQ(out.all(), "kept until stop\n");
  lines.append("after stop\n");
  EXPECT_EQ(out.all(), "kept until stop\nafter stop\n");
  lines.stop();  // idempotent
}

TEST(LineBuffer, LinesFromManyThreadsArriveWholeAndInEachThreadsOrder) {
  Batches out;
  constexpr int kThreads = 4;
  constexpr int kLines = 20'000;
  {
    LineBuffer lines(out.writer(), {4096, 5ms});
    lines.start();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&lines, t] {
        for (int i = 0; i < kLines; ++i)
          lines.append("thread " + std::to_string(t) + " line " + std::to_string(i) + "\n");
      });
    for (auto& th : threads) th.join();
  }  // the destructor stops and writes the rest
  std::vector<int> next(kThreads, 0);
  for (const auto& batch : out.batches) {
    ASSERT_FALSE(batch.empty());
    ASSERT_EQ(batch.back(), '\n') << "a batch ends inside a line";
  }
  const std::string text = out.all();
  size_t at = 0;
  int total = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    ASSERT_NE(nl, std::string::npos);
    const std::string line = text.substr(at, nl - at);
    int t = -1, i = -1;
    ASSERT_EQ(std::sscanf(line.c_str(), "thread %d line %d", &t, &i), 2) << line;
    ASSERT_TRUE(t >= 0 && t < kThreads) << line;
    EXPECT_EQ(i, next[t]) << "thread " << t << " out of order";
    next[t] = i + 1;
    ++total;
    at = nl + 1;
  }
  EXPECT_EQ(total, kThreads * kLines);
}
