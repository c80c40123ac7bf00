#include "core/client_address.hpp"

#include <arpa/inet.h>

#include <cstring>

namespace toolcalc {

namespace {

// ff00::/8 is multicast, never the source of a TCP connection: an IPv4 key put there
// cannot equal an IPv6 /64.
constexpr uint64_t kIpv4Tag = 0xff00'0000'0000'0000;

// The longest IPv6 text, "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255" (INET6_ADDRSTRLEN
// counts its terminating NUL).
constexpr size_t kMaxAddressText = INET6_ADDRSTRLEN;

}  // namespace

uint64_t client_address_key(uint32_t ipv4) {
  return kIpv4Tag | ipv4;
}

uint64_t client_address_key(const std::array<unsigned char, 16>& ipv6) {
  // ::ffff:0:0/96 (RFC 4291 §2.5.5.2)
  constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(ipv6.data(), kMapped, sizeof kMapped) == 0)
    return client_address_key(uint32_t{ipv6[12]} << 24 | uint32_t{ipv6[13]} << 16 |
                              uint32_t{ipv6[14]} << 8 | uint32_t{ipv6[15]});
  uint64_t prefix = 0;
  for (size_t i = 0; i < 8; ++i) prefix = prefix << 8 | ipv6[i];
  return prefix;
}

std::optional<uint64_t> client_address_key(std::string_view text) {
  text = text.substr(0, text.find('%'));
  if (text.empty() || text.size() >= kMaxAddressText) return std::nullopt;
  char buffer[kMaxAddressText];
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';  // inet_pton reads a C string
  if (text.find(':') == std::string_view::npos) {
    in_addr v4;
    if (inet_pton(AF_INET, buffer, &v4) != 1) return std::nullopt;
    return client_address_key(ntohl(v4.s_addr));
  }
  std::array<unsigned char, 16> v6;
  if (inet_pton(AF_INET6, buffer, v6.data()) != 1) return std::nullopt;
  return client_address_key(v6);
}

}  // namespace toolcalc
