// What counts as one client address (core/client_address.hpp), from its text form as a
// request carries it.
#include "core/client_address.hpp"

#include <gtest/gtest.h>

#include "support/client_address_cases.hpp"

namespace toolcalc {
namespace {

using test_support::expect_clients;

uint64_t key(std::string_view text) {
  const auto k = client_address_key(text);
  EXPECT_TRUE(k.has_value()) << text;
  return k.value_or(0);
}

TEST(ClientAddress, Ipv4AddressesAreDistinct) {
  expect_clients(key, test_support::kIpv4Pairs);
  EXPECT_EQ(key("192.0.2.1"), client_address_key(uint32_t{0xc0000201}));
}

TEST(ClientAddress, Ipv4MappedIpv6CountsAsTheIpv4Address) {
  expect_clients(key, test_support::kIpv4MappedPairs);
  EXPECT_EQ(key("::FFFF:c000:201"), key("192.0.2.1"));
}

TEST(ClientAddress, Ipv6CountsPerSlash64) {
  expect_clients(key, test_support::kSlash64Pairs);
  EXPECT_EQ(key("2001:db8:1:2::1"), 0x2001'0db8'0001'0002u);
  // The zone a link-local peer is written with is not part of the address.
  EXPECT_EQ(key("fe80::1%eth0"), key("fe80::2"));
}

TEST(ClientAddress, NoIpv6PrefixMeetsAnIpv4Address) {
  expect_clients(key, test_support::kIpv6PrefixAgainstIpv4Pairs);
}

TEST(ClientAddress, TextThatIsNoAddressHasNoKey) {
  for (std::string_view text : {"", "10.1.0", "256.0.0.1", "host.example", "1::2::3", "%eth0",
                                "10.0.0.1 ", "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255:1"})
    EXPECT_FALSE(client_address_key(text).has_value()) << text;
}

}  // namespace
}  // namespace toolcalc
