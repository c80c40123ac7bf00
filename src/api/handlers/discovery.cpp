// The catalog (GET /v1/tools, /v1/tools/{slug}, /v1/domains, a tool's schema) and the
// documents that describe the API (/v1/openapi.json, /llms.txt): answers from the registry,
// most of them rendered once (RenderedBodies).
#include <vector>

#include "api/handlers/handlers.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::handlers {

void schema(HandlerEnv& env, ServiceContext& ctx) {
  ctx.ok_result_shared(env.bodies.of(*ctx.registered).schema);  // dispatch found the tool
}

void tool_by_slug(HandlerEnv& env, ServiceContext& ctx) {
  const auto* registered = env.registry.find_slug(ctx.route.slug);
  if (!registered) return ctx.fail(not_found("no tool '" + std::string(ctx.route.slug) + "'"));
  ctx.tool = &registered->tool.descriptor;
  ctx.ok_result_shared(env.bodies.of(*registered).details);
}

void list_tools(HandlerEnv& env, ServiceContext& ctx) {
  ToolsQuery query;
  ApiError error;
  if (!parse_tools_query(ctx.route.query, query, error)) return ctx.fail(error);
  if (!query.domain.empty() && !env.registry.find_domain(query.domain))
    return ctx.fail(validation_error("domain", "unknown domain '" + query.domain + "'"));
  if (query.page == 1 && query.limit == ToolsQuery{}.limit) {
    const auto& pages = env.bodies.first_tools_pages;
    if (auto it = pages.find(query.domain); it != pages.end())
      return ctx.ok_result_shared(it->second);
  }
  ctx.ok_result(render_tools_page(env.registry, query));
}

std::string render_tools_page(const catalog::Registry& registry, const ToolsQuery& query) {
  std::vector<const catalog::RegisteredTool*> matching;
  for (const auto& t : registry.tools())
    if (query.domain.empty() || t.tool.descriptor.domain == query.domain) matching.push_back(&t);
  const int64_t total = static_cast<int64_t>(matching.size());
  const int64_t pages = (total + query.limit - 1) / query.limit;

  std::string result;
  JsonWriter w(result);
  w.begin_object().key("items").begin_array();
  // parse_tools_query bounds page and limit; a page past the last one is empty, decided
  // by comparing page numbers, so that no product is formed for it.
  if (query.page >= 1 && query.page <= pages) {
    const int64_t first = (query.page - 1) * query.limit;
    for (int64_t i = first; i < total && i < first + query.limit; ++i)
      w.raw(matching[static_cast<size_t>(i)]->summary_json);
  }
  w.end_array();
  w.field("page", query.page).field("limit", query.limit).field("total", total);
  w.field("pages", pages).end_object();
  return result;
}

void domains(HandlerEnv& env, ServiceContext& ctx) {
  std::string result;
  JsonWriter w(result);
  w.begin_object().key("items").begin_array();
  for (const auto& d : env.registry.domains()) {
    w.begin_object().field("domain", d.name).field("name", d.display_name);
    w.field("description", d.description);
    w.field("live", env.registry.live_count(d.name)).field("target", d.target);
    w.field("tools", "/v1/tools?domain=" + d.name).end_object();
  }
  w.end_array().end_object();
  ctx.ok_result(result);
}

// The document itself, not wrapped in the envelope: it is a format of its own that
// generators and validators read as is.
void openapi_document(HandlerEnv& env, ServiceContext& ctx) {
  ctx.res.status = 200;
  ctx.res.body_prefix = env.bodies.openapi_json;
}

// The catalog for agents that read text (llmstxt.org): Markdown, served as plain text like
// the convention's own site, so that a browser shows it rather than downloading it.
void llms_txt(HandlerEnv& env, ServiceContext& ctx) {
  ctx.res.status = 200;
  ctx.res.content_type = "text/plain; charset=utf-8";
  ctx.res.body_prefix = env.bodies.llms_txt;
}

}  // namespace toolcalc::api::handlers
