// The usage ledger's shipper against a real ledger (SQLite in a temporary directory) and
// Redis's side of shipping kept in memory: what it ships at start, on its interval and at
// stop, units given back, and how the month's count is put together again after a failed
// shipment or a step that crossed one.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>

#include "accounts/ledger_shipper.hpp"
#include "accounts/utc_month.hpp"
#include "core/clock.hpp"
#include "store/shared_counters.hpp"
#include "store/store_errors.hpp"
#include "store/usage_ledger.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::TempDir;
using accounts::testing::utc_ms;
using std::chrono::milliseconds;

namespace {

const int64_t kNow = utc_ms(2026, 11, 15, 12);
const int64_t kNovember = utc_month_of(kNow / 1000).index();

// Redis's side of shipping: the month's count of a key, and each instance's count as it
// last shipped it; a shipment adds what its count adds to the instance's last one, as
// store/redis_counters.cpp's kShipCount does. `down` makes every call throw
// StoreUnavailable, as an unreachable Redis does.
class ShipTarget final : public store::SharedCounters {
 public:
  int64_t ship(std::string_view instance, int64_t key_id, std::string_view period,
               int64_t count) override {
    std::lock_guard lock(mu_);
    if (down_) throw store::StoreUnavailable("redis: connection refused");
    ++shipments_;
    int64_t& before = last_[{std::string(instance), key_id, std::string(period)}];
    int64_t& month = months_[{key_id, std::string(period)}];
    month += count - before;
    before = count;
    return month;
  }
  int64_t quota_used(int64_t key_id, std::string_view period) override {
    std::lock_guard lock(mu_);
    if (down_) throw store::StoreUnavailable("redis: connection refused");
    auto it = months_.find({key_id, std::string(period)});
    return it == months_.end() ? 0 : it->second;
  }

  // Units another instance (or a step counted in Redis) added to a month.
  void add_elsewhere(int64_t key_id, const std::string& period, int64_t units) {
    std::lock_guard lock(mu_);
    months_[{key_id, period}] += units;
  }
  void set_down(bool down) {
    std::lock_guard lock(mu_);
    down_ = down;
  }
  int shipments() const {
    std::lock_guard lock(mu_);
    return shipments_;
  }

  // Not what the shipper calls.
  store::CounterStep take_rate(std::string_view, int64_t, int64_t) override { unused(); }
  store::RateAndQuotaStep take_rate_and_quota(std::string_view, int64_t, int64_t, int64_t,
                                              std::string_view, int64_t, bool) override {
    unused();
  }
  store::CounterStep reserve_quota(int64_t, std::string_view, int64_t, int64_t) override {
    unused();
  }
  void release_quota(int64_t, std::string_view, int64_t) override { unused(); }
  int64_t rate_used(std::string_view, int64_t) override { unused(); }

 private:
  [[noreturn]] static void unused() { throw std::logic_error("not a shipping call"); }

  mutable std::mutex mu_;
  bool down_ = false;
  int shipments_ = 0;
  std::map<std::tuple<std::string, int64_t, std::string>, int64_t> last_;
  std::map<std::pair<int64_t, std::string>, int64_t> months_;
};

class LedgerShipperTest : public ::testing::Test {
 protected:
  // Intervals long enough that a started shipper's thread never acts within a test,
  // unless the test asks for a short one.
  std::unique_ptr<LedgerShipper> open_shipper(LedgerShipperOptions options = {
                                                  .ship_interval = milliseconds(60'000),
                                                  .flush_interval = milliseconds(60'000)}) {
    return std::make_unique<LedgerShipper>(store::open_usage_ledger(data_.path()), redis_, clock_,
                                           options);
  }
  // One leased execution of `key_id`, acknowledged: counted, and written to the ledger
  // (no event loop here, so await_durable commits on this thread). Returns what
  // count_unit reported.
  LedgerShipper::Counted execute(LedgerShipper& shipper, int64_t key_id) {
    LedgerShipper::Counted counted = shipper.count_unit(key_id);
    CountedUnits units;
    units.add(key_id, counted.month, 1);
    EXPECT_EQ(shipper.await_durable(units, nullptr), Durability::Durable);
    return counted;
  }
  int64_t in_redis(int64_t key_id, const std::string& period = "2026-11") {
    return redis_.quota_used(key_id, period);
  }

  TempDir data_;
  ManualClock clock_{kNow};
  ShipTarget redis_;
};

}  // namespace

// What a killed instance, or one stopped while Redis was down, left in its ledger (this
// month and the last) is shipped when the next one starts on the same data directory,
// and once only however often it starts; the counting goes on from the ledger's count.
TEST_F(LedgerShipperTest, ShipsWhatTheLedgerHoldsWhenItStarts) {
  store::open_usage_ledger(data_.path())->add_counts({{1, "2026-11", 5}, {2, "2026-10", 3}});
  for (int start = 0; start < 2; ++start) {
    const auto shipper = open_shipper();
    EXPECT_EQ(in_redis(1), 5) << start;
    EXPECT_EQ(in_redis(2, "2026-10"), 3) << start;
    EXPECT_EQ(shipper->month_count(1, "2026-11"), 5) << start;
  }
  const auto shipper = open_shipper();
  const LedgerShipper::Counted sixth = execute(*shipper, 1);
  EXPECT_EQ(sixth.reservation.period, "2026-11");
  EXPECT_EQ(sixth.month, kNovember);
  EXPECT_EQ(sixth.month_count, 6);
}

// Started, the shipper ships every ship_interval what the group commits wrote; a count
// that did not move is not sent again.
TEST_F(LedgerShipperTest, ShipsOnItsIntervalOnceStarted) {
  const auto shipper =
      open_shipper({.ship_interval = milliseconds(10), .flush_interval = milliseconds(60'000)});
  shipper->start();
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(execute(*shipper, 7).month_count, i);
  // Generous: a loaded machine may delay the thread, never by 10 s.
  for (int i = 0; i < 1000 && in_redis(7) != 3; ++i) std::this_thread::sleep_for(milliseconds(10));
  EXPECT_EQ(in_redis(7), 3);
  EXPECT_EQ(shipper->month_count(7, "2026-11"), 3);
  const int shipments = redis_.shipments();
  shipper->ship();
  EXPECT_EQ(redis_.shipments(), shipments);  // nothing moved: nothing sent
  EXPECT_EQ(execute(*shipper, 7).month_count, 4);
  for (int i = 0; i < 1000 && in_redis(7) != 4; ++i) std::this_thread::sleep_for(milliseconds(10));
  EXPECT_EQ(in_redis(7), 4);
}

// A unit a request did not use leaves the count at once; the ledger gets it with the next
// flush, Redis with the shipment after it (here: stop's).
TEST_F(LedgerShipperTest, GivenBackUnitsLeaveTheCountAndAreShippedAfterTheFlush) {
  {
    const auto shipper = open_shipper();
    execute(*shipper, 3);
    const LedgerShipper::Counted second = execute(*shipper, 3);
    shipper->ship();
    EXPECT_EQ(in_redis(3), 2);

    shipper->give_back(3, second.reservation, 1);
    EXPECT_EQ(shipper->month_count(3, "2026-11"), 1);
    shipper->ship();
    EXPECT_EQ(in_redis(3), 2);  // not in the ledger yet: nothing to ship
    shipper->stop();
    EXPECT_EQ(in_redis(3), 1);
  }
  EXPECT_EQ(execute(*open_shipper(), 3).month_count, 2);  // the ledger holds 1
}

// A shipment Redis could not take leaves the counts in the ledger and the key's month not
// "under way"; the next shipment sends them, and the month's count is whole again.
TEST_F(LedgerShipperTest, AFailedShipmentIsSentLaterAndTheCountReconciles) {
  const auto shipper = open_shipper();
  execute(*shipper, 4);
  execute(*shipper, 4);
  redis_.set_down(true);
  EXPECT_THROW(shipper->ship(), store::StoreUnavailable);
  EXPECT_THROW(shipper->month_count(4, "2026-11"), store::StoreUnavailable);
  EXPECT_EQ(shipper->shipments_begun(4, kNovember), std::optional<uint64_t>(1));
  EXPECT_EQ(execute(*shipper, 4).month_count, 3);  // counting goes on meanwhile

  redis_.set_down(false);
  shipper->ship();
  EXPECT_EQ(in_redis(4), 3);
  EXPECT_EQ(shipper->month_count(4, "2026-11"), 3);
  EXPECT_EQ(execute(*shipper, 4).month_count, 4);
}

// A step's reply carries Redis's month count, units other instances shipped included:
// when no shipment of the key's month began since the step was sent, that count becomes
// the base the next leased units add to.
TEST_F(LedgerShipperTest, AStepsCountBecomesTheBaseOfTheNextUnits) {
  const auto shipper = open_shipper();
  execute(*shipper, 5);
  shipper->ship();
  redis_.add_elsewhere(5, "2026-11", 10);
  EXPECT_EQ(execute(*shipper, 5).month_count, 2);  // the others' units not seen yet

  const std::optional<uint64_t> before = shipper->shipments_begun(5, kNovember);
  ASSERT_TRUE(before);
  // The step counted one more unit in Redis: 1 shipped + 10 + 1.
  redis_.add_elsewhere(5, "2026-11", 1);
  EXPECT_EQ(shipper->month_count_after_step(5, kNovember, in_redis(5), before), 13);
  EXPECT_EQ(execute(*shipper, 5).month_count, 14);  // 12 in Redis, 2 unshipped
  shipper->ship();
  EXPECT_EQ(in_redis(5), 14);
}

// A step sent before a shipment of its key's month may or may not hold it: its count is
// reported as it is, and does not become the base (the shipment's reply stays it).
TEST_F(LedgerShipperTest, AStepThatCrossedAShipmentDoesNotBecomeTheBase) {
  const auto shipper = open_shipper();
  execute(*shipper, 6);
  const std::optional<uint64_t> before = shipper->shipments_begun(6, kNovember);
  ASSERT_TRUE(before);
  const int64_t stale = in_redis(6);  // the step's reply, read before the shipment
  shipper->ship();
  EXPECT_EQ(in_redis(6), 1);
  EXPECT_EQ(shipper->month_count_after_step(6, kNovember, stale, before), stale);
  EXPECT_EQ(execute(*shipper, 6).month_count, 2);  // based on the shipment's count, 1
}

// At the turn of the month the last month's counts are still shipped (a unit counted at
// 23:59:59 ships after midnight), and the new month counts from zero.
TEST_F(LedgerShipperTest, TheLastMonthIsShippedAfterTheMonthTurns) {
  clock_.set_ms(utc_ms(2026, 11, 30, 23, 59, 59));
  const auto shipper = open_shipper();
  execute(*shipper, 8);
  clock_.set_ms(utc_ms(2026, 12, 1, 0, 0, 1));
  const LedgerShipper::Counted december = execute(*shipper, 8);
  EXPECT_EQ(december.reservation.period, "2026-12");
  EXPECT_EQ(december.month_count, 1);
  shipper->ship();
  EXPECT_EQ(in_redis(8, "2026-11"), 1);
  EXPECT_EQ(in_redis(8, "2026-12"), 1);
}

// stop() commits, ships and checkpoints what is left; while Redis is down it keeps the
// counts in the ledger (never throws), and the next start ships them.
TEST_F(LedgerShipperTest, StopShipsTheRestOrLeavesItForTheNextStart) {
  {
    const auto shipper = open_shipper();
    shipper->start();
    for (int i = 0; i < 3; ++i) execute(*shipper, 9);
    shipper->stop();
    EXPECT_EQ(in_redis(9), 3);
    shipper->stop();  // idempotent
  }
  {
    const auto shipper = open_shipper();
    execute(*shipper, 9);
    redis_.set_down(true);
    shipper->stop();
    redis_.set_down(false);
    EXPECT_EQ(in_redis(9), 3);
  }
  const auto again = open_shipper();
  EXPECT_EQ(in_redis(9), 4);
}
