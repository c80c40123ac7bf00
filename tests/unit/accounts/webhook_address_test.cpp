// Which addresses a webhook may reach (accounts/webhook_address.hpp): every special-purpose
// form the IANA registries list, in the spellings getaddrinfo accepts (127.1, 0x7f000001,
// 2130706433, IPv4-mapped IPv6), is classified as such; public addresses are not; the
// operator's allow-list lets chosen ranges through and nothing else.
#include "accounts/webhook_address.hpp"

#include <gtest/gtest.h>

#include "accounts/host_resolver.hpp"

using namespace toolcalc::accounts;

namespace {

// The first address getaddrinfo makes of a numeric host (no DNS), as a delivery sees it.
sockaddr_storage address_of(const std::string& host) {
  const auto found = numeric_host_addresses(host, 80);
  if (!found || found->empty()) {
    ADD_FAILURE() << host << " is not numeric";
    return sockaddr_storage{};
  }
  return found->front().addr;
}

std::optional<std::string> range_of(const std::string& host) {
  const sockaddr_storage a = address_of(host);
  return special_purpose_range(reinterpret_cast<const sockaddr&>(a));
}

}  // namespace

TEST(WebhookAddress, EverySpecialPurposeFormIsClassified) {
  const std::pair<const char*, const char*> special[] = {
      // IPv4 and the numeric aliases inet_aton (and so getaddrinfo) accepts.
      {"127.0.0.1", "loopback"},
      {"127.1", "loopback"},
      {"0x7f000001", "loopback"},
      {"2130706433", "loopback"},
      {"0177.0.0.1", "loopback"},
      {"127.255.255.254", "loopback"},
      {"0.0.0.0", "this network"},
      {"0", "this network"},
      {"0.1.2.3", "this network"},
      {"10.0.0.1", "private (10."},
      {"167772161", "private (10."},  // 10.0.0.1
      {"100.64.0.1", "shared address space"},
      {"100.127.255.255", "shared address space"},
      {"169.254.169.254", "link-local"},
      {"0xa9fea9fe", "link-local"},  // 169.254.169.254
      {"172.16.0.1", "private (172.16."},
      {"172.31.255.255", "private (172.16."},
      {"192.168.1.1", "private (192.168."},
      {"192.0.0.8", "IETF protocol assignments"},
      {"198.18.0.1", "benchmarking"},
      {"198.19.255.255", "benchmarking"},
      {"224.0.0.1", "multicast"},
      {"239.255.255.250", "multicast"},
      {"240.0.0.1", "reserved"},
      {"255.255.255.255", "limited broadcast"},
      {"192.0.2.1", "documentation"},
      // IPv6.
      {"::", "unspecified"},
      {"::1", "loopback (::1)"},
      {"fe80::1", "link-local (fe80"},
      {"febf::1", "link-local (fe80"},
      {"fc00::1", "unique-local"},
      {"fd12:3456::1", "unique-local"},
      {"ff02::1", "multicast"},
      {"::ffff:127.0.0.1", "IPv4-mapped loopback"},
      {"::ffff:7f00:1", "IPv4-mapped loopback"},
      {"::ffff:169.254.169.254", "IPv4-mapped link-local"},
      {"::ffff:10.0.0.1", "IPv4-mapped private"},
      {"::ffff:0.0.0.0", "IPv4-mapped 'this network'"},
      {"64:ff9b::7f00:1", "NAT64"},
      {"64:ff9b::808:808", "NAT64"},
      {"64:ff9b:1::1", "local-use NAT64"},
      {"::127.0.0.1", "IPv4-compatible"},
      {"2002:7f00:1::1", "6to4 of loopback"},
      {"2001:db8::1", "documentation"},
      {"fec0::1", "site-local"},
  };
  for (const auto& [host, name] : special) {
    const auto r = range_of(host);
    ASSERT_TRUE(r) << host;
    EXPECT_NE(r->find(name), std::string::npos) << host << ": " << *r;
  }
  for (const char* host :
       {"8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1", "100.63.255.255",
        "192.0.1.1", "192.169.0.1", "198.20.0.1", "223.255.255.255", "2606:4700:4700::1111",
        "2a00:1450::1", "::ffff:8.8.8.8", "2002:808:808::1", "2001:4860::8888"}) {
    EXPECT_EQ(range_of(host), std::nullopt) << host;
  }
}

TEST(WebhookAddress, TheAllowListLetsItsRangesThroughOnly) {
  const ReceiverPolicy strict;
  const ReceiverPolicy loopback({*parse_ip_range("127.0.0.0/8")});
  const ReceiverPolicy lan({*parse_ip_range("10.1.0.0/16"), *parse_ip_range("fd00::/8")});
  auto refused = [](const ReceiverPolicy& p, const std::string& host) {
    const sockaddr_storage a = address_of(host);
    return p.refusal(reinterpret_cast<const sockaddr&>(a)).has_value();
  };
  for (const char* host : {"127.0.0.1", "127.1", "2130706433", "::ffff:127.0.0.1", "::1",
                           "169.254.169.254", "10.1.2.3", "fd00::1"})
    EXPECT_TRUE(refused(strict, host)) << host;
  EXPECT_FALSE(refused(strict, "8.8.8.8"));
  EXPECT_FALSE(refused(loopback, "127.0.0.1"));
  EXPECT_FALSE(refused(loopback, "0x7f000001"));
  EXPECT_FALSE(refused(loopback, "::ffff:127.0.0.1"));  // the same IPv4 address
  EXPECT_TRUE(refused(loopback, "::1"));                // not in an IPv4 range
  EXPECT_TRUE(refused(loopback, "169.254.169.254"));
  EXPECT_TRUE(refused(loopback, "10.0.0.1"));
  EXPECT_FALSE(refused(loopback, "8.8.8.8"));
  EXPECT_FALSE(refused(lan, "10.1.255.255"));
  EXPECT_TRUE(refused(lan, "10.2.0.1"));
  EXPECT_FALSE(refused(lan, "fd12::1"));
  EXPECT_TRUE(refused(lan, "fc00::1"));

  const sockaddr_storage a = address_of("169.254.169.254");
  EXPECT_EQ(*strict.refusal(reinterpret_cast<const sockaddr&>(a)),
            "169.254.169.254 is link-local (169.254.0.0/16), not a public address "
            "(alerts.allow_private_receivers lists the ranges allowed)");
}

TEST(WebhookAddress, HostsRefusedWhenTheURLIsSet) {
  const ReceiverPolicy strict;
  for (const char* host :
       {"127.0.0.1", "127.1", "0x7f000001", "2130706433", "0.0.0.0", "169.254.169.254", "10.0.0.1",
        "192.168.0.10", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe",
        "localhost", "LocalHost", "hooks.localhost", "localhost."})
    EXPECT_TRUE(strict.refusal_of_host(host)) << host;
  EXPECT_EQ(*strict.refusal_of_host("2130706433"),
            "'2130706433' means 127.0.0.1 is loopback (127.0.0.0/8), not a public address "
            "(alerts.allow_private_receivers lists the ranges allowed)");
  // Names are judged when a delivery resolves them, not here.
  for (const char* host : {"hooks.example.com", "8.8.8.8", "2606:4700::1111", "localhost.example"})
    EXPECT_FALSE(strict.refusal_of_host(host)) << host;
  const ReceiverPolicy loopback({*parse_ip_range("127.0.0.0/8")});
  EXPECT_FALSE(loopback.refusal_of_host("127.0.0.1"));
  EXPECT_FALSE(loopback.refusal_of_host("127.1"));
  EXPECT_FALSE(loopback.refusal_of_host("localhost"));
  EXPECT_TRUE(loopback.refusal_of_host("169.254.169.254"));
}

TEST(WebhookAddress, ParsesRanges) {
  auto r = parse_ip_range("127.0.0.0/8");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->v6);
  EXPECT_EQ(r->prefix_len, 8);
  r = parse_ip_range("fd00::/8");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->v6);
  r = parse_ip_range("10.1.2.3");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->prefix_len, 32);
  std::string why;
  for (const char* bad : {"", "127.1/8", "0x7f000001", "127.0.0.0/33", "::1/129", "10.0.0.0/",
                          "10.0.0.0/-1", "10.0.0.0/8x", "localhost", "fd00::/8/8"}) {
    EXPECT_FALSE(parse_ip_range(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}
