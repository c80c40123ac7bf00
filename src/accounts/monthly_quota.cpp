#include "accounts/monthly_quota.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

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
  for (const auto& [key_id, n] : used) {
    Shard& shard = shard_for(key_id);
    std::lock_guard lock(shard.mu);
    shard.counts[Slot{key_id, month.index()}] = Count{n, 0};
  }
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
  Shard& shard = shard_for(key_id);
  std::lock_guard lock(shard.mu);
  Count& c = shard.counts[Slot{key_id, month.index()}];
  if (units < 1 || c.used > limit - units) {
    r.allowed = false;
    r.remaining = std::max<int64_t>(0, limit - c.used);
    return r;
  }
  c.used += units;
  c.pending += units;
  r.allowed = true;
  r.units = units;
  r.remaining = limit - c.used;
  return r;
}

void MonthlyQuota::release(int64_t key_id, const QuotaReservation& reservation, int64_t units) {
  units = std::min(units, reservation.units);
  if (!reservation.allowed || reservation.unlimited || units < 1) return;
  const int64_t month = month_index_of_period(reservation.period);
  if (month < 0) return;
  Shard& shard = shard_for(key_id);
  std::lock_guard lock(shard.mu);
  auto it = shard.counts.find(Slot{key_id, month});
  if (it == shard.counts.end()) return;
  units = std::min(units, it->second.used);
  it->second.used -= units;
  it->second.pending -= units;
}

QuotaStatus MonthlyQuota::status(int64_t key_id, int64_t limit) const {
  const UtcMonthText& text = utc_month_text(clock_.now_s());
  const UtcMonth& month = text.month;
  QuotaStatus s;
  s.limit = limit;
  s.period = text.period;
  s.resets_at = text.resets_at;
  Shard& shard = shard_for(key_id);
  {
    std::lock_guard lock(shard.mu);
    auto it = shard.counts.find(Slot{key_id, month.index()});
    if (it != shard.counts.end()) s.used = it->second.used;
  }
  s.remaining = std::max<int64_t>(0, limit - s.used);
  return s;
}

int64_t MonthlyQuota::used(int64_t key_id) const {
  const int64_t month = utc_month_text(clock_.now_s()).month.index();
  Shard& shard = shard_for(key_id);
  std::lock_guard lock(shard.mu);
  auto it = shard.counts.find(Slot{key_id, month});
  return it == shard.counts.end() ? 0 : it->second.used;
}

std::vector<store::UsageDelta> MonthlyQuota::take_pending() {
  std::vector<store::UsageDelta> out;
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mu);
    for (auto& [slot, count] : shard.counts) {
      if (count.pending == 0) continue;
      out.push_back({slot.key_id, period_of_index(slot.month), count.pending});
      count.pending = 0;
    }
  }
  return out;
}

void MonthlyQuota::restore_pending(const std::vector<store::UsageDelta>& deltas) {
  for (const auto& d : deltas) {
    const int64_t month = month_index_of_period(d.period);
    if (month < 0) continue;
    Shard& shard = shard_for(d.key_id);
    std::lock_guard lock(shard.mu);
    shard.counts[Slot{d.key_id, month}].pending += d.delta;
  }
}

void MonthlyQuota::evict_stale() {
  const int64_t current = utc_month_of(clock_.now_s()).index();
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mu);
    std::erase_if(shard.counts, [&](const auto& kv) {
      return kv.first.month < current && kv.second.pending == 0;
    });
  }
}

}  // namespace toolcalc::accounts
