#pragma once
// The request loop of one connection, generic over the stream so that the same code
// serves TCP (session.cpp) and Beast's in-memory test stream (the HTTP fuzzer).
// Read a request, hand it to the API, write the response, repeat while keep-alive holds.
// Pipelined requests are served in order: each response is written before the next
// request is parsed from the same buffer.
#include <array>
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>

#include "api/service.hpp"
#include "core/clock.hpp"
#include "http/common_request.hpp"
#include "http/request_parser.hpp"
#include "http/response_writer.hpp"
#include "http/server.hpp"

namespace toolcalc::http {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

struct ConnectionState {
  api::Service& service;
  const ServerOptions& options;
  const std::atomic<bool>& stopping;
  std::string peer_ip;
  bool idle = true;  // waiting for a request: a stop may close it at once
  // When the pending read or write must have completed (steady clock, ns); 0: no limit.
  // The worker's sweep timer cancels a TCP session's socket once it has passed
  // (server.cpp): one integer per request instead of a timer per operation. The
  // in-memory stream of the HTTP fuzzer has no sweeper.
  int64_t deadline_ns = 0;

  // On the coarse monotonic clock (core/clock.hpp), as the sweep reads it: timeouts are
  // whole seconds and the sweep runs every 100 ms.
  void set_deadline(int seconds) {
    deadline_ns = coarse_monotonic_ns() + static_cast<int64_t>(seconds) * 1'000'000'000;
  }
};

namespace detail {

inline constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
inline constexpr std::size_t kReadSize = 16 * 1024;

inline std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

inline ApiError transport_error_for(const beast::error_code& ec, const ServerOptions& o) {
  if (ec == bhttp::error::header_limit)
    return {431,
            "HEADERS_TOO_LARGE",
            "request header block exceeds " + std::to_string(o.header_limit) + " bytes",
            {}};
  if (ec == bhttp::error::body_limit)
    return {413,
            "PAYLOAD_TOO_LARGE",
            "request body exceeds " + std::to_string(o.body_limit) + " bytes",
            {}};
  return {400, "BAD_REQUEST", "malformed HTTP request: " + ec.message(), {}};
}

// A parse error in the HTTP message (answered with an envelope), as opposed to the
// connection ending (timeout, reset, EOF), which is simply closed.
inline bool is_protocol_error(const beast::error_code& ec) {
  return ec.category() == beast::error_code(bhttp::error::header_limit).category() &&
         ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message;
}

// Only "chunked" framing is supported. Any other transfer coding (identity, gzip,
// "chunked, gzip"), or more than one Transfer-Encoding field, would leave the body length
// undefined — the request-smuggling case of RFC 9112 §6.3 — so it is refused and the
// connection closed.
inline bool transfer_encoding_refused(const RequestHead& head, const RequestParser& parser) {
  if (head.transfer_encoding_fields == 0) return false;
  return head.transfer_encoding_fields > 1 || !parser.chunked() ||
         !beast::iequals(trim(head.transfer_encoding), "chunked");
}

}  // namespace detail

// Serves requests on `stream` until the client closes, a deadline passes, keep-alive ends
// or the server stops. One request: wait for bytes (idle timeout), then feed everything
// buffered to the parser synchronously and read only when it needs more (read timeout,
// restarted when the header is complete), answer, write (write timeout).
template <class Stream>
net::awaitable<void> serve_requests(ConnectionState& state, Stream& stream) {
  using namespace detail;
  const ServerOptions& o = state.options;
  beast::flat_buffer buffer;
  std::string out;   // serialised responses; keeps its capacity across requests
  RequestHead head;  // the parsed request; keeps its capacities across requests
  api::Response response;                 // the answer; keeps its capacities across requests
  std::optional<net::steady_timer> wake;  // waits for a shared store's reply (rarely made)

  for (;;) {
    state.idle = true;
    if (state.stopping.load(std::memory_order_relaxed)) break;
    if (buffer.size() == 0) {
      state.set_deadline(o.idle_timeout_s);
      auto [rec, n] = co_await stream.async_read_some(buffer.prepare(kReadSize), use_tuple);
      if (rec) break;
      buffer.commit(n);
    }
    state.idle = false;
    state.set_deadline(o.read_timeout_s);

    head.clear();
    // The common request, whole in the buffer, is parsed by parse_common_request; any
    // other goes through Beast's parser exactly as before (common_request.hpp).
    bool keep_alive_requested = false;
    const auto* bytes = static_cast<const char*>(buffer.data().data());
    if (const CommonRequest common = parse_common_request(std::string_view(bytes, buffer.size()),
                                                          o.header_limit, o.body_limit, head);
        common.consumed > 0) {
      buffer.consume(common.consumed);
      keep_alive_requested = common.keep_alive;
    } else {
      head.clear();
      RequestParser parser(head);
      parser.header_limit(static_cast<std::uint32_t>(o.header_limit));
      parser.body_limit(o.body_limit);
      // Beast 1.81 counts header_limit only against bytes not yet consumed (the request
      // line is consumed on its own when the fields are incomplete): count the total here.
      std::size_t header_bytes = 0;
      beast::error_code ec;
      bool closed = false;
      while (!parser.is_done()) {
        if (buffer.size() > 0) {
          const bool header_was_done = parser.is_header_done();
          const std::size_t used = parser.put(buffer.data(), ec);
          buffer.consume(used);
          if (ec == bhttp::error::need_more) ec = {};
          if (ec) break;
          if (!header_was_done) {
            // Not eager yet: this put stopped at the end of the header at the latest.
            header_bytes += used;
            if (parser.is_header_done()) {
              if (header_bytes > o.header_limit)
                ec = bhttp::error::header_limit;
              else if (transfer_encoding_refused(head, parser))
                ec = bhttp::error::bad_transfer_encoding;
              if (ec) break;
              parser.eager(true);
              if (parser.is_done()) break;
              // Answer before reading the body: an oversized Content-Length was refused
              // above, and a client waiting on "Expect: 100-continue" is told to send.
              if (head.expect_continue) {
                static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
                state.set_deadline(o.write_timeout_s);
                auto [wec, wn] = co_await net::async_write(
                    stream, net::buffer(kContinue.data(), kContinue.size()), use_tuple);
                (void)wn;
                if (wec) {
                  closed = true;
                  break;
                }
              }
              state.set_deadline(o.read_timeout_s);  // the body has its own read timeout
              continue;                              // parse the body bytes already here
            }
            if (header_bytes + buffer.size() >= o.header_limit) {
              ec = bhttp::error::header_limit;
              break;
            }
          }
          if (parser.is_done()) break;
        }
        auto [rec, n] = co_await stream.async_read_some(buffer.prepare(kReadSize), use_tuple);
        if (rec) {
          closed = true;  // EOF, reset or a passed deadline: close without an answer
          break;
        }
        buffer.commit(n);
      }
      if (closed) break;
      if (ec) {
        if (!is_protocol_error(ec)) break;
        // Limits and malformed HTTP get an envelope, then the connection is closed: the
        // rest of the stream cannot be trusted to be at a message boundary.
        write_response(out,
                       state.service.transport_error(transport_error_for(ec, o), state.peer_ip), 11,
                       false);
        state.set_deadline(o.write_timeout_s);
        co_await net::async_write(stream, net::buffer(out), use_tuple);
        break;
      }
      keep_alive_requested = parser.keep_alive();
    }

    const api::Request request = to_api_request(head, state.peer_ip);
    response.clear();
    // A request whose counting waits on a shared store resumes when its reply arrives
    // (Service::handle_async): the thread serves other connections meanwhile.
    bool answered = false;
    if (!state.service.handle_async(request, response, [&answered, &wake] {
          answered = true;
          if (wake) wake->cancel();
        })) {
      if (!wake) wake.emplace(stream.get_executor());
      while (!answered) {
        wake->expires_at(net::steady_timer::time_point::max());
        co_await wake->async_wait(use_tuple);
      }
    }
    const bool keep_alive = keep_alive_requested && !state.stopping.load(std::memory_order_relaxed);
    const bool head_only = head.method == "HEAD";
    write_response(out, response, head.version, keep_alive, head_only);
    // The head, then a shared body prefix from where it lives (no copy of a 7.5 KB listing
    // per request), then the rest of the body: one gathered write, one sendmsg.
    const auto parts = response_parts(out, response, head_only);
    const std::array<net::const_buffer, 3> buffers{net::buffer(parts[0]), net::buffer(parts[1]),
                                                   net::buffer(parts[2])};
    // A response almost always fits the socket's send buffer: send it now, without
    // suspending the coroutine (the socket is non-blocking, session.cpp); only what does
    // not fit waits on an async_write, under the write timeout.
    beast::error_code wec;
    const std::size_t sent = stream.write_some(buffers, wec);
    if (wec == net::error::would_block || wec == net::error::try_again) wec = {};
    if (!wec && sent < net::buffer_size(buffers)) {
      beast::buffers_suffix<std::array<net::const_buffer, 3>> rest(buffers);
      rest.consume(sent);
      state.set_deadline(o.write_timeout_s);
      std::tie(wec, std::ignore) = co_await net::async_write(stream, rest, use_tuple);
    }
    if (wec || !keep_alive) break;
  }
}

}  // namespace toolcalc::http
