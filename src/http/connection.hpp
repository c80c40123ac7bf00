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
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffer_traits.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>

#include "api/service.hpp"
#include "core/clock.hpp"
#include "core/text.hpp"
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

  // When the keep-alive wait for the next request ends. Only a counted request (one checked
  // against a caller's rate window) starts a new wait; an uncounted one (api::Response::
  // uncounted) is answered within the wait already running, so that a client sending
  // only CORS preflights or health checks cannot hold a connection open at no cost.
  int64_t idle_until_ns = 0;

  // On the coarse monotonic clock (core/clock.hpp), as the sweep reads it: timeouts are
  // whole seconds and the sweep runs every 100 ms.
  void set_deadline(int seconds) {
    deadline_ns = coarse_monotonic_ns() + static_cast<int64_t>(seconds) * 1'000'000'000;
  }
  void renew_idle(int seconds) {
    idle_until_ns = coarse_monotonic_ns() + static_cast<int64_t>(seconds) * 1'000'000'000;
  }
};

namespace detail {

inline constexpr auto use_tuple = net::as_tuple(net::use_awaitable);
inline constexpr std::size_t kReadSize = 16 * 1024;

inline ApiError transport_error_for(const beast::error_code& ec, const ServerOptions& o) {
  if (ec == bhttp::error::header_limit)
    return {ErrorCode::HeadersTooLarge,

            "request header block exceeds " + std::to_string(o.header_limit) + " bytes",
            {}};
  if (ec == bhttp::error::body_limit)
    return {ErrorCode::PayloadTooLarge,

            "request body exceeds " + std::to_string(o.body_limit) + " bytes",
            {}};
  return {ErrorCode::BadRequest, "malformed HTTP request: " + ec.message(), {}};
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
         !iequals(trim(head.transfer_encoding), "chunked");
}

// RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any
// HTTP/1.1 request message that lacks a Host header field and to any request message that
// contains more than one Host header field". (A missing Host is still served: clients of
// HTTP/1.0 send none, and the service reads Host only in development mode.)
inline ApiError repeated_host_error() {
  return {ErrorCode::BadRequest, "malformed HTTP request: more than one Host header", {}};
}

// Wakes a coroutine waiting to read from `stream` (operation_aborted). The HTTP fuzzer's
// in-memory stream has no cancel: it is closed instead.
template <class Stream>
void cancel_read(Stream& stream) {
  if constexpr (requires(beast::error_code & ec) { stream.cancel(ec); }) {
    beast::error_code ec;
    stream.cancel(ec);
  } else {
    stream.close();
  }
}

}  // namespace detail

// What a connection keeps from one request to the next, so that a request reuses the
// capacity of the last one's buffers.
struct Exchange {
  beast::flat_buffer buffer;  // bytes read and not yet parsed
  std::string out;            // the serialised response head (and body, when it is copied)
  RequestHead head;           // the parsed request
  // The API's view of `head`, kept here because an answer that waits (a shared store's
  // reply, an analysis on the pool) reads it after handle_async has returned.
  api::Request request;
  api::Response response;
  std::optional<net::steady_timer> wake;  // parks the coroutine until `answered`
  bool answered = false;
  // An answer that waits is sent by its `done` when the coroutine is already waiting for
  // the next request (serve_requests): what that send left to the coroutine.
  struct SentByDone {
    bool expected = false;    // `done` sends (set while the coroutine reads on)
    bool keep_alive = false;  // the request's, then the response's
    bool failed = false;      // the connection failed: close
    std::optional<beast::buffers_suffix<std::array<net::const_buffer, 3>>> rest;  // unsent
  } by_done;
};

// --- reading a request ------------------------------------------------------------------

enum class ReadOutcome {
  Ready,    // exchange.head holds a request
  Closed,   // EOF, reset or a passed deadline: close without an answer
  Refused,  // a limit or malformed HTTP: answer with `refusal`, then close
};

struct ReadResult {
  ReadOutcome outcome = ReadOutcome::Ready;
  bool keep_alive = false;  // the client asked to keep the connection open
  ApiError refusal = {};
};

// The common request, whole in the buffer, parsed without Beast (common_request.hpp):
// true when it was, false when Beast's parser must read it (read_request_with_beast).
inline bool parse_buffered_request(Exchange& x, const ServerOptions& o, ReadResult& read) {
  x.head.clear();
  const auto* bytes = static_cast<const char*>(x.buffer.data().data());
  const CommonRequest common = parse_common_request(std::string_view(bytes, x.buffer.size()),
                                                    o.header_limit, o.body_limit, x.head);
  if (common.consumed == 0) return false;
  x.buffer.consume(common.consumed);
  read.keep_alive = common.keep_alive;
  return true;
}

// Any other request, through Beast's parser: reads until the message is complete. An
// oversized Content-Length is refused before the body is read, and a client waiting on
// "Expect: 100-continue" is told to send.
template <class Stream>
net::awaitable<ReadResult> read_request_with_beast(ConnectionState& state, Stream& stream,
                                                   Exchange& x) {
  using namespace detail;
  const ServerOptions& o = state.options;
  x.head.clear();
  RequestParser parser(x.head);
  parser.header_limit(static_cast<std::uint32_t>(o.header_limit));
  parser.body_limit(o.body_limit);
  // Beast 1.81 counts header_limit only against bytes not yet consumed (the request line
  // is consumed on its own when the fields are incomplete): count the total here.
  std::size_t header_bytes = 0;
  beast::error_code ec;
  while (!parser.is_done()) {
    if (x.buffer.size() > 0) {
      const bool header_was_done = parser.is_header_done();
      const std::size_t used = parser.put(x.buffer.data(), ec);
      x.buffer.consume(used);
      if (ec == bhttp::error::need_more) ec = {};
      if (ec) break;
      if (!header_was_done) {
        // Not eager yet: this put stopped at the end of the header at the latest.
        header_bytes += used;
        if (parser.is_header_done()) {
          if (header_bytes > o.header_limit)
            ec = bhttp::error::header_limit;
          else if (transfer_encoding_refused(x.head, parser))
            ec = bhttp::error::bad_transfer_encoding;
          if (ec) break;
          if (x.head.host_fields > 1)
            co_return ReadResult{ReadOutcome::Refused, false, repeated_host_error()};
          parser.eager(true);
          if (parser.is_done()) break;
          if (x.head.expect_continue) {
            static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            state.set_deadline(o.write_timeout_s);
            auto [wec, wn] = co_await net::async_write(
                stream, net::buffer(kContinue.data(), kContinue.size()), use_tuple);
            (void)wn;
            if (wec) co_return ReadResult{ReadOutcome::Closed};
          }
          state.set_deadline(o.read_timeout_s);  // the body has its own read timeout
          continue;                              // parse the body bytes already here
        }
        if (header_bytes + x.buffer.size() >= o.header_limit) {
          ec = bhttp::error::header_limit;
          break;
        }
      }
      if (parser.is_done()) break;
    }
    auto [rec, n] = co_await stream.async_read_some(x.buffer.prepare(kReadSize), use_tuple);
    if (rec) co_return ReadResult{ReadOutcome::Closed};
    x.buffer.commit(n);
  }
  if (ec) {
    if (!is_protocol_error(ec)) co_return ReadResult{ReadOutcome::Closed};
    // Limits and malformed HTTP get an envelope, then the connection is closed: the rest
    // of the stream cannot be trusted to be at a message boundary.
    co_return ReadResult{ReadOutcome::Refused, false, transport_error_for(ec, o)};
  }
  co_return ReadResult{ReadOutcome::Ready, parser.keep_alive()};
}

// --- sending the response ---------------------------------------------------------------

// The head, then a shared body prefix from where it lives (no copy of a 7.5 KB listing per
// request), then the rest of the body: one gathered write. A response almost always fits
// the socket's send buffer, so it is sent at once without suspending the coroutine (the
// socket is non-blocking, session.cpp). Returns the bytes not yet sent (send_rest sends
// them), or std::nullopt when the connection failed.
template <class Stream>
std::optional<beast::buffers_suffix<std::array<net::const_buffer, 3>>> send_now(Stream& stream,
                                                                                Exchange& x,
                                                                                bool keep_alive) {
  const bool head_only = x.head.method == "HEAD";
  write_response(x.out, x.response, x.head.version, keep_alive, head_only);
  const auto parts = response_parts(x.out, x.response, head_only);
  const std::array<net::const_buffer, 3> buffers{net::buffer(parts[0]), net::buffer(parts[1]),
                                                 net::buffer(parts[2])};
  beast::error_code ec;
  const std::size_t sent = stream.write_some(buffers, ec);
  if (ec == net::error::would_block || ec == net::error::try_again) ec = {};
  if (ec) return std::nullopt;
  beast::buffers_suffix<std::array<net::const_buffer, 3>> rest(buffers);
  rest.consume(sent);
  return rest;
}

// What did not fit the send buffer, under the write timeout. False when it failed.
template <class Stream>
net::awaitable<bool> send_rest(ConnectionState& state, Stream& stream,
                               beast::buffers_suffix<std::array<net::const_buffer, 3>> rest) {
  state.set_deadline(state.options.write_timeout_s);
  auto [ec, n] = co_await net::async_write(stream, rest, detail::use_tuple);
  (void)n;
  co_return !ec;
}

// Whether the connection stays open after this answer. Draining (SIGTERM,
// server.drain_delay_s): each connection closes after its answer, so that clients
// reconnect to an instance that stays.
inline bool keeps_alive(const ConnectionState& state, bool requested) {
  return requested && !state.stopping.load(std::memory_order_relaxed) && !state.service.draining();
}

// An uncounted answer that finds the keep-alive wait over closes the connection
// (ConnectionState::idle_until_ns), telling the client with `Connection: close` rather
// than leaving it to the deadline sweep, which could race the client's next request.
// Counted answers pay one branch.
inline bool idle_wait_over(const ConnectionState& state, const api::Response& response) {
  return response.uncounted && coarse_monotonic_ns() >= state.idle_until_ns;
}

// --- answering it -------------------------------------------------------------------------

// Hands the request to the API. True when the response is complete; false when it waits
// (its counts' group commit, a shared store's reply, an analysis: Service::handle_async),
// and `done` comes later on this thread. Then either the coroutine parks on x.wake until
// `answered`, or, when the client has sent nothing more (x.by_done.expected), `done`
// sends the response itself while the coroutine already waits for the next request: one
// suspension per request instead of two, which matters when every response of a batch
// waits for the same commit. What that send cannot finish (a full socket buffer, a failed
// connection, its end) it leaves to the coroutine, which it wakes by cancelling the read.
//
// `done` captures one pointer (to `site`, on the coroutine's frame): a std::function keeps
// a callable of up to 16 bytes in place, and three references would cost an allocation on
// every request.
template <class Stream>
struct AnswerSite {
  ConnectionState& state;
  Stream& stream;
  Exchange& x;
};

template <class Stream>
bool answer(const AnswerSite<Stream>& site) {
  site.x.response.clear();
  site.x.answered = false;
  site.x.by_done = {};
  site.x.request = to_api_request(site.x.head, site.state.peer_ip);
  auto done = [&site] {
    ConnectionState& state = site.state;
    Stream& stream = site.stream;
    Exchange& x = site.x;
    x.answered = true;
    if (x.by_done.expected) {
      Exchange::SentByDone& d = x.by_done;
      d.keep_alive = keeps_alive(state, d.keep_alive);
      d.rest = send_now(stream, x, d.keep_alive);
      d.failed = !d.rest;
      if (!d.failed && beast::buffer_bytes(*d.rest) == 0) d.rest.reset();
      if (d.failed || d.rest || !d.keep_alive) {
        detail::cancel_read(stream);  // the coroutine finishes the send or closes
      } else {
        state.idle = true;  // between requests: a stop may close it at once
      }
    }
    if (x.wake) x.wake->cancel();
  };
  static_assert(sizeof(done) <= 2 * sizeof(void*), "kept in place by std::function");
  return site.state.service.handle_async(site.x.request, site.x.response, std::move(done));
}

// A refused request's envelope (413, 431, 400), before the connection is closed.
template <class Stream>
net::awaitable<void> send_refusal(ConnectionState& state, Stream& stream, Exchange& x,
                                  const ApiError& refusal) {
  write_response(x.out, state.service.transport_error(refusal, state.peer_ip), 11, false);
  state.set_deadline(state.options.write_timeout_s);
  co_await net::async_write(stream, net::buffer(x.out), detail::use_tuple);
}

// --- the loop ---------------------------------------------------------------------------

// Parks the coroutine until the answer's `done` has run: only when the client sent more
// before its answer (pipelining), since otherwise the coroutine waits in its read.
template <class Stream>
net::awaitable<void> park_until_answered(Stream& stream, Exchange& x) {
  if (!x.wake) x.wake.emplace(stream.get_executor());
  while (!x.answered) {
    x.wake->expires_at(net::steady_timer::time_point::max());
    co_await x.wake->async_wait(detail::use_tuple);
  }
}

// Serves requests on `stream` until the client closes, a deadline passes, keep-alive ends
// or the server stops. One request: wait for bytes (idle timeout, from the last counted
// answer: ConnectionState::idle_until_ns), read it (read timeout,
// restarted when the header is complete), answer, send (write timeout). The asynchronous
// steps are awaited only when they cannot complete at once.
template <class Stream>
net::awaitable<void> serve_requests(ConnectionState& state, Stream& stream) {
  using namespace detail;
  const ServerOptions& o = state.options;
  Exchange x;
  const AnswerSite<Stream> site{state, stream, x};
  for (;;) {
    state.idle = true;
    if (state.stopping.load(std::memory_order_relaxed)) break;
    if (x.buffer.size() == 0) {
      // The wait restarts after a counted answer (and before the first request: a fresh
      // Response is not uncounted), not after an uncounted one.
      if (!x.response.uncounted) state.renew_idle(o.idle_timeout_s);
      state.deadline_ns = state.idle_until_ns;
      auto [rec, n] = co_await stream.async_read_some(x.buffer.prepare(kReadSize), use_tuple);
      if (rec) break;
      x.buffer.commit(n);
    }
    state.idle = false;
    state.set_deadline(o.read_timeout_s);

    ReadResult read;
    if (!parse_buffered_request(x, o, read))
      read = co_await read_request_with_beast(state, stream, x);
    if (read.outcome == ReadOutcome::Closed) break;
    if (read.outcome == ReadOutcome::Refused) {
      co_await send_refusal(state, stream, x, read.refusal);
      break;
    }

    if (!answer(site) && !x.answered) {
      if (x.buffer.size() == 0) {
        // Nothing more from the client: `done` sends the answer, the coroutine reads on.
        x.by_done.expected = true;
        x.by_done.keep_alive = read.keep_alive;
        // An answer that waits was counted: the keep-alive wait restarts.
        state.renew_idle(o.idle_timeout_s);
        state.deadline_ns = state.idle_until_ns;
        auto [rec, n] = co_await stream.async_read_some(x.buffer.prepare(kReadSize), use_tuple);
        if (!rec) x.buffer.commit(n);
        // Read or cancelled: the answer is out, or it is awaited before anything else (the
        // request and response it uses live here).
        if (!x.answered) co_await park_until_answered(stream, x);
        Exchange::SentByDone& d = x.by_done;
        if (d.failed) break;
        if (d.rest && !co_await send_rest(state, stream, *d.rest)) break;
        if (!d.keep_alive) break;
        // A failed read ends the connection, unless it was `done` cancelling it for the
        // rest just sent (not the deadline sweep or a stop).
        if (rec && !(rec == net::error::operation_aborted && d.rest)) break;
        continue;
      }
      if (!x.answered) co_await park_until_answered(stream, x);
    }

    const bool keep_alive =
        keeps_alive(state, read.keep_alive) && !idle_wait_over(state, x.response);
    auto rest = send_now(stream, x, keep_alive);
    if (!rest) break;
    if (beast::buffer_bytes(*rest) > 0 && !co_await send_rest(state, stream, *rest)) break;
    if (!keep_alive) break;
    // The next request is already here (pipelining): go to the back of the event queue
    // first, as nginx posts a pipelined request's read event, so that a client that always
    // has a request ready gets one answer per turn like every other connection instead of
    // a buffer's worth (16 KiB of requests) while others wait.
    if (x.buffer.size() > 0) co_await net::post(stream.get_executor(), net::use_awaitable);
  }
}

}  // namespace toolcalc::http
