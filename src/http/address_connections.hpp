#pragma once
// How many connections each client address holds, so that one address cannot take every
// connection slot (server.max_connections_per_address; docs/operations.md, "Connection
// limits"). Counted when a connection is accepted and when it closes, never per request.
// The acceptors of every I/O thread share the counts: they are split into shards, each
// under its own mutex, so two threads seldom wait for each other.
#include <array>
#include <boost/asio/ip/address.hpp>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "core/client_address.hpp"

namespace toolcalc::http {

// What is counted as one address: an IPv4 address or an IPv6 /64 (core/client_address.hpp).
inline uint64_t address_key(const boost::asio::ip::address& address) {
  return address.is_v4() ? client_address_key(address.to_v4().to_uint())
                         : client_address_key(address.to_v6().to_bytes());
}

class AddressConnections {
 public:
  // limit: the most connections one address may hold; 0: no limit (nothing is counted).
  explicit AddressConnections(size_t limit) : limit_(limit) {}

  size_t limit() const { return limit_; }
  // Counts one more connection from `key`: false, counting nothing, when the address
  // already holds `limit` connections.
  bool try_open(uint64_t key);
  // The end of a connection try_open counted.
  void close(uint64_t key);
  // The connections `key` holds now.
  size_t open_from(uint64_t key) const;

 private:
  struct alignas(64) Shard {
    mutable std::mutex mutex;
    std::unordered_map<uint64_t, uint32_t> open;  // no entry: none open
  };
  static constexpr int kShardBits = 4;
  static constexpr size_t kShards = size_t{1} << kShardBits;
  Shard& shard_of(uint64_t key) const;

  size_t limit_;
  mutable std::array<Shard, kShards> shards_;
};

}  // namespace toolcalc::http
