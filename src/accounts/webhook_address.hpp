#pragma once
// Which addresses a webhook may be delivered to. A webhook URL is chosen by whoever manages
// a key, but the request is sent from inside the operator's network: without a check it
// could reach the loopback interface, the cloud metadata service (169.254.169.254) or any
// private host. So every address a receiver's name resolves to is classified, and only
// globally reachable ones are connected to, unless the operator allow-lists a range
// (alerts.allow_private_receivers). The blocked ranges are those the IANA special-purpose
// address registries mark as not globally reachable, plus multicast and the NAT64 prefixes
// (docs/operations.md, "Quota alerts", lists them with their sources).
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolcalc::accounts {

// An IPv4 or IPv6 range in CIDR notation ("127.0.0.0/8", "fd00::/8"; a bare address is
// that one address).
struct IpRange {
  bool v6 = false;
  std::array<uint8_t, 16> bytes{};  // IPv4 in the first 4
  int prefix_len = 0;
};

// nullopt with `why` set when `text` is not a range.
std::optional<IpRange> parse_ip_range(std::string_view text, std::string* why = nullptr);

// The name of the special-purpose range `addr` (AF_INET or AF_INET6) falls in ("loopback",
// "private", "link-local", …), or nullopt for a globally reachable address. An IPv4-mapped
// IPv6 address (::ffff:a.b.c.d) and a 6to4 one (2002:AABB:CCDD::/48) are judged by the
// IPv4 address they carry; any other family is refused ("not an IP address").
std::optional<std::string> special_purpose_range(const sockaddr& addr);

class ReceiverPolicy {
 public:
  ReceiverPolicy() = default;  // globally reachable addresses only
  explicit ReceiverPolicy(std::vector<IpRange> allowed) : allowed_(std::move(allowed)) {}

  // Why a receiver at `addr` is refused ("127.0.0.1 is loopback, …"), or nullopt when it
  // may be connected to: a globally reachable address, or one in an allowed range.
  std::optional<std::string> refusal(const sockaddr& addr) const;

  // When a webhook URL is set: the refusal of `host` when it is an address literal in any
  // form getaddrinfo takes as one (127.1, 0x7f000001, 2130706433, ::ffff:127.0.0.1) or a
  // name that always means loopback (localhost, *.localhost: RFC 6761). Other names are
  // not resolved here (a name may resolve differently by the time of a delivery): the
  // check that binds is the one at connect time.
  std::optional<std::string> refusal_of_host(const std::string& host) const;

 private:
  bool allowed(const sockaddr& addr) const;
  std::vector<IpRange> allowed_;
};

// "127.0.0.1", "::1": the address without the port.
std::string address_text(const sockaddr& addr);

}  // namespace toolcalc::accounts
