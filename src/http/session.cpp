// One HTTP/1.1 connection: read a request, hand it to the API, write the response, and
// repeat while keep-alive holds. Pipelined requests are served in order because each
// response is written before the next request is read from the same buffer.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

#include "http/worker.hpp"

namespace toolcalc::http {
namespace beast = boost::beast;
namespace bhttp = beast::http;

namespace {

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

bhttp::response<bhttp::string_body> to_beast(api::Response&& r, unsigned version, bool keep_alive) {
  bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(r.status), version};
  for (auto& [name, value] : r.headers) res.insert(name, value);
  if (!r.body.empty()) res.set(bhttp::field::content_type, "application/json; charset=utf-8");
  res.body() = std::move(r.body);
  res.keep_alive(keep_alive);
  res.prepare_payload();
  return res;
}

std::string_view field_or_empty(const bhttp::request<bhttp::string_body>& req, bhttp::field f) {
  auto it = req.find(f);
  return it == req.end() ? std::string_view{} : std::string_view(it->value());
}

// Removes the session from the worker's list however the coroutine ends.
struct Registration {
  Worker& worker;
  std::list<SessionHandle*>::iterator it;
  SharedState& shared;
  Registration(Worker& w, SessionHandle* h, SharedState& s)
      : worker(w), it(w.sessions.insert(w.sessions.end(), h)), shared(s) {}
  ~Registration() {
    worker.sessions.erase(it);
    shared.open_connections.fetch_sub(1, std::memory_order_relaxed);
  }
};

ApiError transport_error_for(const beast::error_code& ec, const ServerOptions& o) {
  if (ec == bhttp::error::header_limit)
    return {431, "HEADERS_TOO_LARGE",
            "request header block exceeds " + std::to_string(o.header_limit) + " bytes", {}};
  if (ec == bhttp::error::body_limit)
    return {413, "PAYLOAD_TOO_LARGE",
            "request body exceeds " + std::to_string(o.body_limit) + " bytes", {}};
  return {400, "BAD_REQUEST", "malformed HTTP request: " + ec.message(), {}};
}

bool is_protocol_error(const beast::error_code& ec) {
  return ec.category() == beast::error_code(bhttp::error::header_limit).category() &&
         ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message;
}

}  // namespace

net::awaitable<void> run_session(SharedState& shared, Worker& worker, tcp::socket socket) {
  const ServerOptions& o = shared.options;
  SessionHandle handle{&socket, true};
  Registration registration(worker, &handle, shared);

  beast::error_code ec;
  socket.set_option(tcp::no_delay(true), ec);
  std::string peer;
  {
    auto ep = socket.remote_endpoint(ec);
    if (!ec) peer = ep.address().to_string();
  }
  beast::tcp_stream stream(std::move(socket));
  handle.socket = &stream.socket();
  beast::flat_buffer buffer;

  for (;;) {
    handle.idle = true;
    if (shared.stopping.load(std::memory_order_relaxed)) break;
    // Wait for the first byte of the next request under the idle timeout; the request
    // itself must then arrive within the read timeout (slow senders are cut off).
    if (buffer.size() == 0) {
      stream.expires_after(std::chrono::seconds(o.idle_timeout_s));
      auto [rec, n] = co_await stream.async_read_some(buffer.prepare(4096), use_tuple);
      if (rec) break;
      buffer.commit(n);
    }
    handle.idle = false;

    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(o.header_limit));
    parser.body_limit(o.body_limit);
    stream.expires_after(std::chrono::seconds(o.read_timeout_s));
    auto [hec, hn] = co_await bhttp::async_read_header(stream, buffer, parser, use_tuple);
    (void)hn;
    if (!hec && !parser.is_done()) {
      // Answer before reading the body: an oversized Content-Length is refused here, and
      // a client waiting on "Expect: 100-continue" is told to send.
      const auto& header = parser.get();
      auto expect = header.find(bhttp::field::expect);
      if (expect != header.end() && beast::iequals(expect->value(), "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        auto [wec, wn] = co_await net::async_write(
            stream, net::buffer(kContinue.data(), kContinue.size()), use_tuple);
        (void)wn;
        if (wec) break;
      }
      auto [bec, bn] = co_await bhttp::async_read(stream, buffer, parser, use_tuple);
      (void)bn;
      hec = bec;
    }
    if (hec) {
      if (!is_protocol_error(hec)) break;  // timeout, reset, or the client went away
      // Limits and malformed HTTP get an envelope, then the connection is closed: the
      // rest of the stream cannot be trusted to be at a message boundary.
      api::Response r = shared.service.transport_error(transport_error_for(hec, o), peer);
      auto res = to_beast(std::move(r), 11, false);
      stream.expires_after(std::chrono::seconds(o.write_timeout_s));
      co_await bhttp::async_write(stream, res, use_tuple);
      break;
    }

    auto& req = parser.get();
    api::Request request;
    request.method = std::string_view(req.method_string());
    request.target = std::string_view(req.target());
    request.content_type = field_or_empty(req, bhttp::field::content_type);
    if (auto it = req.find(bhttp::field::authorization); it != req.end())
      request.authorization = std::string_view(it->value());
    request.origin = field_or_empty(req, bhttp::field::origin);
    request.body = req.body();
    request.peer_ip = peer;

    api::Response r = shared.service.handle(request);
    const bool keep_alive = req.keep_alive() && !shared.stopping.load(std::memory_order_relaxed);
    auto res = to_beast(std::move(r), req.version(), keep_alive);
    stream.expires_after(std::chrono::seconds(o.write_timeout_s));
    auto [wec, wn] = co_await bhttp::async_write(stream, res, use_tuple);
    (void)wn;
    if (wec || !keep_alive) break;
  }
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream.socket().close(ec);
}

net::awaitable<void> reject_busy(SharedState& shared, tcp::socket socket) {
  beast::error_code ec;
  std::string peer;
  if (auto ep = socket.remote_endpoint(ec); !ec) peer = ep.address().to_string();
  api::Response r = shared.service.transport_error(
      {503, "SERVER_BUSY", "too many open connections; retry shortly", {}}, peer);
  r.set_header("Retry-After", "1");
  auto res = to_beast(std::move(r), 11, false);
  beast::tcp_stream stream(std::move(socket));
  stream.expires_after(std::chrono::seconds(2));
  co_await bhttp::async_write(stream, res, use_tuple);
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream.socket().close(ec);
}

}  // namespace toolcalc::http
