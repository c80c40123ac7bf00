#include "accounts/usage_history.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <tuple>

#include "core/wrapping.hpp"

namespace toolcalc::accounts {
namespace {

constexpr int32_t kSuccess = 200;

// A tool's part of the hash from its slug's length and its first and last 8 bytes: a
// constant cost per request (the catalog's slugs differ there), where hashing every byte
// of "domain/slug" would cost as much as the rest of the lookup.
TOOLCALC_WRAPPING size_t tool_hash(std::string_view slug) {
  uint64_t head = 0, tail = 0;
  const size_t n = std::min<size_t>(8, slug.size());
  std::memcpy(&head, slug.data(), n);
  std::memcpy(&tail, slug.data() + slug.size() - n, n);
  return static_cast<size_t>((head * 0x9E3779B97F4A7C15ull) ^ (tail + slug.size()));
}

TOOLCALC_WRAPPING size_t mix(int64_t key_id, int32_t day, int32_t metric, size_t tool) {
  uint64_t h = static_cast<uint64_t>(key_id) * 0x100000001b3ull;
  h ^= (static_cast<uint64_t>(static_cast<uint32_t>(day)) << 16) ^ static_cast<uint32_t>(metric);
  h *= 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h ^ tool ^ (h >> 29));
}

std::string_view slug_of(std::string_view tool) {
  const size_t slash = tool.find('/');
  return slash == std::string_view::npos ? tool : tool.substr(slash + 1);
}

}  // namespace

size_t UsageHistory::Hash::operator()(const Entry& e) const {
  return mix(e.key_id, e.day, e.metric, tool_hash(slug_of(e.tool)));
}

size_t UsageHistory::Hash::operator()(const Probe& p) const {
  return mix(p.key_id, p.day, p.metric, tool_hash(p.slug));
}

bool UsageHistory::Equal::operator()(const Entry& a, const Entry& b) const {
  return a.key_id == b.key_id && a.day == b.day && a.metric == b.metric && a.tool == b.tool;
}

bool UsageHistory::Equal::operator()(const Probe& p, const Entry& e) const {
  if (p.key_id != e.key_id || p.day != e.day || p.metric != e.metric) return false;
  const std::string_view t = e.tool;
  return t.size() == p.domain.size() + 1 + p.slug.size() && t.starts_with(p.domain) &&
         t[p.domain.size()] == '/' && t.ends_with(p.slug);
}

void UsageHistory::record(int64_t key_id, int64_t now_s, std::string_view domain,
                          std::string_view slug, int status, int64_t units) {
  const Probe probe{key_id, utc_day_of(now_s), status, domain, slug};
  Shard& shard = shard_for(key_id);
  MutexLock lock(shard.mu);
  auto it = shard.pending.find(probe);
  if (it == shard.pending.end()) {
    std::string tool;
    tool.reserve(domain.size() + 1 + slug.size());
    tool.append(domain).append("/").append(slug);
    it = shard.pending.emplace(Entry{key_id, probe.day, status, std::move(tool)}, Counts{}).first;
  }
  it->second.count += 1;
  if (status == kSuccess) it->second.units += units;
}

void UsageHistory::append_deltas(const Entry& e, const Counts& c,
                                 std::vector<store::HistoryDelta>& out) {
  if (e.metric != kSuccess) {
    if (c.count > 0) out.push_back({e.key_id, e.day, e.tool, e.metric, c.count});
    return;
  }
  if (c.count > 0) out.push_back({e.key_id, e.day, e.tool, store::kHistoryExecutions, c.count});
  if (c.units > 0) out.push_back({e.key_id, e.day, e.tool, store::kHistoryUnits, c.units});
}

std::vector<store::HistoryDelta> UsageHistory::take_pending() {
  std::vector<store::HistoryDelta> out;
  for (Shard& shard : shards_) {
    Map taken;
    {
      MutexLock lock(shard.mu);
      taken.swap(shard.pending);
    }
    for (const auto& [e, c] : taken) append_deltas(e, c, out);
  }
  return out;
}

void UsageHistory::restore_pending(const std::vector<store::HistoryDelta>& deltas) {
  for (const auto& d : deltas) {
    const bool success = d.metric == store::kHistoryExecutions || d.metric == store::kHistoryUnits;
    Shard& shard = shard_for(d.key_id);
    MutexLock lock(shard.mu);
    Counts& c = shard.pending[Entry{d.key_id, d.day, success ? kSuccess : d.metric, d.tool}];
    (d.metric == store::kHistoryUnits ? c.units : c.count) += d.delta;
  }
}

std::vector<store::HistoryDelta> UsageHistory::pending_for(int64_t key_id, int32_t first_day,
                                                           int32_t end_day) const {
  std::vector<store::HistoryDelta> out;
  const Shard& shard = shard_for(key_id);
  MutexLock lock(shard.mu);
  for (const auto& [e, c] : shard.pending)
    if (e.key_id == key_id && e.day >= first_day && e.day < end_day) append_deltas(e, c, out);
  return out;
}

std::vector<store::HistoryRow> merge_history(std::vector<store::HistoryRow> stored,
                                             const std::vector<store::HistoryDelta>& pending) {
  std::map<std::tuple<int32_t, std::string, int32_t>, int64_t> sum;
  for (auto& r : stored) sum[{r.day, std::move(r.tool), r.metric}] += r.count;
  for (const auto& d : pending) sum[{d.day, d.tool, d.metric}] += d.delta;
  std::vector<store::HistoryRow> out;
  out.reserve(sum.size());
  for (auto& [k, n] : sum)
    if (n > 0) out.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k), n});
  return out;
}

}  // namespace toolcalc::accounts
