// The per-address connection counts (server.max_connections_per_address): what counts as
// one address, and the limit taken and given back.
#include "http/address_connections.hpp"

#include <gtest/gtest.h>

#include <boost/asio/ip/address.hpp>

namespace toolcalc::http {
namespace {

uint64_t key(const char* text) {
  return address_key(boost::asio::ip::make_address(text));
}

TEST(AddressKey, Ipv4AddressesAreDistinct) {
  EXPECT_NE(key("127.0.0.1"), key("127.0.0.2"));
  EXPECT_NE(key("192.0.2.1"), key("198.51.100.1"));
  EXPECT_EQ(key("192.0.2.1"), key("192.0.2.1"));
}

TEST(AddressKey, Ipv4MappedIpv6CountsAsTheIpv4Address) {
  EXPECT_EQ(key("::ffff:192.0.2.1"), key("192.0.2.1"));
  EXPECT_NE(key("::ffff:192.0.2.1"), key("::ffff:192.0.2.2"));
}

TEST(AddressKey, Ipv6CountsPerSlash64) {
  EXPECT_EQ(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
  EXPECT_EQ(key("2001:db8:1:2::1"), key("2001:db8:1:2:8a2e:370:7334:1"));
  EXPECT_NE(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
  EXPECT_NE(key("2001:db8:1:2::1"), key("2001:db9:1:2::1"));
}

TEST(AddressKey, NoIpv6PrefixMeetsAnIpv4Address) {
  // ::/64 (the IPv6 loopback, ::1) and ::ffff:0:0/96 both have a first 64 bits of zero.
  EXPECT_NE(key("::1"), key("0.0.0.1"));
  EXPECT_NE(key("::1"), key("127.0.0.1"));
  EXPECT_NE(key("::"), key("0.0.0.0"));
}

TEST(AddressConnections, RefusesPastTheLimitAndTakesOneBackPerClose) {
  AddressConnections counts(3);
  const uint64_t a = key("192.0.2.1");
  const uint64_t b = key("192.0.2.2");
  EXPECT_TRUE(counts.try_open(a));
  EXPECT_TRUE(counts.try_open(a));
  EXPECT_TRUE(counts.try_open(a));
  EXPECT_FALSE(counts.try_open(a));
  EXPECT_FALSE(counts.try_open(a));
  EXPECT_EQ(counts.open_from(a), 3u);  // refusals count nothing
  EXPECT_TRUE(counts.try_open(b));     // another address is not affected
  EXPECT_EQ(counts.open_from(b), 1u);
  counts.close(a);
  EXPECT_EQ(counts.open_from(a), 2u);
  EXPECT_TRUE(counts.try_open(a));
  EXPECT_FALSE(counts.try_open(a));
  for (int i = 0; i < 3; ++i) counts.close(a);
  EXPECT_EQ(counts.open_from(a), 0u);
  counts.close(b);
  EXPECT_EQ(counts.open_from(b), 0u);
}

TEST(AddressConnections, ManyAddressesAcrossShards) {
  AddressConnections counts(2);
  for (uint32_t i = 0; i < 1000; ++i) {
    const uint64_t k = address_key(boost::asio::ip::address_v4(0xc0000200u + i));
    EXPECT_TRUE(counts.try_open(k));
    EXPECT_TRUE(counts.try_open(k));
    EXPECT_FALSE(counts.try_open(k));
  }
  for (uint32_t i = 0; i < 1000; ++i) {
    const uint64_t k = address_key(boost::asio::ip::address_v4(0xc0000200u + i));
    EXPECT_EQ(counts.open_from(k), 2u);
    counts.close(k);
    counts.close(k);
    EXPECT_EQ(counts.open_from(k), 0u);
  }
}

TEST(AddressConnections, ZeroMeansNoLimit) {
  AddressConnections counts(0);
  const uint64_t a = key("192.0.2.1");
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(counts.try_open(a));
  EXPECT_EQ(counts.open_from(a), 0u);  // nothing is counted
  counts.close(a);
}

}  // namespace
}  // namespace toolcalc::http
