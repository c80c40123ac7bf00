// TCP connections: register with the worker (so a stop can close idle ones and the
// deadline sweep can close late ones), run the request loop of connection.hpp, close.
#include <boost/beast/core/tcp_stream.hpp>

#include "core/service_metrics.hpp"
#include "http/connection.hpp"
#include "http/edge_read_socket.hpp"
#include "http/worker.hpp"

namespace toolcalc::http {

namespace {

// Removes the session from the worker's list, and gives back its places under the
// connection caps that admit took, however the coroutine ends.
struct Registration {
  Worker& worker;
  std::list<SessionHandle*>::iterator it;
  SharedState& shared;
  uint64_t address;
  Registration(Worker& w, SessionHandle* h, SharedState& s, uint64_t a)
      : worker(w), it(w.sessions.insert(w.sessions.end(), h)), shared(s), address(a) {
    metrics::connections_open.add(1);
  }
  ~Registration() {
    worker.sessions.erase(it);
    shared.open_connections.fetch_sub(1, std::memory_order_relaxed);
    shared.per_address.close(address);
    metrics::connections_open.add(-1);
  }
};

std::string peer_address(tcp::socket& socket) {
  beast::error_code ec;
  auto ep = socket.remote_endpoint(ec);
  return ec ? std::string() : ep.address().to_string();
}

}  // namespace

net::awaitable<void> run_session(SharedState& shared, Worker& worker, tcp::socket accepted,
                                 tcp::endpoint peer, uint64_t address) {
  EdgeReadSocket socket(std::move(accepted));
  beast::error_code ec;
  socket.set_option(tcp::no_delay(true), ec);
  socket.non_blocking(true, ec);  // connection.hpp writes a response at once when it fits
  if (shared.options.send_buffer_bytes > 0)
    socket.set_option(net::socket_base::send_buffer_size(shared.options.send_buffer_bytes), ec);
  ConnectionState state{shared.service, shared.options, shared.stopping,
                        peer.address().to_string()};
  SessionHandle handle{&socket, &state.idle, &state.deadline_ns};
  Registration registration(worker, &handle, shared, address);

  co_await serve_requests(state, socket);

  socket.shutdown(tcp::socket::shutdown_send, ec);
  socket.close(ec);
}

net::awaitable<void> reject_busy(SharedState& shared, tcp::socket socket) {
  const api::Response r = shared.service.transport_error(
      {ErrorCode::ServerBusy, "too many open connections; retry shortly", {}},
      peer_address(socket));
  std::string out;
  write_response(out, r, 11, false);
  beast::tcp_stream stream(std::move(socket));
  stream.expires_after(std::chrono::seconds(2));
  co_await net::async_write(stream, net::buffer(out), detail::use_tuple);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream.socket().close(ec);
}

}  // namespace toolcalc::http
