#pragma once
// Internal to http/: the state shared between the acceptor loop (server.cpp) and the
// sessions (session.cpp).
#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <list>
#include <optional>

#include "http/server.hpp"

namespace toolcalc::http {

namespace net = boost::asio;
using tcp = net::ip::tcp;

// A live connection, as seen by the stop logic: idle sessions are closed at once,
// busy ones finish their request first.
struct SessionHandle {
  tcp::socket* socket = nullptr;
  const bool* idle = nullptr;  // ConnectionState::idle of the session
};

struct Worker {
  net::io_context ioc{1};  // one thread per context: no strands, no locks
  std::optional<tcp::acceptor> acceptor;
  std::list<SessionHandle*> sessions;  // touched only on this worker's thread
};

struct SharedState {
  api::Service& service;
  ServerOptions options;
  std::atomic<bool> stopping{false};
  std::atomic<size_t> open_connections{0};
};

net::awaitable<void> run_session(SharedState& shared, Worker& worker, tcp::socket socket);
// Answers 503 SERVER_BUSY on a connection over the cap, then closes it.
net::awaitable<void> reject_busy(SharedState& shared, tcp::socket socket);

}  // namespace toolcalc::http
