#include "accounts/ledger_shipper.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <string_view>
#include <vector>

#include "accounts/utc_month.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"

namespace toolcalc::accounts {

LedgerShipper::LedgerShipper(std::unique_ptr<store::UsageLedger> ledger,
                             store::SharedCounters& counters, const Clock& clock,
                             LedgerShipperOptions options)
    : ledger_(std::move(ledger)),
      counters_(counters),
      clock_(clock),
      options_(options),
      counts_(clock_, [this](std::string_view period) { return ledger_->load_counts(period); }),
      commits_(
          counts_, [this](const std::vector<store::UsageDelta>& d) { ledger_->add_counts(d); },
          [this](const std::vector<store::UsageDelta>& d) {
            return ledger_->add_counts_if_free(d);
          }) {
  const UtcMonth month = utc_month_of(clock_.now_s());
  counts_.seed(month, ledger_->load_counts(month.period()));
  ship();
}

LedgerShipper::~LedgerShipper() {
  stop();
}

void LedgerShipper::start() {
  commits_.start();
  const auto now = std::chrono::steady_clock::now();
  background_.start(now + std::min(options_.ship_interval, options_.flush_interval),
                    [this, next_ship = now + options_.ship_interval,
                     next_flush = now + options_.flush_interval]() mutable {
                      const auto t = std::chrono::steady_clock::now();
                      if (t >= next_ship) {
                        ship_in_background();
                        next_ship = t + options_.ship_interval;
                      }
                      if (t >= next_flush) {
                        flush_in_background();
                        next_flush = t + options_.flush_interval;
                      }
                      return std::min(next_ship, next_flush);
                    });
}

void LedgerShipper::stop() {
  if (stopped_.exchange(true)) return;
  background_.stop();
  commits_.stop();  // commits what the committer holds first
  try {
    commits_.flush();
    ship();
    ledger_->checkpoint();
  } catch (const std::exception& e) {
    log::error(
        "accounts: the usage ledger could not be shipped to Redis at stop; it keeps "
        "the counts and ships them at the next start",
        {{"error", e.what()}});
  }
}

void LedgerShipper::ship_in_background() {
  try {
    ship();
    if (ship_failing_) log::info("accounts: the usage ledger ships to Redis again");
    ship_failing_ = false;
  } catch (const std::exception& e) {
    metrics::store_failures.inc();
    if (!ship_failing_)
      log::warn(
          "accounts: shipping the usage ledger to Redis failed; the counts wait in the "
          "ledger and are shipped once it answers",
          {{"error", e.what()}});
    ship_failing_ = true;
  }
}

void LedgerShipper::flush_in_background() {
  try {
    commits_.flush();       // units given back since the last flush
    ledger_->checkpoint();  // what a power loss can no longer take
  } catch (const std::exception& e) {
    metrics::store_failures.inc();
    log::warn("accounts: usage ledger flush or checkpoint failed (will retry)",
              {{"error", e.what()}});
  }
}

// The ledger holds what the group commits wrote: only acknowledged units, and units given
// back once the flush has written them.
void LedgerShipper::ship() {
  MutexLock one_at_a_time(run_mu_);
  // Nothing written since the last shipment read the ledger: nothing to read.
  const uint64_t writes = commits_.writes();
  if (ledger_read_ && writes == writes_shipped_) return;
  const UtcMonth now = utc_month_of(clock_.now_s());
  const UtcMonth before = utc_month_of(now.start_s - 1);
  for (const UtcMonth& month : {before, now}) {
    const std::string period = month.period();
    for (const auto& [key_id, count] : ledger_->load_counts(period))
      ship_count(key_id, period, month.index(), count);
  }
  ledger_read_ = true;
  writes_shipped_ = writes;
  MutexLock lock(shipped_mu_);
  std::erase_if(shipped_, [&](const auto& kv) { return kv.first.second < before.index(); });
}

void LedgerShipper::ship_count(int64_t key_id, const std::string& period, int64_t month,
                               int64_t count) {
  const std::pair<int64_t, int64_t> slot{key_id, month};
  {
    MutexLock lock(shipped_mu_);
    auto it = shipped_.find(slot);
    if (it != shipped_.end() && it->second.count == count) return;
  }
  MutexLock one_key(key_shipment_mu_);
  {
    MutexLock lock(shipped_mu_);
    Shipped& s = shipped_[slot];
    ++s.shipments;
    s.shipping = true;
  }
  int64_t store_count = 0;
  try {
    store_count = counters_.ship(ledger_->instance_id(), key_id, period, count);
  } catch (...) {
    MutexLock lock(shipped_mu_);
    shipped_[slot].shipping = false;
    throw;
  }
  MutexLock lock(shipped_mu_);
  Shipped& s = shipped_[slot];
  s.count = count;
  s.store_count = store_count;
  s.shipping = false;
}

LedgerShipper::Counted LedgerShipper::count_unit(int64_t key_id) {
  constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
  Counted c;
  c.reservation = counts_.reserve(key_id, kNoLimit, 1);
  c.month = month_index_of_period(c.reservation.period);
  c.month_count = known_month_count(key_id, c.month, kNoLimit - c.reservation.remaining);
  return c;
}

void LedgerShipper::give_back(int64_t key_id, const QuotaReservation& reservation, int64_t units) {
  counts_.release(key_id, reservation, units);
}

Durability LedgerShipper::await_durable(const CountedUnits& counted, Suspendable* request) {
  return commits_.await_durable(counted, request);
}

int64_t LedgerShipper::month_count(int64_t key_id, const std::string& period) {
  const UtcMonth month = utc_month_of(clock_.now_s());
  if (period != month.period()) return counters_.quota_used(key_id, period);
  MutexLock between_shipments(key_shipment_mu_);
  return counters_.quota_used(key_id, period) + unshipped(key_id, month.index());
}

int64_t LedgerShipper::unshipped(int64_t key_id, int64_t month) const {
  const int64_t counted = counts_.used(key_id);
  MutexLock lock(shipped_mu_);
  auto it = shipped_.find({key_id, month});
  return counted - (it == shipped_.end() ? 0 : it->second.count);
}

int64_t LedgerShipper::known_month_count(int64_t key_id, int64_t month, int64_t counted) const {
  MutexLock lock(shipped_mu_);
  auto it = shipped_.find({key_id, month});
  if (it == shipped_.end()) return counted;
  return it->second.store_count + counted - it->second.count;
}

std::optional<uint64_t> LedgerShipper::shipments_begun(int64_t key_id, int64_t month) const {
  MutexLock lock(shipped_mu_);
  auto it = shipped_.find({key_id, month});
  if (it == shipped_.end()) return 0;
  if (it->second.shipping) return std::nullopt;
  return it->second.shipments;
}

int64_t LedgerShipper::month_count_after_step(int64_t key_id, int64_t month, int64_t store_count,
                                              std::optional<uint64_t> shipments_before) {
  if (shipments_before) {
    MutexLock lock(shipped_mu_);
    Shipped& s = shipped_[{key_id, month}];
    if (!s.shipping && s.shipments == *shipments_before) s.store_count = store_count;
  }
  return store_count + unshipped(key_id, month);
}

}  // namespace toolcalc::accounts
