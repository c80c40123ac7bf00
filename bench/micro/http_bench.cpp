// The HTTP framing around handle(), without sockets: Beast parsing the exact request wrk
// sends, serialising the api::Response (http::write_response), and the whole user-space
// path of one keep-alive request (parse → handle → serialise) as the session runs it. What
// is left between this and the load test is the kernel (epoll, recv, send) and Asio.
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

bool parse(std::string_view wire, bhttp::request_parser<bhttp::string_body>& parser) {
  parser.header_limit(8 * 1024);
  parser.body_limit(64 * 1024);
  beast::error_code ec;
  parser.eager(true);
  parser.put(net::buffer(wire.data(), wire.size()), ec);
  return !ec && parser.is_done();
}

api::Request to_api_request(const bhttp::request<bhttp::string_body>& req) {
  api::Request request;
  request.method = std::string_view(req.method_string());
  request.target = std::string_view(req.target());
  request.content_type = http::detail::field_or_empty(req, bhttp::field::content_type);
  if (auto it = req.find(bhttp::field::authorization); it != req.end())
    request.authorization = std::string_view(it->value());
  request.origin = http::detail::field_or_empty(req, bhttp::field::origin);
  request.body = req.body();
  request.peer_ip = "127.0.0.1";
  return request;
}

void http_parse(benchmark::State& state) {
  const std::string wire = wire_request();
  for (auto _ : state) {
    bhttp::request_parser<bhttp::string_body> parser;
    if (!parse(wire, parser)) {
      state.SkipWithError("request did not parse");
      break;
    }
    benchmark::DoNotOptimize(parser.get().body().data());
  }
}

void http_respond(benchmark::State& state) {
  const std::string wire = wire_request();
  bhttp::request_parser<bhttp::string_body> parser;
  parse(wire, parser);
  const api::Response response = env().service->handle(to_api_request(parser.get()));
  std::string out;
  for (auto _ : state) {
    http::write_response(out, response, 11, true);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["bytes"] = static_cast<double>(out.size());
}

void http_full(benchmark::State& state) {
  const std::string wire = wire_request();
  api::Service& service = *env().service;
  std::string out;  // the session's reused response buffer
  for (auto _ : state) {
    bhttp::request_parser<bhttp::string_body> parser;
    if (!parse(wire, parser)) {
      state.SkipWithError("request did not parse");
      break;
    }
    auto& req = parser.get();
    const api::Response response = service.handle(to_api_request(req));
    if (response.status != 200) {
      state.SkipWithError("not a 200");
      break;
    }
    http::write_response(out, response, req.version(), req.keep_alive());
    benchmark::DoNotOptimize(out.data());
  }
}

}  // namespace

void register_http_benchmarks() {
  benchmark::RegisterBenchmark("http/parse_request", http_parse);
  benchmark::RegisterBenchmark("http/write_response", http_respond);
  benchmark::RegisterBenchmark("http/parse+handle+serialize", http_full);
}

}  // namespace toolcalc::bench
