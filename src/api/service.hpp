#pragma once
// The API: Response handle(const Request&), transport-free (DESIGN.md). One request goes
// request id → CORS → route → auth → rate limit → handler → envelope and headers.
#include <cstdint>
#include <string>

#include "accounts/access_control.hpp"
#include "api/access_log.hpp"
#include "api/request.hpp"
#include "api/response.hpp"
#include "catalog/registry.hpp"
#include "core/api_error.hpp"
#include "core/clock.hpp"

namespace toolcalc::api {

struct ServiceOptions {
  std::string base_path;  // "" or "/api"
  std::string version = TOOLCALC_VERSION;
  std::FILE* access_log = nullptr;  // JSON lines; nullptr disables the access log
};

class Service {
 public:
  Service(const catalog::Registry& registry, accounts::AccessControl& access, const Clock& clock,
          ServiceOptions options);

  Response handle(const Request& request);
  // An error the transport found before a request could be handled (413, 431, 400 for
  // unparsable HTTP, 503 over the connection cap): same envelope and headers, not counted.
  Response transport_error(const ApiError& error, std::string_view peer_ip);

  const catalog::Registry& registry() const { return registry_; }
  const ServiceOptions& options() const { return options_; }

 private:
  struct Context;
  void finish(Context& ctx);
  void dispatch(Context& ctx);
  void execute(Context& ctx);
  void schema(Context& ctx);
  void tools(Context& ctx);
  void tool_by_slug(Context& ctx);
  void domains(Context& ctx);
  void me(Context& ctx);
  void health(Context& ctx);

  const catalog::Registry& registry_;
  accounts::AccessControl& access_;
  const Clock& clock_;
  ServiceOptions options_;
  AccessLog access_log_;
  int64_t started_ms_;
};

}  // namespace toolcalc::api
