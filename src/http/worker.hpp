#pragma once
// Internal to http/: the state shared between the acceptor loop (server.cpp) and the
// sessions (session.cpp).
#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <list>
#include <optional>
#include <utility>

#include "http/address_connections.hpp"
#include "http/server.hpp"

namespace toolcalc::http {

namespace net = boost::asio;
using tcp = net::ip::tcp;

// A live connection, as seen by the stop logic: idle sessions are closed at once,
// busy ones finish their request first.
struct SessionHandle {
  tcp::socket* socket = nullptr;
  const bool* idle = nullptr;            // ConnectionState::idle of the session
  const int64_t* deadline_ns = nullptr;  // ConnectionState::deadline_ns of the session
};

struct Worker {
  // One thread per context: no strands. Every socket operation, cancel included, runs on
  // that thread (a stop is posted to it), so the reactor's per-descriptor lock can go;
  // the scheduler keeps its lock for posts from other threads (stop, signals).
  net::io_context ioc{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  std::optional<tcp::acceptor> acceptor;
  std::list<SessionHandle*> sessions;  // touched only on this worker's thread
  // A descriptor held in reserve (/dev/null): when accept fails because the process is
  // out of descriptors, it is closed to accept one waiting connection, answer it 503 and
  // close it, then taken again (server.cpp, shed_one). -1 when it could not be reopened.
  int spare_fd = -1;
  bool shedding = false;  // out of descriptors since the last accept that worked
  uint64_t shed = 0;      // connections answered 503 for want of a descriptor, this episode
  ~Worker();
};

// How often a worker looks for sessions past their deadline: timeouts fire at most this
// late. Cheaper than a timer per socket operation, which costs a timer-queue insert and
// removal under the reactor's lock, twice per request at least.
inline constexpr auto kDeadlineSweepInterval = std::chrono::milliseconds(100);

struct SharedState {
  SharedState(api::Service& s, ServerOptions o)
      : service(s), options(std::move(o)), per_address(options.max_connections_per_address) {}

  api::Service& service;
  ServerOptions options;
  std::atomic<bool> stopping{false};
  std::atomic<size_t> open_connections{0};
  AddressConnections per_address;  // counted at accept and close, across the workers
};

// `address`: the peer's address_key, which the session gives back to per_address at its end.
net::awaitable<void> run_session(SharedState& shared, Worker& worker, tcp::socket socket,
                                 tcp::endpoint peer, uint64_t address);

}  // namespace toolcalc::http
