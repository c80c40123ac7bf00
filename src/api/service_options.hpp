#pragma once
// How a Service is set up (cli/ fills it from the configuration).
#include <string>
#include <vector>

#include "core/line_buffer.hpp"

namespace toolcalc::accounts {
class KeyAdmin;
}

namespace toolcalc::api {

struct ServiceOptions {
  std::string base_path;  // "" or "/api"
  std::string version = TOOLCALC_VERSION;
  LineBuffer* access_log = nullptr;  // JSON lines (api/access_log.hpp); nullptr: no access log
  // Browser origins (e.g. "https://app.example.com") allowed on the MCP endpoint besides
  // loopback ones; a request with any other Origin header is 403 (DNS-rebinding guard).
  std::vector<std::string> mcp_allowed_origins = {};
  // The key the playground page pre-fills (serve --dev on a loopback address); "" = none.
  std::string playground_dev_key = {};
  // Threads that run tolerance analyses and solves off the I/O threads (docs/api.md,
  // "Analyses"); 0 runs them on the thread that read the request.
  int analysis_threads = 1;
  // The store backend named by toolcalc_build_info ("sqlite" or "redis").
  std::string store_backend = "sqlite";
  // The admin API (/admin/v1/…): on when both are set, else every admin path is 404.
  // `key_admin` must outlive the Service.
  std::string admin_token = {};
  accounts::KeyAdmin* key_admin = nullptr;
  // Analyses one key may have waiting or running on the analysis pool (one more is 429
  // TOO_MANY_ANALYSES); 0: analysis_threads + 2.
  int analyses_per_key = 0;
};

}  // namespace toolcalc::api
