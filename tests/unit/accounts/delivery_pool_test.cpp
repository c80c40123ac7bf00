// The webhook delivery threads (accounts/delivery_pool.hpp): a receiver gets at most its
// share of them while the others' jobs run beside; a full receiver's next job is turned
// away rather than queued without bound.
#include "accounts/delivery_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace toolcalc::accounts;

namespace {

// Jobs that block until released, counting how many run at once.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  int running = 0, most = 0, done = 0;
  DeliveryPool::Job job() {
    return [this] {
      std::unique_lock lock(mu);
      most = std::max(most, ++running);
      cv.notify_all();
      cv.wait(lock, [this] { return open; });
      --running;
      ++done;
    };
  }
  bool wait_running(int n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(10), [&] { return running >= n; });
  }
  void release() {
    std::lock_guard lock(mu);
    open = true;
    cv.notify_all();
  }
};

}  // namespace

TEST(DeliveryPool, AReceiverGetsItsShareAndTheOthersRunBeside) {
  DeliveryPool pool(4, 2);
  Gate hole;
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(pool.submit("hole|80", hole.job()));
  EXPECT_FALSE(pool.submit("hole|80", hole.job())) << "two running and two waiting at most";
  ASSERT_TRUE(hole.wait_running(2));

  std::atomic<int> others{0};
  EXPECT_TRUE(pool.submit("a|443", [&] { ++others; }));
  EXPECT_TRUE(pool.submit("b|443", [&] { ++others; }));
  const auto t0 = std::chrono::steady_clock::now();
  while (others < 2 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(others, 2) << "other receivers are served while one holds its deliveries";
  {
    std::lock_guard lock(hole.mu);
    EXPECT_EQ(hole.running, 2);
  }
  hole.release();
  pool.wait_idle();
  EXPECT_EQ(hole.most, 2);
  EXPECT_EQ(hole.done, 4);
  EXPECT_EQ(pool.room(), 8u);
}

TEST(DeliveryPool, FullPoolRefusesAndStopDropsWhatWaits) {
  DeliveryPool pool(1, 4);
  Gate gate;
  EXPECT_TRUE(pool.submit("a|1", gate.job()));
  ASSERT_TRUE(gate.wait_running(1));
  EXPECT_TRUE(pool.submit("b|1", gate.job()));
  EXPECT_EQ(pool.room(), 0u);
  EXPECT_FALSE(pool.submit("c|1", gate.job()));
  gate.release();
  pool.stop();  // the waiting job may or may not have started; none runs after stop
  EXPECT_FALSE(pool.submit("c|1", gate.job()));
  EXPECT_GE(gate.done, 1);
}
