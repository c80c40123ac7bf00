#include "api/handler_env.hpp"

#include "accounts/api_key.hpp"
#include "api/envelope.hpp"
#include "api/execute.hpp"
#include "api/handlers/handlers.hpp"
#include "api/llms_txt.hpp"
#include "api/openapi/openapi.hpp"
#include "api/service.hpp"

namespace toolcalc::api {

RenderedBodies::RenderedBodies(const catalog::Registry& registry, const ServiceOptions& options)
    : openapi_json(openapi::render(registry, {options.version, options.base_path, {}})),
      admin_openapi_json(openapi::render_admin({options.version, options.base_path, {}})),
      llms_txt(render_llms_txt(registry, options.base_path)),
      mcp_tools(registry),
      assets(options.base_path, options.playground_dev_key),
      first_tool(registry.tools().data()) {
  first_tools_pages.emplace("", result_body_prefix(handlers::render_tools_page(registry, {})));
  for (const auto& d : registry.domains()) {
    ToolsQuery q;
    q.domain = d.name;
    first_tools_pages.emplace(d.name, result_body_prefix(handlers::render_tools_page(registry, q)));
  }
  tool_bodies.reserve(registry.tools().size());
  for (const auto& t : registry.tools())
    tool_bodies.push_back({result_body_prefix(t.record_json), result_body_prefix(t.details_json),
                           execute_body_prefix(t.tool.descriptor)});
}

HandlerEnv::HandlerEnv(Service& service, const catalog::Registry& registry,
                       accounts::AccessControl& access, const Clock& clock,
                       const ServiceOptions& options)
    : registry(registry),
      access(access),
      clock(clock),
      options(options),
      started_ms(clock.now_ms()),
      bodies(registry, options),
      service_(service) {
  if (options.key_admin && !options.admin_token.empty()) {
    admin.token_digest = accounts::hash_api_key(options.admin_token);
    // Names the token in the audit log without revealing it: 32 bits of its SHA-256, of a
    // token of at least 32 random characters (cli/admin_token.hpp).
    static constexpr char hex[] = "0123456789abcdef";
    admin.token_id = "admin-";
    for (size_t i = 0; i < 4; ++i) {
      const auto b = static_cast<unsigned char>(admin.token_digest[i]);
      admin.token_id += hex[b >> 4];
      admin.token_id += hex[b & 15];
    }
  }
}

bool HandlerEnv::draining() const {
  return service_.draining();
}

const RequestMetrics& HandlerEnv::request_metrics() const {
  return service_.request_metrics_;
}

accounts::QuotaReservation HandlerEnv::reserve_units(ServiceContext& ctx, int64_t units) {
  return service_.reserve_units(ctx, units);
}

void HandlerEnv::release_units(ServiceContext& ctx, const accounts::QuotaReservation& reservation,
                               int64_t units) {
  service_.release_units(ctx, reservation, units);
}

void HandlerEnv::start_analysis(ServiceContext& ctx, std::shared_ptr<AnalysisJob> job) {
  service_.start_analysis(ctx, std::move(job));
}

}  // namespace toolcalc::api
