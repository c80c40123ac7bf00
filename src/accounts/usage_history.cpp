#include "accounts/usage_history.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace toolcalc::accounts {
namespace {

size_t mix(int64_t key_id, int32_t day, int32_t metric, size_t tool_hash) {
  size_t h = std::hash<int64_t>{}(key_id * 1'000'003 + day);
  h ^= tool_hash + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h ^ static_cast<size_t>(metric) * 0x100000001b3ull;
}

// The hash of "domain/slug" computed from its two parts, equal to that of the whole name.
size_t tool_hash(std::string_view domain, std::string_view slug) {
  size_t h = 14695981039346656037ull;  // FNV-1a
  auto add = [&h](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  };
  add(domain);
  add("/");
  add(slug);
  return h;
}

size_t tool_hash(std::string_view tool) {
  const size_t slash = tool.find('/');
  return tool_hash(tool.substr(0, slash),
                   slash == std::string_view::npos ? std::string_view() : tool.substr(slash + 1));
}

}  // namespace

size_t UsageHistory::Hash::operator()(const Entry& e) const {
  return mix(e.key_id, e.day, e.metric, tool_hash(e.tool));
}

size_t UsageHistory::Hash::operator()(const Probe& p) const {
  return mix(p.key_id, p.day, p.metric, tool_hash(p.domain, p.slug));
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
                          std::string_view slug, int32_t metric, int64_t n) {
  if (n == 0) return;
  const Probe probe{key_id, utc_day_of(now_s), metric, domain, slug};
  Shard& shard = shard_for(key_id);
  std::lock_guard lock(shard.mu);
  auto it = shard.pending.find(probe);
  if (it == shard.pending.end()) {
    std::string tool;
    tool.reserve(domain.size() + 1 + slug.size());
    tool.append(domain).append("/").append(slug);
    shard.pending.emplace(Entry{key_id, probe.day, metric, std::move(tool)}, n);
    return;
  }
  it->second += n;
}

std::vector<store::HistoryDelta> UsageHistory::take_pending() {
  std::vector<store::HistoryDelta> out;
  for (Shard& shard : shards_) {
    std::unordered_map<Entry, int64_t, Hash, Equal> taken;
    {
      std::lock_guard lock(shard.mu);
      taken.swap(shard.pending);
    }
    for (auto& [e, n] : taken) out.push_back({e.key_id, e.day, e.tool, e.metric, n});
  }
  return out;
}

void UsageHistory::restore_pending(const std::vector<store::HistoryDelta>& deltas) {
  for (const auto& d : deltas) {
    Shard& shard = shard_for(d.key_id);
    std::lock_guard lock(shard.mu);
    shard.pending[Entry{d.key_id, d.day, d.metric, d.tool}] += d.delta;
  }
}

std::vector<store::HistoryDelta> UsageHistory::pending_for(int64_t key_id, int32_t first_day,
                                                           int32_t end_day) const {
  std::vector<store::HistoryDelta> out;
  const Shard& shard = shard_for(key_id);
  std::lock_guard lock(shard.mu);
  for (const auto& [e, n] : shard.pending)
    if (e.key_id == key_id && e.day >= first_day && e.day < end_day)
      out.push_back({e.key_id, e.day, e.tool, e.metric, n});
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
