#include "accounts/monthly_quota.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>

namespace toolcalc::accounts {

std::string period_of_index(int64_t month_index) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld", static_cast<long long>(month_index / 12),
                static_cast<long long>(month_index % 12 + 1));
  return buf;
}

int64_t month_index_of_period(std::string_view period) {
  if (period.size() != 7 || period[4] != '-') return -1;
  int year = 0, month = 0;
  auto y = std::from_chars(period.data(), period.data() + 4, year);
  auto m = std::from_chars(period.data() + 5, period.data() + 7, month);
  if (y.ec != std::errc() || y.ptr != period.data() + 4 || m.ec != std::errc() ||
      m.ptr != period.data() + 7 || month < 1 || month > 12)
    return -1;
  return int64_t{year} * 12 + month - 1;
}

void MonthlyQuota::seed(const UtcMonth& month, const std::unordered_map<int64_t, int64_t>& used) {
  MutexLock lock(load_mu_);
  seed_locked(month.index(), used);
}

void MonthlyQuota::seed_locked(int64_t month,
                               const std::unordered_map<int64_t, int64_t>& used) const {
  for (const auto& [key_id, n] : used) {
    Shard& shard = shard_for(key_id);
    MutexLock lock(shard.mu);
    Count& count = shard.counts[Slot{key_id, month}];
    count.used = n;
    count.pending = 0;
  }
  loaded_.insert(month);
  last_loaded_.store(month, std::memory_order_release);
}

void MonthlyQuota::ensure_loaded(int64_t month) const {
  if (last_loaded_.load(std::memory_order_acquire) == month) return;
  MutexLock lock(load_mu_);
  if (loaded_.contains(month)) {
    last_loaded_.store(month, std::memory_order_release);
    return;
  }
  // Nothing of this month is in memory (it was never loaded, or evicted with nothing
  // pending), so what the store holds is its whole count.
  seed_locked(month,
              loader_ ? loader_(period_of_index(month)) : std::unordered_map<int64_t, int64_t>{});
}

QuotaReservation MonthlyQuota::reserve(int64_t key_id, int64_t limit, int64_t units) {
  const int64_t now_s = clock_.now_s();
  const UtcMonthText& text = utc_month_text(now_s);
  const UtcMonth& month = text.month;
  QuotaReservation r;
  r.limit = limit;
  r.period = text.period;
  r.resets_at = text.resets_at;
  r.retry_after_s = std::max<int64_t>(1, month.end_s - now_s);
  ensure_loaded(month.index());
  Shard& shard = shard_for(key_id);
  MutexLock lock(shard.mu);
  const Slot slot{key_id, month.index()};
  Count& c = shard.counts[slot];
  if (units < 1 || c.used > limit - units) {
    r.allowed = false;
    r.remaining = std::max<int64_t>(0, limit - c.used);
    return r;
  }
  c.used += units;
  c.pending += units;
  note_change(shard, slot, c);
  r.allowed = true;
  r.units = units;
  r.remaining = limit - c.used;
  return r;
}

void MonthlyQuota::release(int64_t key_id, const QuotaReservation& reservation, int64_t units) {
  units = std::min(units, reservation.units);
  if (!reservation.allowed || reservation.unlimited || units < 1) return;
  give_back(key_id, month_index_of_period(reservation.period), units);
}

void MonthlyQuota::give_back(int64_t key_id, int64_t month, int64_t units) {
  if (month < 0 || units < 1) return;
  Shard& shard = shard_for(key_id);
  MutexLock lock(shard.mu);
  auto it = shard.counts.find(Slot{key_id, month});
  if (it == shard.counts.end()) return;
  units = std::min(units, it->second.used);
  it->second.used -= units;
  it->second.pending -= units;
  note_change(shard, it->first, it->second);
}

QuotaStatus MonthlyQuota::status(int64_t key_id, int64_t limit) const {
  const UtcMonthText& text = utc_month_text(clock_.now_s());
  const UtcMonth& month = text.month;
  QuotaStatus s;
  s.limit = limit;
  s.period = text.period;
  s.resets_at = text.resets_at;
  ensure_loaded(month.index());
  Shard& shard = shard_for(key_id);
  {
    MutexLock lock(shard.mu);
    auto it = shard.counts.find(Slot{key_id, month.index()});
    if (it != shard.counts.end()) s.used = it->second.used;
  }
  s.remaining = std::max<int64_t>(0, limit - s.used);
  return s;
}

int64_t MonthlyQuota::used(int64_t key_id) const {
  const int64_t month = utc_month_text(clock_.now_s()).month.index();
  try {
    ensure_loaded(month);
  } catch (const std::exception&) {
    // The store cannot say now: what memory holds (this reads, it never counts).
  }
  Shard& shard = shard_for(key_id);
  MutexLock lock(shard.mu);
  auto it = shard.counts.find(Slot{key_id, month});
  return it == shard.counts.end() ? 0 : it->second.used;
}

std::vector<store::UsageDelta> MonthlyQuota::take_pending() {
  std::vector<store::UsageDelta> out;
  for (Shard& shard : shards_) {
    MutexLock lock(shard.mu);
    for (const Slot& slot : shard.changed) {
      auto it = shard.counts.find(slot);
      if (it == shard.counts.end()) continue;  // evicted with nothing pending
      Count& count = it->second;
      count.listed = false;
      if (count.pending == 0) continue;
      out.push_back({slot.key_id, period_of_index(slot.month), count.pending});
      count.pending = 0;
    }
    shard.changed.clear();
  }
  return out;
}

void MonthlyQuota::restore_pending(const std::vector<store::UsageDelta>& deltas) {
  for (const auto& d : deltas) {
    const int64_t month = month_index_of_period(d.period);
    if (month < 0) continue;
    Shard& shard = shard_for(d.key_id);
    MutexLock lock(shard.mu);
    const Slot slot{d.key_id, month};
    Count& count = shard.counts[slot];
    count.pending += d.delta;
    note_change(shard, slot, count);
  }
}

void MonthlyQuota::evict_stale() {
  const int64_t oldest_kept = utc_month_of(clock_.now_s()).index() - 1;
  MutexLock load_lock(load_mu_);  // no month is loaded meanwhile
  // A month goes only as a whole, and only when none of its entries has anything pending:
  // loaded again, its store count is then its whole count.
  std::set<int64_t> busy;
  for (Shard& shard : shards_) {
    MutexLock lock(shard.mu);
    for (const auto& [slot, count] : shard.counts)
      if (slot.month < oldest_kept && count.pending != 0) busy.insert(slot.month);
  }
  const auto evicted = [&](int64_t month) { return month < oldest_kept && !busy.contains(month); };
  for (Shard& shard : shards_) {
    MutexLock lock(shard.mu);
    std::erase_if(shard.counts, [&](const auto& kv) { return evicted(kv.first.month); });
  }
  std::erase_if(loaded_, evicted);
  if (evicted(last_loaded_.load())) last_loaded_.store(-1);
}

}  // namespace toolcalc::accounts
