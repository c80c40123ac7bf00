// The webhook delivery threads (accounts/delivery_pool.hpp): a receiver gets at most its
// share of them while the others' jobs run beside; a full receiver's next job is turned
// away rather than queued without bound.
#include "accounts/delivery_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
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

namespace {

// `holes` receivers that never answer each submit all the jobs the pool takes from them
// (each job blocks for `hang`, a delivery's timeout); then another receiver's job must run.
// Returns how long that job waited, or nullopt when it was refused or never ran in `bound`.
std::optional<std::chrono::milliseconds> other_waits_behind(int holes,
                                                            std::chrono::milliseconds hang,
                                                            std::chrono::seconds bound) {
  DeliveryPool pool(4, 2);
  for (int h = 0; h < holes; ++h) {
    const std::string receiver = "hole" + std::to_string(h) + "|80";
    while (pool.submit(receiver, [hang] { std::this_thread::sleep_for(hang); })) {
    }
  }
  std::atomic<bool> ran{false};
  const auto t0 = std::chrono::steady_clock::now();
  if (pool.room() == 0 || !pool.submit("other|443", [&] { ran = true; })) return std::nullopt;
  while (!ran && std::chrono::steady_clock::now() - t0 < bound)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (!ran) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               t0);
}

}  // namespace

// Defaults (4 threads, 2 per receiver): two receivers that hang could hold every thread and
// every place; a third receiver must still be taken and run. Two holes leave a thread free
// (it runs at once); with three, it runs when the first hanging job ends. The bound is
// generous (10 s against jobs that hang 300 ms) and only says "it ran", not how fast.
TEST(DeliveryPool, ReceiversThatHangLeaveRoomAndAThreadForTheOthers) {
  const auto hang = std::chrono::milliseconds(300);
  const auto bound = std::chrono::seconds(10);
  const auto two = other_waits_behind(2, std::chrono::milliseconds(3000), bound);
  ASSERT_TRUE(two) << "refused or not run behind two hanging receivers";
  EXPECT_LT(*two, std::chrono::milliseconds(3000)) << "ran before any hanging job ended";
  EXPECT_TRUE(other_waits_behind(3, hang, bound)) << "refused or not run behind three";
  EXPECT_TRUE(other_waits_behind(6, hang, bound)) << "refused or not run behind six";
}

TEST(DeliveryPool, AReceiverNeverHoldsEveryThread) {
  DeliveryPool pool(2, 2);  // per receiver: at most threads − 1 = 1 running
  Gate hole;
  EXPECT_TRUE(pool.submit("hole|80", hole.job()));
  EXPECT_TRUE(pool.submit("hole|80", hole.job()));
  EXPECT_FALSE(pool.submit("hole|80", hole.job())) << "one running and one waiting at most";
  ASSERT_TRUE(hole.wait_running(1));
  std::atomic<bool> ran{false};
  EXPECT_TRUE(pool.submit("other|443", [&] { ran = true; }));
  const auto t0 = std::chrono::steady_clock::now();
  while (!ran && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_TRUE(ran);
  {
    std::lock_guard lock(hole.mu);
    EXPECT_EQ(hole.running, 1);
  }
  hole.release();
  pool.wait_idle();
  EXPECT_EQ(hole.most, 1);
}
