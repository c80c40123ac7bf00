#pragma once
// The HTTP/1.1 front on Boost.Beast (docs/architecture.md): one io_context per thread, each with
// its own SO_REUSEPORT acceptor, coroutine sessions with keep-alive and pipelining,
// header/body limits, timeouts, a connection cap (in all and per address) and a graceful
// stop.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "api/service.hpp"

namespace toolcalc::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;  // 0: any free port (see Server::port())
  int threads = 1;
  size_t max_connections = 4096;
  // The most one client address (an IPv6 client's /64) may hold; one more is answered 503
  // SERVER_BUSY and closed (http/address_connections.hpp). 0: no limit.
  size_t max_connections_per_address = 256;
  int read_timeout_s = 10;  // headers, then body, must each arrive within this
  int idle_timeout_s = 30;  // keep-alive wait for the next counted request
  int write_timeout_s = 10;
  int shutdown_grace_s = 10;  // in-flight requests get this long to finish on stop
  // On stop, serve on (readiness 503, no keep-alive) this long before closing the listener.
  int drain_delay_s = 0;
  size_t header_limit = 8 * 1024;  // → 431
  size_t body_limit = 64 * 1024;   // → 413, before the body is read
  // SO_SNDBUF of each connection, as nginx's `listen … sndbuf=`; 0: the kernel's, which
  // grows with the connection (tests make it small to see responses sent in parts).
  int send_buffer_bytes = 0;
};

class Server {
 public:
  Server(api::Service& service, ServerOptions options);
  ~Server();

  // Binds every acceptor; throws std::system_error when the address is unusable.
  void bind();
  uint16_t port() const;
  // Serves until stop() or SIGTERM/SIGINT, then drains in-flight requests and returns.
  void run();
  // Thread-safe and idempotent: mark the service draining (readiness 503), serve on for
  // drain_delay_s, then stop accepting, close idle connections and let in-flight requests
  // finish (up to shutdown_grace_s).
  void stop();

 private:
  void close_and_finish();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace toolcalc::http
