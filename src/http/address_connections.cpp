#include "http/address_connections.hpp"

namespace toolcalc::http {

AddressConnections::Shard& AddressConnections::shard_of(uint64_t key) const {
  // Fibonacci hashing: the shard from the top bits of the product, which every bit of
  // the key reaches (IPv4 keys differ in their low bits, /64 prefixes in their middle).
  return shards_[(key * 0x9e37'79b9'7f4a'7c15) >> (64 - kShardBits)];
}

bool AddressConnections::try_open(uint64_t key) {
  if (limit_ == 0) return true;
  Shard& s = shard_of(key);
  const std::lock_guard lock(s.mutex);
  uint32_t& open = s.open[key];  // an address over the limit already has its entry
  if (open >= limit_) return false;
  ++open;
  return true;
}

void AddressConnections::close(uint64_t key) {
  if (limit_ == 0) return;
  Shard& s = shard_of(key);
  const std::lock_guard lock(s.mutex);
  const auto it = s.open.find(key);
  if (it == s.open.end()) return;
  if (--it->second == 0) s.open.erase(it);
}

size_t AddressConnections::open_from(uint64_t key) const {
  const Shard& s = shard_of(key);
  const std::lock_guard lock(s.mutex);
  const auto it = s.open.find(key);
  return it == s.open.end() ? 0 : it->second;
}

}  // namespace toolcalc::http
