// The HTTP framing around handle(), without sockets: parsing the exact request wrk sends
// (http::parse_common_request, as the session does; http::RequestParser on Beast's
// basic_parser, the session's fallback, as http/parse_request.beast), serialising the api::Response
// (http::write_response), and the whole user-space path of one keep-alive request (parse → handle →
// serialise) as the session runs it. What is left between this and the load test is the kernel
// (epoll, recv, send) and Asio.
#include <benchmark/benchmark.h>

#include "bench_env.hpp"
#include "http/connection.hpp"
#include "http/response_writer.hpp"
#include "micro_benchmarks.hpp"

namespace toolcalc::bench {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;

constexpr std::string_view kPath = "/v1/iot-mcu/mcu-deep-sleep-battery";

std::string wire_request() {
  const auto* tool = env().registry->find("iot-mcu", "mcu-deep-sleep-battery");
  const std::string body = default_body(tool->tool.descriptor);
  std::string r = "POST " + std::string(kPath) + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n";
  r += "Content-Type: application/json\r\nAuthorization: " + env().authorization + "\r\n";
  r += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  return r;
}

// The server's default limits (8 KiB header, 64 KiB body).
const http::ServerOptions kLimits;

// As the session does: the whole wire request in one put, header first, then the body.
bool parse(std::string_view wire, http::RequestParser& parser) {
  parser.header_limit(static_cast<std::uint32_t>(kLimits.header_limit));
  parser.body_limit(kLimits.body_limit);
  beast::error_code ec;
  const std::size_t used = parser.put(net::buffer(wire.data(), wire.size()), ec);
  if (ec || !parser.is_header_done()) return false;
  parser.eager(true);
  parser.put(net::buffer(wire.data() + used, wire.size() - used), ec);
  return !ec && parser.is_done();
}

// As the session does: the common-request parser on the whole buffered request (consumed
// is the request's size when it parsed).
http::CommonRequest parse_common(std::string_view wire, http::RequestHead& head) {
  return http::parse_common_request(wire, kLimits.header_limit, kLimits.body_limit, head);
}

void http_parse(benchmark::State& state) {
  const std::string wire = wire_request();
  http::RequestHead head;  // reused, as the session reuses it
  for (auto _ : state) {
    head.clear();
    if (parse_common(wire, head).consumed != wire.size()) {
      state.SkipWithError("request did not parse");
      break;
    }
    benchmark::DoNotOptimize(head.body.data());
  }
}

void http_parse_beast(benchmark::State& state) {
  const std::string wire = wire_request();
  http::RequestHead head;  // reused, as the session reuses it
  for (auto _ : state) {
    head.clear();
    http::RequestParser parser(head);
    if (!parse(wire, parser)) {
      state.SkipWithError("request did not parse");
      break;
    }
    benchmark::DoNotOptimize(head.body.data());
  }
}

void http_respond(benchmark::State& state) {
  const std::string wire = wire_request();
  http::RequestHead head;
  parse_common(wire, head);
  const api::Response response = env().service->handle(http::to_api_request(head, "127.0.0.1"));
  std::string out;
  for (auto _ : state) {
    http::write_response(out, response, 11, true);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["bytes"] = static_cast<double>(out.size());
}

void http_full(benchmark::State& state) {
  const std::string wire = wire_request();
  ServerThread thread;  // as `serve` handles it: the count goes to the group commit
  std::string out;      // the session's reused response buffer
  http::RequestHead head;
  for (auto _ : state) {
    head.clear();
    const http::CommonRequest parsed = parse_common(wire, head);
    if (parsed.consumed != wire.size()) {
      state.SkipWithError("request did not parse");
      break;
    }
    const api::Response& response = thread.handle(http::to_api_request(head, "127.0.0.1"));
    if (response.status != 200) {
      state.SkipWithError("not a 200");
      break;
    }
    http::write_response(out, response, head.version, parsed.keep_alive);
    benchmark::DoNotOptimize(out.data());
  }
}

}  // namespace

void register_http_benchmarks() {
  benchmark::RegisterBenchmark("http/parse_request", http_parse);
  benchmark::RegisterBenchmark("http/parse_request.beast", http_parse_beast);
  benchmark::RegisterBenchmark("http/write_response", http_respond);
  benchmark::RegisterBenchmark("http/parse+handle+serialize", http_full);
}

}  // namespace toolcalc::bench
