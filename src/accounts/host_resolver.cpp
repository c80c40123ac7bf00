#include "accounts/host_resolver.hpp"

#include <netdb.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace toolcalc::accounts {
namespace {

std::atomic<int> resolutions_under_way{0};

// Shared by the caller and the resolving thread: whichever lets go last frees it.
struct Resolution {
  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  int rc = 0;
  addrinfo* list = nullptr;
  ~Resolution() {
    if (list) ::freeaddrinfo(list);
  }
};

std::vector<ResolvedAddress> copy_tcp(const addrinfo* list) {
  std::vector<ResolvedAddress> out;
  for (const addrinfo* a = list; a; a = a->ai_next) {
    if (a->ai_family != AF_INET && a->ai_family != AF_INET6) continue;
    if (a->ai_addrlen > sizeof(sockaddr_storage)) continue;
    ResolvedAddress r;
    std::memcpy(&r.addr, a->ai_addr, a->ai_addrlen);
    r.len = a->ai_addrlen;
    r.family = a->ai_family;
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

}  // namespace

std::vector<ResolvedAddress> resolve_host(const std::string& host, int port,
                                          std::chrono::steady_clock::time_point deadline,
                                          std::string& error) {
  const std::string service = std::to_string(port);
  {
    const addrinfo hints = tcp_hints(AI_NUMERICHOST | AI_NUMERICSERV);
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &found) == 0) {
      std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, ::freeaddrinfo);
      return copy_tcp(found);
    }
  }
  if (resolutions_under_way.fetch_add(1) >= kMaxResolutionsUnderWay) {
    resolutions_under_way.fetch_sub(1);
    error = "cannot resolve the host: too many name resolutions under way";
    return {};
  }
  auto job = std::make_shared<Resolution>();
  try {
    std::thread([job, host, service] {
      const addrinfo hints = tcp_hints(AI_NUMERICSERV);
      addrinfo* found = nullptr;
      const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
      resolutions_under_way.fetch_sub(1);
      std::lock_guard lock(job->mu);
      job->rc = rc;
      job->list = found;
      job->done = true;
      job->done_cv.notify_all();
    }).detach();
  } catch (const std::system_error& e) {
    resolutions_under_way.fetch_sub(1);
    error = std::string("cannot resolve the host: ") + e.what();
    return {};
  }
  std::unique_lock lock(job->mu);
  if (!job->done_cv.wait_until(lock, deadline, [&] { return job->done; })) {
    error = "cannot resolve the host: timed out";
    return {};
  }
  if (job->rc != 0) {
    error = std::string("cannot resolve the host: ") + ::gai_strerror(job->rc);
    return {};
  }
  auto out = copy_tcp(job->list);
  if (out.empty()) error = "cannot resolve the host: no IPv4 or IPv6 address";
  return out;
}

}  // namespace toolcalc::accounts
