#include "accounts/webhook_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>

#include "accounts/host_resolver.hpp"
#include "core/text.hpp"

namespace toolcalc::accounts {
namespace {

struct SpecialRange {
  IpRange range;
  const char* name;
};

IpRange v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, int len) {
  IpRange r;
  r.bytes = {a, b, c, d};
  r.prefix_len = len;
  return r;
}

IpRange v6(std::initializer_list<uint16_t> groups, int len) {
  IpRange r;
  r.v6 = true;
  size_t i = 0;
  for (const uint16_t g : groups) {
    r.bytes[i++] = static_cast<uint8_t>(g >> 8);
    r.bytes[i++] = static_cast<uint8_t>(g & 0xff);
  }
  r.prefix_len = len;
  return r;
}

// IANA IPv4 Special-Purpose Address Registry: the blocks not globally reachable, and
// multicast (RFC 5771) and the reserved 240/4 (RFC 1112), none of which is a web server.
// The first match names the address, so the limited broadcast comes before 240/4.
const SpecialRange kIpv4Special[] = {
    {v4(0, 0, 0, 0, 8), "'this network' (0.0.0.0/8)"},
    {v4(10, 0, 0, 0, 8), "private (10.0.0.0/8)"},
    {v4(100, 64, 0, 0, 10), "shared address space (100.64.0.0/10)"},
    {v4(127, 0, 0, 0, 8), "loopback (127.0.0.0/8)"},
    {v4(169, 254, 0, 0, 16), "link-local (169.254.0.0/16)"},
    {v4(172, 16, 0, 0, 12), "private (172.16.0.0/12)"},
    {v4(192, 0, 0, 0, 24), "IETF protocol assignments (192.0.0.0/24)"},
    {v4(192, 0, 2, 0, 24), "documentation (192.0.2.0/24)"},
    {v4(192, 88, 99, 0, 24), "6to4 relay anycast (192.88.99.0/24)"},
    {v4(192, 168, 0, 0, 16), "private (192.168.0.0/16)"},
    {v4(198, 18, 0, 0, 15), "benchmarking (198.18.0.0/15)"},
    {v4(198, 51, 100, 0, 24), "documentation (198.51.100.0/24)"},
    {v4(203, 0, 113, 0, 24), "documentation (203.0.113.0/24)"},
    {v4(224, 0, 0, 0, 4), "multicast (224.0.0.0/4)"},
    {v4(255, 255, 255, 255, 32), "limited broadcast (255.255.255.255)"},
    {v4(240, 0, 0, 0, 4), "reserved (240.0.0.0/4)"},
};

// IANA IPv6 Special-Purpose Address Registry: the blocks not globally reachable, the NAT64
// prefixes (a translator would carry the request on to any IPv4 address, private ones
// included), the deprecated IPv4-compatible and site-local blocks, and multicast
// (RFC 4291). IPv4-mapped and 6to4 addresses are judged by their IPv4 address instead.
const SpecialRange kIpv6Special[] = {
    {v6({}, 128), "unspecified (::)"},
    {v6({0, 0, 0, 0, 0, 0, 0, 1}, 128), "loopback (::1)"},
    {v6({}, 96), "IPv4-compatible (::/96, deprecated)"},
    {v6({0x64, 0xff9b}, 96), "NAT64 (64:ff9b::/96)"},
    {v6({0x64, 0xff9b, 1}, 48), "local-use NAT64 (64:ff9b:1::/48)"},
    {v6({0x100}, 64), "discard-only (100::/64)"},
    {v6({0x2001, 0x2}, 48), "benchmarking (2001:2::/48)"},
    {v6({0x2001, 0xdb8}, 32), "documentation (2001:db8::/32)"},
    {v6({0x3fff}, 20), "documentation (3fff::/20)"},
    {v6({0x5f00}, 16), "segment routing (5f00::/16)"},
    {v6({0xfc00}, 7), "unique-local (fc00::/7)"},
    {v6({0xfe80}, 10), "link-local (fe80::/10)"},
    {v6({0xfec0}, 10), "site-local (fec0::/10, deprecated)"},
    {v6({0xff00}, 8), "multicast (ff00::/8)"},
};

bool in_range(const uint8_t* bytes, const IpRange& r) {
  const int whole = r.prefix_len / 8;
  if (std::memcmp(bytes, r.bytes.data(), static_cast<size_t>(whole)) != 0) return false;
  const int rest = r.prefix_len % 8;
  if (rest == 0) return true;
  const auto mask = static_cast<uint8_t>(0xff << (8 - rest));
  return (bytes[whole] & mask) == (r.bytes[whole] & mask);
}

// The IPv4 address an IPv6 one stands for (IPv4-mapped, 6to4), else nullptr.
const uint8_t* embedded_ipv4(const uint8_t* b) {
  static constexpr uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(b, kMapped, 12) == 0) return b + 12;
  if (b[0] == 0x20 && b[1] == 0x02) return b + 2;  // 2002:AABB:CCDD::/48 (RFC 3056)
  return nullptr;
}

std::optional<std::string> special_ipv4(const uint8_t* b) {
  for (const auto& s : kIpv4Special)
    if (in_range(b, s.range)) return std::string(s.name);
  return std::nullopt;
}

}  // namespace

std::optional<IpRange> parse_ip_range(std::string_view text, std::string* why) {
  auto fail = [&](std::string message) -> std::optional<IpRange> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  const size_t slash = text.find('/');
  const std::string address(text.substr(0, slash));
  IpRange r;
  int max_len = 32;
  if (address.find(':') != std::string::npos) {
    r.v6 = true;
    max_len = 128;
    if (inet_pton(AF_INET6, address.c_str(), r.bytes.data()) != 1)
      return fail("'" + std::string(text) + "' is not an IPv6 address or range");
  } else if (inet_pton(AF_INET, address.c_str(), r.bytes.data()) != 1) {
    return fail("'" + std::string(text) + "' is not an IPv4 address or range (a.b.c.d/len)");
  }
  r.prefix_len = max_len;
  if (slash != std::string_view::npos) {
    const std::string_view len = text.substr(slash + 1);
    int n = -1;
    const auto res = std::from_chars(len.data(), len.data() + len.size(), n);
    if (len.empty() || res.ec != std::errc() || res.ptr != len.data() + len.size() || n < 0 ||
        n > max_len)
      return fail("'" + std::string(text) + "': the prefix length must be 0.." +
                  std::to_string(max_len));
    r.prefix_len = n;
  }
  return r;
}

std::optional<std::string> special_purpose_range(const sockaddr& addr) {
  if (addr.sa_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(addr);
    return special_ipv4(reinterpret_cast<const uint8_t*>(&in.sin_addr.s_addr));
  }
  if (addr.sa_family != AF_INET6) return std::string("not an IP address");
  const auto* b = reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr.s6_addr;
  if (const uint8_t* embedded = embedded_ipv4(b)) {
    if (auto s = special_ipv4(embedded)) return (b[0] == 0x20 ? "6to4 of " : "IPv4-mapped ") + *s;
    return std::nullopt;
  }
  for (const auto& s : kIpv6Special)
    if (in_range(b, s.range)) return std::string(s.name);
  return std::nullopt;
}

bool ReceiverPolicy::allowed(const sockaddr& addr) const {
  const uint8_t* b4 = nullptr;
  const uint8_t* b6 = nullptr;
  if (addr.sa_family == AF_INET) {
    b4 = reinterpret_cast<const uint8_t*>(
        &reinterpret_cast<const sockaddr_in&>(addr).sin_addr.s_addr);
  } else if (addr.sa_family == AF_INET6) {
    b6 = reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr.s6_addr;
    b4 = embedded_ipv4(b6);
    if (b4 && b6[0] == 0x20) b4 = nullptr;  // 6to4 is routed over IPv6: its own range
  }
  for (const IpRange& r : allowed_) {
    if (r.v6 && b6 && in_range(b6, r)) return true;
    if (!r.v6 && b4 && in_range(b4, r)) return true;
  }
  return false;
}

std::optional<std::string> ReceiverPolicy::refusal(const sockaddr& addr) const {
  auto range = special_purpose_range(addr);
  if (!range || allowed(addr)) return std::nullopt;
  return address_text(addr) + " is " + *range +
         ", not a public address (alerts.allow_private_receivers lists the ranges allowed)";
}

std::optional<std::string> ReceiverPolicy::refusal_of_host(const std::string& host) const {
  const std::string lower = ascii_lowercase(host);
  if (lower == "localhost" || lower.ends_with(".localhost") || lower == "localhost." ||
      lower.ends_with(".localhost.")) {
    sockaddr_in loopback{};
    loopback.sin_family = AF_INET;
    loopback.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (allowed(reinterpret_cast<const sockaddr&>(loopback))) return std::nullopt;
    return "'" + host +
           "' is a loopback name, not a public address (alerts.allow_private_receivers lists "
           "the ranges allowed)";
  }
  const auto literal = numeric_host_addresses(host, 0);
  if (!literal) return std::nullopt;  // a name
  for (const ResolvedAddress& a : *literal)
    if (auto why = refusal(a.sa()))
      return address_text(a.sa()) == host ? *why : "'" + host + "' means " + *why;
  return std::nullopt;
}

std::string address_text(const sockaddr& addr) {
  char buf[INET6_ADDRSTRLEN] = "?";
  if (addr.sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr, buf, sizeof buf);
  else if (addr.sa_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr, buf, sizeof buf);
  return buf;
}

}  // namespace toolcalc::accounts
