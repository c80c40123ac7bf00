#pragma once
// A real redis-server for the Redis store tests: on a free loopback port, in a temporary
// directory, with the AOF on as in production (appendfsync always), stopped (SIGTERM) by
// the destructor. `scripts/install-deps.sh test` installs redis-server, so the tests that use it
// skip only on a machine set up by hand without it.
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "store/redis_client.hpp"
#include "support/test_support.hpp"

extern char** environ;

namespace toolcalc::accounts::testing {

inline std::string find_redis_server() {
  for (const char* p : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
    if (access(p, X_OK) == 0) return p;
  return {};
}

// A port the kernel just handed out (and that is free again): good enough for a test.
inline int free_loopback_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(fd);
    return -1;
  }
  close(fd);
  return ntohs(a.sin_port);
}

class RedisProcess {
 public:
  // Starts redis-server; false (with why()) when it is not installed or does not start.
  bool start() {
    binary_ = find_redis_server();
    if (binary_.empty()) {
      why_ = "redis-server is not installed (`scripts/install-deps.sh test` installs it)";
      return false;
    }
    if (port_ == 0) port_ = free_loopback_port();
    return launch();
  }

  // SIGTERM (Redis writes and fsyncs the AOF, then exits), as an orderly restart does.
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  // Starts again on the same port and directory (so the same AOF).
  bool restart() {
    stop();
    return launch();
  }

  ~RedisProcess() { stop(); }

  int port() const { return port_; }
  const std::string& why() const { return why_; }
  store::RedisOptions options(int db = 0) const {
    store::RedisOptions o;
    o.host = "127.0.0.1";
    o.port = port_;
    o.db = db;
    o.retry_after_failure_ms = 50;
    return o;
  }

 private:
  bool launch() {
    const std::string port = std::to_string(port_);
    std::vector<std::string> args = {binary_,
                                     "--port",
                                     port,
                                     "--bind",
                                     "127.0.0.1",
                                     "--dir",
                                     dir_.path().string(),
                                     "--appendonly",
                                     "yes",
                                     "--appendfsync",
                                     "always",
                                     "--save",
                                     "",
                                     "--daemonize",
                                     "no",
                                     "--loglevel",
                                     "warning",
                                     "--databases",
                                     "64",
                                     "--logfile",
                                     (dir_.path() / "redis.log").string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, binary_.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      why_ = "cannot spawn redis-server";
      pid_ = -1;
      return false;
    }
    // Ready when it answers PING (it loads the AOF first).
    store::RedisClient probe(options());
    for (int i = 0; i < 200; ++i) {
      try {
        if (probe.command({"PING"}).str == "PONG") return true;
      } catch (const std::exception&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    why_ = "redis-server did not answer PING within 10 s on port " + port;
    stop();
    return false;
  }

  TempDir dir_;
  std::string binary_;
  int port_ = 0;
  pid_t pid_ = -1;
  std::string why_;
};

}  // namespace toolcalc::accounts::testing
