#pragma once
// Name resolution under a deadline, for webhook deliveries: getaddrinfo has no timeout of
// its own (the resolver's is seconds per server and attempt), so a name is resolved on a
// thread of its own that the caller stops waiting for at the deadline. An address literal
// in any form getaddrinfo takes (127.1, 0x7f000001, ::1) is converted at once, without a
// thread. The addresses come back as sockaddrs: the caller checks and connects to exactly
// these, never to a second resolution of the name (which DNS rebinding could change).
#include <sys/socket.h>

#include <chrono>
#include <string>
#include <vector>

namespace toolcalc::accounts {

struct ResolvedAddress {
  sockaddr_storage addr{};
  socklen_t len = 0;
  int family = 0, socktype = 0, protocol = 0;
  const sockaddr& sa() const { return reinterpret_cast<const sockaddr&>(addr); }
};

// The TCP addresses of `host`, port `port`; empty with `error` set when there are none by
// `deadline`. At most kMaxResolutionsUnderWay names are resolved at once: a resolver that
// never answers costs a bounded number of parked threads.
inline constexpr int kMaxResolutionsUnderWay = 16;
std::vector<ResolvedAddress> resolve_host(const std::string& host, int port,
                                          std::chrono::steady_clock::time_point deadline,
                                          std::string& error);

}  // namespace toolcalc::accounts
