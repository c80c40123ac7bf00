#pragma once
// Name resolution under a deadline, for webhook deliveries: getaddrinfo has no timeout of
// its own (the resolver's is seconds per server and attempt), so a name is resolved on a
// thread of its own that the caller stops waiting for at the deadline. An address literal
// in any form getaddrinfo takes (127.1, 0x7f000001, ::1) is converted at once, without a
// thread. The addresses come back as sockaddrs: the caller checks and connects to exactly
// these, never to a second resolution of the name (which DNS rebinding could change).
#include <sys/socket.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace toolcalc::accounts {

struct ResolvedAddress {
  sockaddr_storage addr{};
  socklen_t len = 0;
  int socktype = 0, protocol = 0;
  const sockaddr& sa() const { return reinterpret_cast<const sockaddr&>(addr); }
  int family() const { return addr.ss_family; }
};

// The TCP addresses of `host`, port `port`, when it is an address literal in any form
// getaddrinfo takes (127.1, 0x7f000001, ::ffff:127.0.0.1); nullopt when it is a name.
std::optional<std::vector<ResolvedAddress>> numeric_host_addresses(const std::string& host,
                                                                   int port);

// The TCP addresses of `host`, port `port`; empty with `error` set when there are none by
// `deadline`. A lookup runs until getaddrinfo returns, which against a name server that
// never answers is long after the caller's deadline; so a host name has at most one lookup
// under way (a caller for the same name, in any case, waits for that one) and at most
// kMaxResolutionsUnderWay names are looked up at once: a resolver that never answers costs
// a bounded number of parked threads, one per name. When no lookup can start (every slot
// taken, or no thread) `postponed` is set: the host was not tried, and the caller should
// try again later without counting it as the receiver's failure.
inline constexpr size_t kMaxResolutionsUnderWay = 16;
std::vector<ResolvedAddress> resolve_host(const std::string& host, int port,
                                          std::chrono::steady_clock::time_point deadline,
                                          std::string& error, bool* postponed = nullptr);

// What one lookup of a name finds: its addresses (port 0), or why there are none.
struct NameLookupResult {
  std::vector<ResolvedAddress> addresses;
  std::string error;
};
using NameLookup = std::function<NameLookupResult(const std::string& host)>;
// Replaces getaddrinfo for the lookups started from now on (tests: a name server that
// never answers); an empty function restores it.
void set_name_lookup(NameLookup lookup);
// Lookups started and not returned yet (tests wait for their fake lookups to end).
size_t name_lookups_under_way();

}  // namespace toolcalc::accounts
