// The per-address connection counts (server.max_connections_per_address): what counts as
// one address, and the limit taken and given back.
#include "http/address_connections.hpp"

#include <gtest/gtest.h>

#include <boost/asio/ip/address.hpp>

#include "support/client_address_cases.hpp"

namespace toolcalc::http {
namespace {

using test_support::expect_clients;

uint64_t key(const char* text) {
  return address_key(boost::asio::ip::make_address(text));
}

// The socket addresses the server counts follow core's rules (core/client_address_test.cpp).
TEST(AddressKey, Ipv4AddressesAreDistinct) {
  expect_clients(key, test_support::kIpv4Pairs);
}

TEST(AddressKey, Ipv4MappedIpv6CountsAsTheIpv4Address) {
  expect_clients(key, test_support::kIpv4MappedPairs);
}

TEST(AddressKey, Ipv6CountsPerSlash64) {
  expect_clients(key, test_support::kSlash64Pairs);
}

TEST(AddressKey, NoIpv6PrefixMeetsAnIpv4Address) {
  expect_clients(key, test_support::kIpv6PrefixAgainstIpv4Pairs);
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
