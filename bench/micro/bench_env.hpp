#pragma once
// What every micro-benchmark shares, built once: the real registry (cli::load_registry),
// accounts::Accounts on the embedded store in a temporary data directory with one key on
// a plan whose limits are never reached, and an api::Service over them — the same objects
// `toolcalc serve` builds, without the sockets.
#include <memory>
#include <string>

#include "accounts/accounts.hpp"
#include "api/request.hpp"
#include "api/service.hpp"
#include "catalog/registry.hpp"
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

// The tool's default body: every input at its default, in descriptor order, rendered the
// way the API documents it ({"battery_capacity_mah":2000,...}).
std::string default_body(const catalog::ToolDescriptor& tool);

// An execute request as the HTTP layer hands it to the service.
api::Request execute_request(const catalog::ToolDescriptor& tool, const std::string& path,
                             const std::string& body);

}  // namespace toolcalc::bench
