#pragma once
// Online guessing of the admin token, slowed per source address (docs/operations.md,
// "Admin API"): an address that fails to authenticate kMaxFailures times within a window of
// kWindowSeconds from its first failure is refused (429 with Retry-After) until that window
// ends, whatever token it sends: were the right one let through, the refusal would not slow
// guessing. An address is an IPv4 address or an IPv6 /64 (core/client_address.hpp), as for
// the connection cap: a client chooses any source address in its /64, so counting IPv6
// addresses one by one would give it 2^64 budgets and let it fill the table. Text that is
// no address (a peer the server could not name) counts as one address. A request with the
// right token from an address under the limit is not slowed and costs one lookup. The
// table holds at most kMaxAddresses addresses; when it is full of live windows, addresses
// it does not hold share one window (an attacker with many addresses is limited as one).
// Its warnings are aggregated: at most two lines per address and window, the first
// failure and the refusal that starts, with the count.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace toolcalc::api {

class AdminGuard {
 public:
  static constexpr int kMaxFailures = 10;
  static constexpr int64_t kWindowSeconds = 60;
  static constexpr size_t kMaxAddresses = 4096;

  explicit AdminGuard(size_t max_addresses = kMaxAddresses) : max_addresses_(max_addresses) {}

  // Seconds until `address` may try again (at least 1), or 0 when it may try now.
  int64_t retry_after_s(std::string_view address, int64_t now_s);

  // A failed authentication of `address`: counted, and logged when it is the window's first
  // or the one that starts the refusal.
  void record_failure(std::string_view address, int64_t now_s, std::string_view request_id);

  // Addresses held (at most the table's size, plus the shared window).
  size_t addresses() const;

 private:
  struct Window {
    int64_t start_s = 0;
    int failures = 0;
  };
  // The window of `address`: its own, or the shared one when the table is full; nullptr
  // when it has none and `create` is false. Expired windows are reset. Under mutex_.
  Window* window_of(uint64_t address, int64_t now_s, bool create);
  void forget_expired(int64_t now_s);

  const size_t max_addresses_;
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Window> windows_;  // by core/client_address.hpp's key
  Window shared_;
  int64_t last_sweep_s_ = INT64_MIN;
};

}  // namespace toolcalc::api
