#pragma once
// Which two addresses are one client (core/client_address.hpp), checked on both ways an
// address reaches a key: from text (core's tests) and from a socket address (http's
// address_key), so that the two cannot drift apart.
#include <gtest/gtest.h>

#include <span>

namespace toolcalc::test_support {

struct AddressPair {
  const char* a;
  const char* b;
  bool one_client;
};

inline constexpr AddressPair kIpv4Pairs[] = {
    {"127.0.0.1", "127.0.0.2", false},
    {"192.0.2.1", "198.51.100.1", false},
    {"192.0.2.1", "192.0.2.1", true},
};

// An IPv4-mapped IPv6 address, as a dual-stack listener sees IPv4 clients.
inline constexpr AddressPair kIpv4MappedPairs[] = {
    {"::ffff:192.0.2.1", "192.0.2.1", true},
    {"::ffff:192.0.2.1", "::ffff:192.0.2.2", false},
};

inline constexpr AddressPair kSlash64Pairs[] = {
    {"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", true},
    {"2001:db8:1:2::1", "2001:db8:1:2:8a2e:370:7334:1", true},
    {"2001:db8:1:2::1", "2001:db8:1:3::1", false},
    {"2001:db8:1:2::1", "2001:db9:1:2::1", false},
};

// ::/64 (the IPv6 loopback, ::1) and ::ffff:0:0/96 both have a first 64 bits of zero.
inline constexpr AddressPair kIpv6PrefixAgainstIpv4Pairs[] = {
    {"::1", "0.0.0.1", false},
    {"::1", "127.0.0.1", false},
    {"::", "0.0.0.0", false},
};

// `key`: an address's text to its client key.
template <class Key>
void expect_clients(Key key, std::span<const AddressPair> pairs) {
  for (const AddressPair& p : pairs) {
    if (p.one_client)
      EXPECT_EQ(key(p.a), key(p.b)) << p.a << " and " << p.b;
    else
      EXPECT_NE(key(p.a), key(p.b)) << p.a << " and " << p.b;
  }
}

}  // namespace toolcalc::test_support
