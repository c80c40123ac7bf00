// Answers that wait (for a group commit, a shared store's reply, an analysis) over real
// TCP: the answer's `done` sends the response while the connection already waits for the
// next request, and leaves to the connection's coroutine what it cannot finish (a response
// larger than the socket takes at once, a connection that ends with it). Every request here
// waits for its rate step, which the store double answers 5 ms later on the server's own
// event loop, as the Redis pipeline and the group commit do.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "api/fake_access.hpp"
#include "api/service.hpp"
#include "catalog/domains.hpp"
#include "core/event_loop.hpp"
#include "http/server.hpp"
#include "support/loopback_client.hpp"
#include "tools/all.hpp"

namespace toolcalc {
namespace {

namespace net = boost::asio;
using test_support::send_all;

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;
constexpr std::string_view kKey = "tc_live_wait";

// The rate steps of a turn are answered together 5 ms later, on the loop that asked.
class LateAccess final : public test_support::FakeAccess {
 public:
  LateAccess() {
    keys.clear();
    keys[std::string(kKey)] = {"pro", 100000, 100000};
    asynchronous = true;
  }
  std::optional<accounts::RateStep> rate_step(const accounts::Caller& c, bool for_execution,
                                              accounts::CountedUnits& counted,
                                              accounts::Suspendable* request) override {
    net::io_context* loop = this_thread_event_loop();
    if (!loop || !request) return take_step(c, for_execution);
    const bool first = pending.empty();
    FakeAccess::rate_step(c, for_execution, counted, request);
    if (first) {
      auto timer = std::make_shared<net::steady_timer>(*loop, std::chrono::milliseconds(5));
      timer->async_wait([this, timer](const boost::system::error_code&) { complete_pending(); });
    }
    ++started;
    return std::nullopt;
  }
  int started = 0;
};

class WaitingAnswers : public ::testing::Test {
 protected:
  WaitingAnswers()
      : registry(tools::all_tools({kSource / "catalog"}),
                 catalog::load_domains(kSource / "catalog" / "domains.toml")),
        service(registry, access, clock, {"", "9.9.9", nullptr}),
        server(service, [] {
          http::ServerOptions o;
          o.port = 0;
          o.threads = 1;
          o.send_buffer_bytes = 4096;  // a sweep's answer does not fit: sent in parts
          return o;
        }()) {
    server.bind();
    serving = std::thread([this] { server.run(); });
  }
  ~WaitingAnswers() override {
    server.stop();
    serving.join();
  }

  int connect_client(int receive_buffer = 0) {
    return test_support::connect_loopback(server.port(), receive_buffer);
  }

  // One whole response (head and Content-Length body) from `fd`, the bytes after it kept
  // in `pending`; empty on a close or a timeout.
  static std::string read_response(int fd, std::string& pending) {
    char buf[65536];
    for (;;) {
      const size_t head_end = pending.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        const size_t at = pending.find("Content-Length: ");
        if (at == std::string::npos || at > head_end) return {};
        const size_t length = std::stoul(pending.substr(at + 16));
        if (pending.size() >= head_end + 4 + length) {
          std::string response = pending.substr(0, head_end + 4 + length);
          pending.erase(0, response.size());
          return response;
        }
      }
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) return {};
      pending.append(buf, static_cast<size_t>(n));
    }
  }

  // True when the server closed `fd` (the next read sees the end of the stream).
  static bool closed_by_server(int fd) {
    char c;
    return ::recv(fd, &c, 1, 0) == 0;
  }

  static std::string execute(std::string_view connection = "keep-alive") {
    const std::string body =
        R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
        R"("wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80})";
    return "POST /v1/iot-mcu/mcu-deep-sleep-battery HTTP/1.1\r\nHost: t\r\nAuthorization: "
           "Bearer " +
           std::string(kKey) +
           "\r\nContent-Type: application/json\r\nConnection: " + std::string(connection) +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }

  LateAccess access;
  ManualClock clock{1'800'000'010'000};
  catalog::Registry registry;
  api::Service service;
  http::Server server;
  std::thread serving;
};

bool is_execution(const std::string& response) {
  return response.starts_with("HTTP/1.1 200 ") &&
         response.find(R"("lifetime_days")") != std::string::npos;
}

TEST_F(WaitingAnswers, OneConnectionAnswersRequestAfterRequest) {
  const int fd = connect_client();
  std::string pending;
  for (int i = 0; i < 5; ++i) {
    send_all(fd, execute());
    const std::string response = read_response(fd, pending);
    EXPECT_TRUE(is_execution(response)) << i << ": " << response;
  }
  EXPECT_EQ(access.started, 5);  // each one waited for its step
  EXPECT_TRUE(pending.empty());
  ::close(fd);
}

TEST_F(WaitingAnswers, AConnectionThatAsksToCloseIsClosedAfterItsAnswer) {
  const int fd = connect_client();
  std::string pending;
  send_all(fd, execute("close"));
  const std::string response = read_response(fd, pending);
  EXPECT_TRUE(is_execution(response)) << response;
  EXPECT_NE(response.find("Connection: close"), std::string::npos) << response;
  EXPECT_TRUE(closed_by_server(fd));
  ::close(fd);
}

TEST_F(WaitingAnswers, PipelinedRequestsBehindAWaitingAnswerAreAnsweredInOrder) {
  const int fd = connect_client();
  std::string pending;
  send_all(fd, execute() + execute() + "GET /v1/health HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_TRUE(is_execution(read_response(fd, pending)));
  EXPECT_TRUE(is_execution(read_response(fd, pending)));
  const std::string health = read_response(fd, pending);
  EXPECT_TRUE(health.starts_with("HTTP/1.1 200 ")) << health;
  EXPECT_NE(health.find(R"("status":"ok")"), std::string::npos) << health;
  ::close(fd);
}

// A sweep of 200 points (31 KB) to a client that reads nothing for a while: the send the
// answer's `done` starts cannot finish in a 4 KB send buffer, and the connection's
// coroutine sends the rest, then serves the next request.
TEST_F(WaitingAnswers, AnAnswerLargerThanTheSocketTakesIsSentWhole) {
  const std::string sweep =
      R"({"inputs":{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
      R"("wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80},)"
      R"("vary":{"key":"sleep_current_ua","from":1,"to":200,"points":200}})";
  const std::string request =
      "POST /v1/iot-mcu/mcu-deep-sleep-battery/sweep HTTP/1.1\r\n"
      "Host: t\r\nAuthorization: Bearer " +
      std::string(kKey) +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(sweep.size()) +
      "\r\n\r\n" + sweep;
  const int fd = connect_client(4096);
  constexpr int kSweeps = 2;
  std::string pending;
  for (int i = 0; i < kSweeps; ++i) {
    send_all(fd, request);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::string response = read_response(fd, pending);
    ASSERT_TRUE(response.starts_with("HTTP/1.1 200 ")) << i << ": " << response.substr(0, 400);
    EXPECT_GT(response.size(), 30u * 1024);
    EXPECT_EQ(std::count(response.begin(), response.end(), '{'),
              std::count(response.begin(), response.end(), '}'));
  }
  send_all(fd, execute());
  EXPECT_TRUE(is_execution(read_response(fd, pending)));
  ::close(fd);
}

// After its answer a connection is idle again: a stop closes it at once instead of waiting
// for the shutdown grace.
TEST_F(WaitingAnswers, AConnectionIdleAfterAWaitingAnswerDoesNotHoldUpAStop) {
  const int fd = connect_client();
  std::string pending;
  send_all(fd, execute());
  EXPECT_TRUE(is_execution(read_response(fd, pending)));
  const auto started = std::chrono::steady_clock::now();
  server.stop();
  EXPECT_TRUE(closed_by_server(fd));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  ::close(fd);
}

}  // namespace
}  // namespace toolcalc
