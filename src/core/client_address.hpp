#pragma once
// What counts as one client wherever the service limits clients by source address (the
// connection cap per address, http/address_connections.hpp; the failed admin
// authentications, api/admin_guard.hpp): an IPv4 address (an IPv4-mapped IPv6 address, as
// a dual-stack listener sees IPv4 clients, counts as the IPv4 address), or an IPv6
// address's /64 — the smallest prefix a site is given (RFC 6177), inside which one client
// can choose any of 2^64 source addresses. Each is one 64-bit key; no IPv4 key equals an
// IPv6 /64's.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace toolcalc {

// An IPv4 address, in host byte order (as asio's address_v4::to_uint gives it).
uint64_t client_address_key(uint32_t ipv4);

// An IPv6 address: its 16 bytes in network order (asio's address_v6::to_bytes).
uint64_t client_address_key(const std::array<unsigned char, 16>& ipv6);

// An address in text form, as the server writes a peer's ("192.0.2.1", "2001:db8::1",
// "::ffff:192.0.2.1", "fe80::1%eth0": the zone is not part of the address); nullopt when
// `text` is not an address.
std::optional<uint64_t> client_address_key(std::string_view text);

}  // namespace toolcalc
