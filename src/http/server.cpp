#include "http/server.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/clock.hpp"
#include "core/event_loop.hpp"
#include "core/log.hpp"
#include "core/service_metrics.hpp"
#include "http/response_writer.hpp"
#include "http/worker.hpp"

namespace toolcalc::http {

namespace {

// What a connection's or a loop's coroutine ends with: an exception that escaped it (a
// defect: everything expected is handled inside) is logged with its message, never
// dropped; the server goes on.
void log_escaped_exception(std::exception_ptr e) {
  if (!e) return;
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    log::error("a connection ended with an exception", {{"error", ex.what()}});
  } catch (...) {
    log::error("a connection ended with an exception", {{"error", "not a std::exception"}});
  }
}

int open_spare_fd() {
  return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

bool out_of_descriptors(const boost::system::error_code& ec) {
  return ec == net::error::no_descriptors ||
         ec == boost::system::errc::too_many_files_open_in_system;
}
// The most connections taken from the accept queue at one wake-up: the listen backlog
// (max_listen_connections, the kernel's somaxconn, 4096 on current kernels), so one
// wake-up can empty it, while a flood of new connections cannot hold the thread forever.
constexpr int kAcceptBatch = 4096;

// The 503 of a connection over the server's cap or accepted while out of descriptors.
constexpr std::string_view kServerBusy = "too many open connections; retry shortly";

}  // namespace

Worker::~Worker() {
  if (spare_fd >= 0) ::close(spare_fd);
}

struct Server::Impl {
  SharedState shared;
  std::vector<std::unique_ptr<Worker>> workers;
  uint16_t bound_port = 0;
  std::once_flag drain_once;
  std::once_flag stop_once;
  std::optional<net::signal_set> signals;
  std::mutex stop_mutex;
  std::condition_variable stop_cv;
  bool finished = false;
  std::optional<net::steady_timer> drain_timer;  // on the first worker's context
  // When the refusals over server.max_connections_per_address were last logged (steady
  // clock, ns; 0: never): a flood of them is one line a minute.
  std::atomic<int64_t> last_address_cap_log_ns{0};
  static constexpr int64_t kAddressCapLogInterval = int64_t{60} * 1'000'000'000;

  Impl(api::Service& service, ServerOptions options) : shared{service, std::move(options)} {}

  // Accepts every connection the kernel has queued at each wake-up, up to kAcceptBatch,
  // not one: a client whose handshake completed has usually sent its request already and
  // its latency is running. Taking one connection per turn of the event loop (what a
  // plain async_accept loop does: its completion goes to the back of the queue behind
  // every ready connection) leaves thousands of connections in the accept queue for
  // seconds while the accepted ones are served again and again (docs/performance.md,
  // "Fairness under many connections").
  net::awaitable<void> accept_loop(Worker& worker) {
    boost::system::error_code ec;
    worker.acceptor->non_blocking(true, ec);  // the draining accepts below never block
    tcp::endpoint peer;  // from accept's own result: no getpeername(2) per connection
    for (;;) {
      auto [aec, socket] =
          co_await worker.acceptor->async_accept(peer, net::as_tuple(net::use_awaitable));
      if (shared.stopping.load()) co_return;
      if (aec) {
        if (aec == net::error::operation_aborted) co_return;
        // Out of descriptors: the connections waiting in the backlog are answered 503 with
        // the spare descriptor, one at a time, instead of hanging there until their
        // clients give up. Anything else (or no spare): back off briefly rather than spin.
        if (out_of_descriptors(aec) && shed_one(worker)) continue;
        net::steady_timer pause(worker.ioc, std::chrono::milliseconds(50));
        co_await pause.async_wait(net::as_tuple(net::use_awaitable));
        continue;
      }
      admit(worker, std::move(socket), peer);
      for (int n = 1; n < kAcceptBatch; ++n) {
        tcp::socket next(worker.ioc);
        worker.acceptor->accept(next, peer, ec);
        if (ec) break;  // would_block: none left; an error: the next async_accept reports it
        admit(worker, std::move(next), peer);
      }
    }
  }

  // Accepts one waiting connection with the spare descriptor, answers it 503 SERVER_BUSY
  // and closes it. False when there was no spare or no connection waiting.
  bool shed_one(Worker& worker) {
    if (worker.spare_fd < 0) worker.spare_fd = open_spare_fd();
    if (worker.spare_fd < 0) return false;
    ::close(worker.spare_fd);
    const int fd =
        ::accept4(worker.acceptor->native_handle(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      if (!worker.shedding)
        log::warn("out of file descriptors: answering new connections 503 until some close");
      worker.shedding = true;
      ++worker.shed;
      metrics::connections_refused.inc();
      send_busy(fd, kServerBusy);
      ::shutdown(fd, SHUT_WR);
      ::close(fd);
    }
    worker.spare_fd = open_spare_fd();
    return fd >= 0;
  }

  // A session for an accepted connection, or 503 SERVER_BUSY over a cap: the address's
  // (checked first, so that an address over its own cap takes nothing from the others),
  // then the server's.
  void admit(Worker& worker, tcp::socket socket, const tcp::endpoint& peer) {
    metrics::connections_accepted.inc();
    if (worker.shedding) {
      worker.shedding = false;
      log::warn("accepting connections again", {{"shed_connections", std::to_string(worker.shed)}});
      worker.shed = 0;
    }
    const uint64_t address = address_key(peer.address());
    if (!shared.per_address.try_open(address)) return refuse_over_address_cap(socket);
    if (shared.open_connections.fetch_add(1) >= shared.options.max_connections) {
      shared.open_connections.fetch_sub(1);
      shared.per_address.close(address);
      metrics::connections_refused.inc();
      return refuse(socket, kServerBusy);
    }
    net::co_spawn(worker.ioc, run_session(shared, worker, std::move(socket), peer, address),
                  log_escaped_exception);
  }

  // 503 SERVER_BUSY (at the address's cap, as nginx's limit_conn answers by default:
  // limit_conn_status), written at once without reading the request, then closed: no
  // session, no timer, so that connections opened in a loop cost little more than the
  // accepts. The answer is a few hundred bytes, which a fresh connection's send buffer
  // always takes; a client that already sent its request may see a reset instead.
  // Neither the store nor the access log sees it (Service::connection_refused): the
  // counters, and for the address's cap the line a minute below, are what an operator
  // sees of a flood.
  void refuse(tcp::socket& socket, std::string_view message) {
    send_busy(socket.native_handle(), message);
    boost::system::error_code ec;
    socket.shutdown(tcp::socket::shutdown_send, ec);
    socket.close(ec);
  }

  // Sends the 503 SERVER_BUSY on a freshly accepted connection without waiting (refuse
  // says why that is enough); a client that is gone or slow loses it, which costs nothing.
  void send_busy(int fd, std::string_view message) {
    const api::Response r =
        shared.service.connection_refused({ErrorCode::ServerBusy, std::string(message), {}});
    std::string out;
    write_response(out, r, 11, false);
    (void)::send(fd, out.data(), out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  }

  void refuse_over_address_cap(tcp::socket& socket) {
    metrics::connections_refused_per_address.inc();
    const int64_t now = coarse_monotonic_ns();
    int64_t logged = last_address_cap_log_ns.load(std::memory_order_relaxed);
    if ((logged == 0 || now - logged >= kAddressCapLogInterval) &&
        last_address_cap_log_ns.compare_exchange_strong(logged, now))
      log::warn(
          "an address holds server.max_connections_per_address: its new connections "
          "are answered 503 (logged at most once a minute; behind a proxy, every client "
          "has the proxy's address)",
          {{"max_connections_per_address",
            std::to_string(shared.options.max_connections_per_address)}});
    refuse(socket, "too many open connections from this address; retry shortly");
  }

  // Cancels the pending operation of every session past its deadline (ConnectionState::
  // deadline_ns); the session sees operation_aborted and closes. Ends once the server
  // stops and the worker has no session left, so that run() can return.
  net::awaitable<void> deadline_sweep(Worker& worker) {
    net::steady_timer timer(worker.ioc);
    for (;;) {
      timer.expires_after(kDeadlineSweepInterval);
      co_await timer.async_wait(net::as_tuple(net::use_awaitable));
      if (shared.stopping.load() && worker.sessions.empty()) co_return;
      const int64_t now = coarse_monotonic_ns();  // the clock of ConnectionState::set_deadline
      boost::system::error_code ec;
      for (SessionHandle* s : worker.sessions)
        if (*s->deadline_ns != 0 && now >= *s->deadline_ns) s->socket->cancel(ec);
    }
  }

  // Runs on the worker's own thread: no other thread touches its acceptor or sessions.
  void stop_worker(Worker& worker) {
    boost::system::error_code ec;
    if (worker.acceptor) worker.acceptor->close(ec);
    for (SessionHandle* s : worker.sessions)
      if (*s->idle && s->socket) s->socket->cancel(ec);  // busy ones finish, then close
  }
};

Server::Server(api::Service& service, ServerOptions options)
    : impl_(std::make_unique<Impl>(service, std::move(options))) {
  if (impl_->shared.options.threads < 1) impl_->shared.options.threads = 1;
}

Server::~Server() = default;

void Server::bind() {
  const auto& o = impl_->shared.options;
  const auto address = net::ip::make_address(o.host);
  uint16_t port = o.port;
  for (int i = 0; i < o.threads; ++i) {
    auto worker = std::make_unique<Worker>();
    tcp::endpoint endpoint(address, port);
    worker->acceptor.emplace(worker->ioc);
    worker->acceptor->open(endpoint.protocol());
    worker->acceptor->set_option(net::socket_base::reuse_address(true));
    // SO_REUSEPORT: the kernel spreads connections across the per-thread acceptors.
    int one = 1;
    ::setsockopt(worker->acceptor->native_handle(), SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    worker->acceptor->bind(endpoint);
    worker->acceptor->listen(net::socket_base::max_listen_connections);
    worker->spare_fd = open_spare_fd();
    port = worker->acceptor->local_endpoint().port();  // port 0 → the one the kernel chose
    impl_->workers.push_back(std::move(worker));
  }
  impl_->bound_port = port;
  // Catch SIGTERM/SIGINT from now on (before the caller announces readiness), so a stop
  // that arrives before run() is queued and handled gracefully, never fatal.
  impl_->signals.emplace(impl_->workers.front()->ioc, SIGINT, SIGTERM);
  impl_->signals->async_wait([this](const boost::system::error_code& ec, int) {
    if (!ec) stop();
  });
}

uint16_t Server::port() const {
  return impl_->bound_port;
}

void Server::run() {
  if (impl_->workers.empty()) bind();
  Worker& first = *impl_->workers.front();
  for (auto& w : impl_->workers) {
    net::co_spawn(w->ioc, impl_->accept_loop(*w), log_escaped_exception);
    net::co_spawn(w->ioc, impl_->deadline_sweep(*w), log_escaped_exception);
  }

  // Watchdog: once a stop begins, in-flight requests get shutdown_grace_s to finish.
  std::thread watchdog([this] {
    std::unique_lock lock(impl_->stop_mutex);
    impl_->stop_cv.wait(lock, [this] { return impl_->shared.stopping.load(); });
    const auto grace = std::chrono::seconds(impl_->shared.options.shutdown_grace_s);
    if (!impl_->stop_cv.wait_for(lock, grace, [this] { return impl_->finished; }))
      for (auto& w : impl_->workers) w->ioc.stop();
  });

  std::vector<std::thread> threads;
  for (size_t i = 1; i < impl_->workers.size(); ++i)
    threads.emplace_back([w = impl_->workers[i].get()] {
      const EventLoopScope loop(w->ioc);  // a shared store's replies come back on it
      w->ioc.run();
    });
  {
    const EventLoopScope loop(first.ioc);
    first.ioc.run();
  }
  for (auto& t : threads) t.join();

  {
    std::lock_guard lock(impl_->stop_mutex);
    impl_->shared.stopping.store(true);  // also when every context ran out of work
    impl_->finished = true;
  }
  impl_->stop_cv.notify_all();
  watchdog.join();
  impl_->drain_timer.reset();
  impl_->signals.reset();
}

void Server::stop() {
  impl_->shared.service.set_draining();  // GET /v1/ready: 503 from now on
  if (impl_->workers.empty()) {          // never bound: nothing to drain
    impl_->shared.stopping.store(true);
    return;
  }
  std::call_once(impl_->drain_once, [this] {
    const int delay = impl_->shared.options.drain_delay_s;
    if (delay <= 0) return close_and_finish();
    log::info("draining: readiness answers 503; the listener stays open for the drain delay",
              {{"drain_delay_s", std::to_string(delay)}});
    // Serve on for the delay, so that balancers that probe readiness stop sending here
    // first; then close the listener and let in-flight requests finish.
    Worker& first = *impl_->workers.front();
    net::post(first.ioc, [this, &first, delay] {
      impl_->drain_timer.emplace(first.ioc, std::chrono::seconds(delay));
      impl_->drain_timer->async_wait(
          [this](const boost::system::error_code&) { close_and_finish(); });
    });
  });
}

void Server::close_and_finish() {
  std::call_once(impl_->stop_once, [this] {
    log::info("stopping: the listener is closed; requests in flight may finish",
              {{"shutdown_grace_s", std::to_string(impl_->shared.options.shutdown_grace_s)}});
    {
      std::lock_guard lock(impl_->stop_mutex);
      impl_->shared.stopping.store(true);
    }
    impl_->stop_cv.notify_all();
    for (auto& w : impl_->workers) {
      Worker* worker = w.get();
      net::post(worker->ioc, [this, worker] { impl_->stop_worker(*worker); });
    }
    // The signal set keeps the first context busy; cancel it on that context's thread.
    net::post(impl_->workers.front()->ioc, [this] {
      boost::system::error_code ec;
      if (impl_->signals) impl_->signals->cancel(ec);
    });
  });
}

}  // namespace toolcalc::http
