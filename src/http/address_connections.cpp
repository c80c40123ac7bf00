#include "http/address_connections.hpp"

namespace toolcalc::http {

namespace {

// ff00::/8 is multicast, never the source of a TCP connection: an IPv4 key put there
// cannot equal an IPv6 /64.
constexpr uint64_t kIpv4Tag = 0xff00'0000'0000'0000;

}  // namespace

uint64_t address_key(const boost::asio::ip::address& address) {
  if (address.is_v4()) return kIpv4Tag | address.to_v4().to_uint();
  const auto v6 = address.to_v6();
  if (v6.is_v4_mapped())
    return kIpv4Tag | boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_uint();
  const auto bytes = v6.to_bytes();
  uint64_t prefix = 0;
  for (size_t i = 0; i < 8; ++i) prefix = prefix << 8 | bytes[i];
  return prefix;
}

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
