#pragma once
// The endpoints' handlers, one family per file; each is the handler of one row of the
// endpoint table (api/endpoints.cpp). The pipeline calls a handler once the row's checks
// passed (method, key, the tool of a route about one tool: ctx.registered).
#include <string>
#include <string_view>

#include "api/handler_env.hpp"
#include "api/query.hpp"
#include "api/service_context.hpp"

namespace toolcalc::api::handlers {

// discovery.cpp: the catalog and the documents that describe the API.
void list_tools(HandlerEnv& env, ServiceContext& ctx);        // GET /v1/tools
void tool_by_slug(HandlerEnv& env, ServiceContext& ctx);      // GET /v1/tools/{slug}
void domains(HandlerEnv& env, ServiceContext& ctx);           // GET /v1/domains
void schema(HandlerEnv& env, ServiceContext& ctx);            // GET /v1/{domain}/{slug}/schema
void openapi_document(HandlerEnv& env, ServiceContext& ctx);  // GET /v1/openapi.json
void llms_txt(HandlerEnv& env, ServiceContext& ctx);          // GET /llms.txt
// One page of GET /v1/tools's result (the first pages are rendered once, RenderedBodies).
std::string render_tools_page(const catalog::Registry& registry, const ToolsQuery& query);

// status.cpp: the service's own state, and the unknown path.
void health(HandlerEnv& env, ServiceContext& ctx);              // GET /v1/health
void ready(HandlerEnv& env, ServiceContext& ctx);               // GET /v1/ready
void prometheus_metrics(HandlerEnv& env, ServiceContext& ctx);  // GET /metrics
void no_such_path(HandlerEnv& env, ServiceContext& ctx);

// account.cpp: the caller's own account.
void me(HandlerEnv& env, ServiceContext& ctx);     // GET /v1/me
void usage(HandlerEnv& env, ServiceContext& ctx);  // GET /v1/usage

// execute.cpp: POST /v1/{domain}/{slug}.
void execute(HandlerEnv& env, ServiceContext& ctx);
// The one execution path of REST execute and MCP tools/call: validate `body` (400),
// reserve one unit of the caller's monthly quota (429 QUOTA_EXCEEDED, with Retry-After
// set on the response), compute and append the rendered `result` object to `out` (422
// releases the unit). On failure `out` is left as it was and `error` says why.
bool run_tool(HandlerEnv& env, ServiceContext& ctx, const catalog::Tool& tool,
              std::string_view body, std::string& out, accounts::QuotaReservation& quota,
              ApiError& error);

// sweep.cpp: POST /v1/{domain}/{slug}/sweep.
void sweep(HandlerEnv& env, ServiceContext& ctx);

// analyses.cpp: POST /v1/{domain}/{slug}/tolerance and …/solve, up to the analysis's start.
void tolerance(HandlerEnv& env, ServiceContext& ctx);
void solve(HandlerEnv& env, ServiceContext& ctx);
// MCP's tolerance_analysis and solve_for_input: `body` is the call's arguments without
// `tool`, as the REST body.
void mcp_analysis(HandlerEnv& env, ServiceContext& ctx, const catalog::RegisteredTool& tool,
                  bool tolerance, std::string_view body);

// mcp.cpp: POST /mcp, one JSON-RPC message.
void mcp_endpoint(HandlerEnv& env, ServiceContext& ctx);

// admin.cpp: /admin/v1/…, the admin token's check, then the operation's row.
void admin(HandlerEnv& env, ServiceContext& ctx);

// assets.cpp: the playground's files.
void asset(HandlerEnv& env, ServiceContext& ctx);

}  // namespace toolcalc::api::handlers
