#pragma once
// What every micro-benchmark shares, built once: the real registry (cli::load_registry),
// accounts::Accounts on the embedded store in a temporary data directory with one key on
// a plan whose limits are never reached, and an api::Service over them — the same objects
// `toolcalc serve` builds, without the sockets.
#include <array>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>

#include "accounts/accounts.hpp"
#include "api/request.hpp"
#include "api/service.hpp"
#include "catalog/registry.hpp"
#include "catalog/render.hpp"
#include "core/clock.hpp"

namespace toolcalc::bench {

struct BenchEnv {
  std::string data_dir;  // removed by the destructor
  SystemClock clock;
  std::unique_ptr<catalog::Registry> registry;
  std::unique_ptr<accounts::Accounts> accounts;
  std::unique_ptr<api::Service> service;
  std::string key;            // plaintext key on the "bench" plan
  std::string authorization;  // "Bearer <key>"

  BenchEnv();
  ~BenchEnv();
};

BenchEnv& env();

// What a server thread does with requests (handle_async on its event loop): a response
// that acknowledges an execution waits for the group commit of its count, so requests
// are handled kGroup at a time, then the loop runs until the committer has released the
// group (one SQLite transaction, on the committer thread). What a benchmark measures per
// request is then the calling thread's share, as in `serve`.
class ServerThread {
 public:
  static constexpr size_t kGroup = 64;
  ServerThread();
  ~ServerThread();
  // The response to `request` (kept until the group is done); its status and body are
  // final, but it may still wait for its commit until the group is drained.
  const api::Response& handle(const api::Request& request);
  void drain();  // every response handed out is released

 private:
  boost::asio::io_context loop_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> busy_;
  std::array<api::Request, kGroup> requests_{};
  std::array<api::Response, kGroup> responses_{};
  size_t next_ = 0;
  size_t waiting_ = 0;
};

// The tool's default body ({"battery_capacity_mah":2000,...}).
using catalog::default_body;

// An execute request as the HTTP layer hands it to the service.
api::Request execute_request(const catalog::ToolDescriptor& tool, const std::string& path,
                             const std::string& body);

}  // namespace toolcalc::bench
