// What counts as one client address (core/client_address.hpp), from its text form as a
// request carries it.
#include "core/client_address.hpp"

#include <gtest/gtest.h>

namespace toolcalc {
namespace {

uint64_t key(std::string_view text) {
  const auto k = client_address_key(text);
  EXPECT_TRUE(k.has_value()) << text;
  return k.value_or(0);
}

TEST(ClientAddress, Ipv4AddressesAreDistinct) {
  EXPECT_NE(key("127.0.0.1"), key("127.0.0.2"));
  EXPECT_NE(key("192.0.2.1"), key("198.51.100.1"));
  EXPECT_EQ(key("192.0.2.1"), key("192.0.2.1"));
  EXPECT_EQ(key("192.0.2.1"), client_address_key(uint32_t{0xc0000201}));
}

TEST(ClientAddress, Ipv4MappedIpv6CountsAsTheIpv4Address) {
  EXPECT_EQ(key("::ffff:192.0.2.1"), key("192.0.2.1"));
  EXPECT_EQ(key("::FFFF:c000:201"), key("192.0.2.1"));
  EXPECT_NE(key("::ffff:192.0.2.1"), key("::ffff:192.0.2.2"));
}

TEST(ClientAddress, Ipv6CountsPerSlash64) {
  EXPECT_EQ(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
  EXPECT_EQ(key("2001:db8:1:2::1"), key("2001:db8:1:2:8a2e:370:7334:1"));
  EXPECT_NE(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
  EXPECT_NE(key("2001:db8:1:2::1"), key("2001:db9:1:2::1"));
  EXPECT_EQ(key("2001:db8:1:2::1"), 0x2001'0db8'0001'0002u);
  // The zone a link-local peer is written with is not part of the address.
  EXPECT_EQ(key("fe80::1%eth0"), key("fe80::2"));
}

TEST(ClientAddress, NoIpv6PrefixMeetsAnIpv4Address) {
  // ::/64 (the IPv6 loopback, ::1) and ::ffff:0:0/96 both have a first 64 bits of zero.
  EXPECT_NE(key("::1"), key("0.0.0.1"));
  EXPECT_NE(key("::1"), key("127.0.0.1"));
  EXPECT_NE(key("::"), key("0.0.0.0"));
}

TEST(ClientAddress, TextThatIsNoAddressHasNoKey) {
  for (std::string_view text : {"", "10.1.0", "256.0.0.1", "host.example", "1::2::3", "%eth0",
                                "10.0.0.1 ", "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255:1"})
    EXPECT_FALSE(client_address_key(text).has_value()) << text;
}

}  // namespace
}  // namespace toolcalc
