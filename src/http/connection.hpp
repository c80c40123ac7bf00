#pragma once
// The request loop of one connection, generic over the stream so that the same code
// serves TCP (session.cpp) and Beast's in-memory test stream (the HTTP fuzzer).
// Read a request, hand it to the API, write the response, repeat while keep-alive holds.
// Pipelined requests are served in order: each response is written before the next
// request is parsed from the same buffer.
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <string>

#include "api/service.hpp"
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
};

namespace detail {

inline constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

template <class Stream>
void set_deadline(Stream& stream, int seconds) {
  if constexpr (requires { stream.expires_after(std::chrono::seconds(1)); })
    stream.expires_after(std::chrono::seconds(seconds));
}

inline std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

inline std::string_view field_or_empty(const bhttp::request<bhttp::string_body>& req,
                                       bhttp::field f) {
  auto it = req.find(f);
  return it == req.end() ? std::string_view{} : std::string_view(it->value());
}

inline ApiError transport_error_for(const beast::error_code& ec, const ServerOptions& o) {
  if (ec == bhttp::error::header_limit)
    return {431, "HEADERS_TOO_LARGE",
            "request header block exceeds " + std::to_string(o.header_limit) + " bytes", {}};
  if (ec == bhttp::error::body_limit)
    return {413, "PAYLOAD_TOO_LARGE",
            "request body exceeds " + std::to_string(o.body_limit) + " bytes", {}};
  return {400, "BAD_REQUEST", "malformed HTTP request: " + ec.message(), {}};
}

// A parse error in the HTTP message (answered with an envelope), as opposed to the
// connection ending (timeout, reset, EOF), which is simply closed.
inline bool is_protocol_error(const beast::error_code& ec) {
  return ec.category() == beast::error_code(bhttp::error::header_limit).category() &&
         ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message;
}

}  // namespace detail

template <class Stream>
net::awaitable<void> serve_requests(ConnectionState& state, Stream& stream) {
  using namespace detail;
  const ServerOptions& o = state.options;
  beast::flat_buffer buffer;
  std::string out;  // serialised responses; keeps its capacity across requests

  for (;;) {
    state.idle = true;
    if (state.stopping.load(std::memory_order_relaxed)) break;
    // Wait for the first byte of the next request under the idle timeout; the request
    // itself must then arrive within the read timeout (slow senders are cut off).
    if (buffer.size() == 0) {
      set_deadline(stream, o.idle_timeout_s);
      auto [rec, n] = co_await stream.async_read_some(buffer.prepare(4096), use_tuple);
      if (rec) break;
      buffer.commit(n);
    }
    state.idle = false;

    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(o.header_limit));
    parser.body_limit(o.body_limit);
    set_deadline(stream, o.read_timeout_s);
    auto [ec, header_bytes] = co_await bhttp::async_read_header(stream, buffer, parser, use_tuple);
    if (!ec) {
      // Beast 1.81 counts header_limit only against bytes not yet consumed, so a header
      // block that arrived with the first read can exceed it: enforce it on the total.
      if (header_bytes > o.header_limit) ec = bhttp::error::header_limit;
      // Only "chunked" framing is supported. Any other transfer coding (identity, gzip,
      // "chunked, gzip") would leave the body length undefined — the request-smuggling
      // case of RFC 9112 §6.3 — so it is refused and the connection closed.
      else if (auto te = parser.get().find(bhttp::field::transfer_encoding);
               te != parser.get().end() && !parser.chunked())
        ec = bhttp::error::bad_transfer_encoding;
      else if (te != parser.get().end() && !beast::iequals(trim(te->value()), "chunked"))
        ec = bhttp::error::bad_transfer_encoding;
    }
    if (!ec && !parser.is_done()) {
      // Answer before reading the body: an oversized Content-Length was refused above,
      // and a client waiting on "Expect: 100-continue" is told to send.
      const auto& header = parser.get();
      auto expect = header.find(bhttp::field::expect);
      if (expect != header.end() && beast::iequals(expect->value(), "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        auto [wec, wn] = co_await net::async_write(
            stream, net::buffer(kContinue.data(), kContinue.size()), use_tuple);
        (void)wn;
        if (wec) break;
      }
      set_deadline(stream, o.read_timeout_s);
      auto [bec, body_bytes] = co_await bhttp::async_read(stream, buffer, parser, use_tuple);
      (void)body_bytes;
      ec = bec;
    }
    if (ec) {
      if (!is_protocol_error(ec)) break;
      // Limits and malformed HTTP get an envelope, then the connection is closed: the
      // rest of the stream cannot be trusted to be at a message boundary.
      write_response(out, state.service.transport_error(transport_error_for(ec, o), state.peer_ip),
                     11, false);
      set_deadline(stream, o.write_timeout_s);
      co_await net::async_write(stream, net::buffer(out), use_tuple);
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
    if (auto it = req.find("MCP-Protocol-Version"); it != req.end())
      request.mcp_protocol_version = std::string_view(it->value());
    request.if_none_match = field_or_empty(req, bhttp::field::if_none_match);
    request.body = req.body();
    request.peer_ip = state.peer_ip;

    const bool keep_alive = req.keep_alive() && !state.stopping.load(std::memory_order_relaxed);
    write_response(out, state.service.handle(request), req.version(), keep_alive,
                   req.method() == bhttp::verb::head);
    set_deadline(stream, o.write_timeout_s);
    auto [wec, wn] = co_await net::async_write(stream, net::buffer(out), use_tuple);
    (void)wn;
    if (wec || !keep_alive) break;
  }
}

}  // namespace toolcalc::http
