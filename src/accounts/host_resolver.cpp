#include "accounts/host_resolver.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "core/text.hpp"

namespace toolcalc::accounts {
namespace {

// One name's lookup, shared by its thread and every caller waiting for it: whichever lets
// go last frees it.
struct Lookup {
  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  NameLookupResult result;
};

// The lookups under way, by host name (lowercase): a caller for a name joins its lookup.
std::mutex lookups_mu;
std::map<std::string, std::shared_ptr<Lookup>> lookups_under_way;
NameLookup name_lookup;  // empty: getaddrinfo

std::vector<ResolvedAddress> copy_tcp(const addrinfo* list) {
  std::vector<ResolvedAddress> out;
  for (const addrinfo* a = list; a; a = a->ai_next) {
    if (a->ai_family != AF_INET && a->ai_family != AF_INET6) continue;
    if (a->ai_addrlen > sizeof(sockaddr_storage)) continue;
    ResolvedAddress r;
    std::memcpy(&r.addr, a->ai_addr, a->ai_addrlen);
    r.len = a->ai_addrlen;
    r.socktype = a->ai_socktype;
    r.protocol = a->ai_protocol;
    out.push_back(r);
  }
  return out;
}

addrinfo tcp_hints(int flags) {
  addrinfo hints{};
  hints.ai_flags = flags;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  return hints;
}

// The name without a port: one lookup serves every port of the host.
NameLookupResult system_lookup(const std::string& host) {
  const addrinfo hints = tcp_hints(0);
  addrinfo* found = nullptr;
  NameLookupResult out;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0) {
    out.error = ::gai_strerror(rc);
    return out;
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, ::freeaddrinfo);
  out.addresses = copy_tcp(found);
  return out;
}

void set_port(ResolvedAddress& a, int port) {
  const auto p = htons(static_cast<uint16_t>(port));
  if (a.family() == AF_INET) reinterpret_cast<sockaddr_in&>(a.addr).sin_port = p;
  if (a.family() == AF_INET6) reinterpret_cast<sockaddr_in6&>(a.addr).sin6_port = p;
}

}  // namespace

void set_name_lookup(NameLookup lookup) {
  std::lock_guard lock(lookups_mu);
  name_lookup = std::move(lookup);
}

size_t name_lookups_under_way() {
  std::lock_guard lock(lookups_mu);
  return lookups_under_way.size();
}

std::optional<std::vector<ResolvedAddress>> numeric_host_addresses(const std::string& host,
                                                                   int port) {
  const std::string service = std::to_string(port);
  const addrinfo hints = tcp_hints(AI_NUMERICHOST | AI_NUMERICSERV);
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &found) != 0) return std::nullopt;
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, ::freeaddrinfo);
  return copy_tcp(found);
}

std::vector<ResolvedAddress> resolve_host(const std::string& host, int port,
                                          std::chrono::steady_clock::time_point deadline,
                                          std::string& error, bool* postponed) {
  if (postponed) *postponed = false;
  if (auto literal = numeric_host_addresses(host, port)) return std::move(*literal);
  const std::string name = ascii_lowercase(host);
  std::shared_ptr<Lookup> job;
  {
    std::lock_guard lock(lookups_mu);
    if (auto it = lookups_under_way.find(name); it != lookups_under_way.end()) {
      job = it->second;
    } else {
      if (lookups_under_way.size() >= kMaxResolutionsUnderWay) {
        if (postponed) *postponed = true;
        error = "cannot resolve the host: too many name resolutions under way";
        return {};
      }
      job = std::make_shared<Lookup>();
      NameLookup lookup = name_lookup ? name_lookup : NameLookup(system_lookup);
      try {
        std::thread([job, name, lookup = std::move(lookup)] {
          NameLookupResult r = lookup(name);
          {
            std::lock_guard lock(lookups_mu);
            const auto it = lookups_under_way.find(name);
            if (it != lookups_under_way.end() && it->second == job) lookups_under_way.erase(it);
          }
          std::lock_guard lock(job->mu);
          job->result = std::move(r);
          job->done = true;
          job->done_cv.notify_all();
        }).detach();
      } catch (const std::system_error& e) {
        if (postponed) *postponed = true;
        error = std::string("cannot resolve the host: ") + e.what();
        return {};
      }
      lookups_under_way.emplace(name, job);
    }
  }
  std::unique_lock lock(job->mu);
  if (!job->done_cv.wait_until(lock, deadline, [&] { return job->done; })) {
    error = "cannot resolve the host: timed out";
    return {};
  }
  if (!job->result.error.empty()) {
    error = "cannot resolve the host: " + job->result.error;
    return {};
  }
  std::vector<ResolvedAddress> out = job->result.addresses;
  for (ResolvedAddress& a : out) set_port(a, port);
  if (out.empty()) error = "cannot resolve the host: no IPv4 or IPv6 address";
  return out;
}

}  // namespace toolcalc::accounts
