// TCP connections: register with the worker (so a stop can close idle ones and the
// deadline sweep can close late ones), run the request loop of connection.hpp, close.

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

}  // namespace toolcalc::http
