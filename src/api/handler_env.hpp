#pragma once
// What an endpoint's handler (api/handlers/) works with: the registry, access control, the
// clock, the service's options, the answers rendered once at start-up, and the few steps of
// the pipeline a handler takes part in (quota units, analyses), which stay Service's. A
// handler is `void (HandlerEnv&, ServiceContext&)`: it fills ctx.res or calls ctx.fail.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "accounts/access_control.hpp"
#include "api/admin_guard.hpp"
#include "api/mcp.hpp"
#include "api/service_options.hpp"
#include "api/static_assets.hpp"
#include "catalog/registry.hpp"
#include "core/clock.hpp"

namespace toolcalc::api {

class Service;
struct ServiceContext;
struct AnalysisJob;  // api/analysis_job.hpp
class RequestMetrics;

// Answers that never change (the registry is immutable), rendered once up to their request
// id (result_body_prefix) and sent without a copy (Response::body_prefix).
struct RenderedBodies {
  RenderedBodies(const catalog::Registry& registry, const ServiceOptions& options);

  struct ToolBodies {
    std::string schema;          // GET /v1/{domain}/{slug}/schema
    std::string details;         // GET /v1/tools/{slug}
    std::string execute_prefix;  // execute_body_prefix: a 200 of execute, sweep or an analysis
  };
  const ToolBodies& of(const catalog::RegisteredTool& tool) const {
    return tool_bodies[static_cast<size_t>(&tool - first_tool)];
  }

  std::string openapi_json;        // GET /v1/openapi.json
  std::string admin_openapi_json;  // GET /admin/v1/openapi.json
  std::string llms_txt;            // GET /llms.txt (api/llms_txt.hpp)
  // The first page of the listing, all domains ("") and each domain: what a client asks for
  // almost always.
  std::map<std::string, std::string, std::less<>> first_tools_pages;
  std::vector<ToolBodies> tool_bodies;  // in the order of the registry's tools
  mcp::ToolIndex mcp_tools;
  StaticAssets assets;

 private:
  const catalog::RegisteredTool* first_tool;
};

// The admin API's token (api/handlers/admin.cpp); on when the options give a token and a
// KeyAdmin.
struct AdminAccess {
  std::string token_digest;  // SHA-256 of the admin token (compared in constant time)
  std::string token_id;      // "admin-" + 8 hex digits of that digest: the audit log's who
  AdminGuard guard;          // failed admin authentications per source address
};

class HandlerEnv {
 public:
  HandlerEnv(Service& service, const catalog::Registry& registry, accounts::AccessControl& access,
             const Clock& clock, const ServiceOptions& options);

  const catalog::Registry& registry;
  accounts::AccessControl& access;
  const Clock& clock;
  const ServiceOptions& options;
  const int64_t started_ms;  // when the service started (GET /v1/health, /metrics)
  const RenderedBodies bodies;
  AdminAccess admin;

  // From SIGTERM on (GET /v1/ready answers 503).
  bool draining() const;
  // The per-route request counts (GET /metrics renders them).
  const RequestMetrics& request_metrics() const;

  // The pipeline's steps (Service's): quota units reserved and given back for the request,
  // noted on it for its RateLimit header; an analysis handed to the analysis pool (the
  // request is then deferred) or run here.
  accounts::QuotaReservation reserve_units(ServiceContext& ctx, int64_t units);
  void release_units(ServiceContext& ctx, const accounts::QuotaReservation& reservation,
                     int64_t units);
  void start_analysis(ServiceContext& ctx, std::shared_ptr<AnalysisJob> job);

 private:
  Service& service_;
};

}  // namespace toolcalc::api
