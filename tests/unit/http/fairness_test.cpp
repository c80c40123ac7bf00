// Fairness of one server thread among its connections: a client that always has a request
// ready (pipelining) gets one answer per turn of the event loop, like everyone else, and
// connections waiting in the kernel's accept queue are taken at once, not one per turn.
// The order in which the server answered is read from its access log (one thread: the
// order of the lines is the order of the answers).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/fake_access.hpp"
#include "api/service.hpp"
#include "catalog/domains.hpp"
#include "core/line_buffer.hpp"
#include "http/server.hpp"
#include "support/loopback_client.hpp"
#include "tools/all.hpp"

namespace toolcalc {
namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;

using test_support::connect_loopback;
using test_support::send_all;

// Reads until `responses` status lines have arrived (the bodies are small JSON envelopes
// without that text); false on a timeout or a close.
bool read_responses(int fd, int responses) {
  std::string seen;
  size_t scanned = 0;  // a status line cut by a read is found once its rest arrives
  int count = 0;
  char buf[65536];
  while (count < responses) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    seen.append(buf, static_cast<size_t>(n));
    for (size_t at = seen.find("HTTP/1.1 ", scanned); at != std::string::npos;
         at = seen.find("HTTP/1.1 ", scanned)) {
      ++count;
      scanned = at + 1;
    }
  }
  return true;
}

TEST(Fairness, APipeliningClientCannotStarveOtherConnections) {
  catalog::Registry registry{tools::all_tools({kSource / "catalog"}),
                             catalog::load_domains(kSource / "catalog" / "domains.toml")};
  test_support::FakeAccess access;
  access.keys.clear();
  ManualClock clock{1'800'000'010'000};
  std::mutex log_mutex;
  std::string log_text;
  LineBuffer log(
      [&](std::string_view lines) {
        const std::lock_guard lock(log_mutex);
        log_text += lines;
      },
      {0, std::chrono::milliseconds(0)});
  api::Service service(registry, access, clock, {"", "9.9.9", &log});

  http::ServerOptions options;
  options.port = 0;
  options.threads = 1;
  http::Server server(service, options);
  server.bind();

  // Before the server runs, every client connects (the kernel completes the handshakes:
  // they wait in the accept queue) and sends: the pipelining client first, 100 requests in
  // one write, then 50 clients one request each.
  constexpr int kPipelined = 100;
  constexpr int kOthers = 50;
  const int greedy = connect_loopback(server.port());
  std::string pipeline;
  for (int i = 0; i < kPipelined; ++i) pipeline += "GET /v1/health HTTP/1.1\r\nHost: t\r\n\r\n";
  ASSERT_LT(pipeline.size(), 16u * 1024);  // one read of the server takes them all
  send_all(greedy, pipeline);
  std::vector<int> others;
  for (int i = 0; i < kOthers; ++i) {
    others.push_back(connect_loopback(server.port()));
    send_all(others.back(), "GET /v1/domains HTTP/1.1\r\nHost: t\r\n\r\n");
  }

  std::thread serving([&] { server.run(); });
  // The pipelining client reads its answers as they come, so the server never waits on
  // its send buffer (which would make it yield for another reason).
  bool greedy_done = false;
  std::thread reader([&] { greedy_done = read_responses(greedy, kPipelined); });
  int answered = 0;
  for (int fd : others) answered += read_responses(fd, 1) ? 1 : 0;
  reader.join();
  server.stop();
  serving.join();
  EXPECT_TRUE(greedy_done);
  EXPECT_EQ(answered, kOthers);
  ::close(greedy);
  for (int fd : others) ::close(fd);

  // In the order answered: how many of the pipelined requests came before the last of the
  // others. Fair: every other connection is answered within the pipelining client's first
  // few turns (here: after its first request, each other one has its turn). Without the
  // yield the whole pipeline goes first; without draining the accept queue, one other
  // connection is accepted per turn, i.e. per pipelined request.
  int pipelined_seen = 0;
  int others_seen = 0;
  int pipelined_before_last_other = -1;
  const std::lock_guard lock(log_mutex);
  for (size_t at = 0; at < log_text.size();) {
    const size_t nl = log_text.find('\n', at);
    ASSERT_NE(nl, std::string::npos);
    const std::string_view line(log_text.data() + at, nl - at);
    if (line.find(R"("path":"/v1/health")") != std::string_view::npos) ++pipelined_seen;
    if (line.find(R"("path":"/v1/domains")") != std::string_view::npos) {
      ++others_seen;
      pipelined_before_last_other = pipelined_seen;
    }
    at = nl + 1;
  }
  EXPECT_EQ(pipelined_seen, kPipelined);
  EXPECT_EQ(others_seen, kOthers);
  EXPECT_LE(pipelined_before_last_other, 3)
      << "the pipelining client was answered " << pipelined_before_last_other
      << " times before the last of " << kOthers << " waiting connections";
}

}  // namespace
}  // namespace toolcalc
