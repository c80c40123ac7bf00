// The endpoints that are not one tool's, one writer each (paths.hpp): discovery, the
// caller, liveness, readiness, metrics, this document, llms.txt and the MCP endpoint
// (spec §4).
#include "api/limits.hpp"
#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"
#include "api/routes.hpp"
#include "store/account_store.hpp"

namespace toolcalc::api::openapi {

void tools_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  const catalog::Registry& registry = p.registry;
  w.key("/v1/tools").begin_object().key("get").begin_object();
  w.field("operationId", "listTools").field("summary", "List the tools");
  w.field("description",
          "Tool summaries in catalog order (domain order, then registration order), one page "
          "at a time. A page past the end has empty `items`. Unknown or repeated parameters are "
          "400 `VALIDATION_ERROR` naming the parameter.");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("parameters").begin_array();
  w.begin_object().field("name", "domain").field("in", "query");
  w.field("description", "Only the tools of this domain.");
  w.key("schema").begin_object().field("type", "string").key("enum").begin_array();
  for (const auto& d : registry.domains()) w.string(d.name);
  w.end_array().end_object().end_object();
  w.begin_object().field("name", "page").field("in", "query").field("description", "1-based page.");
  w.key("schema").begin_object().field("type", "integer").field("minimum", 1);
  w.key("maximum").integer(kMaxPage).field("default", 1);
  w.end_object().end_object();
  w.begin_object()
      .field("name", "limit")
      .field("in", "query")
      .field("description", "Items per page.");
  w.key("schema").begin_object().field("type", "integer").field("minimum", 1);
  w.key("maximum").integer(kMaxPageSize).key("default").integer(kDefaultPageSize);
  w.end_object().end_object();
  w.end_array();
  w.key("responses").begin_object();
  ok_response(w, "One page of tool summaries.", "ToolListResponse");
  error_ref(w, refs, 400);
  error_ref(w, refs, 401);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void tool_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/tools/{slug}").begin_object().key("get").begin_object();
  w.field("operationId", "getTool").field("summary", "Full metadata of one tool");
  w.field("description",
          "The description record plus the schema path, the documentation page, references "
          "and worked example requests.");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("parameters").begin_array().begin_object().field("name", "slug").field("in", "path");
  w.field("required", true).field("description", "The tool's slug.");
  w.key("schema").begin_object().field("type", "string").field("pattern", name_pattern());
  w.end_object().end_object().end_array();
  w.key("responses").begin_object();
  ok_response(w, "The tool's details.", "ToolDetailsResponse");
  error_ref(w, refs, 401);
  error_ref(w, refs, 404);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void domains_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/domains").begin_object().key("get").begin_object();
  w.field("operationId", "listDomains")
      .field("summary", "All domains with live and target tool counts");
  w.field("description",
          "Every domain in catalog order: `live` counts its registered tools, `target` is the "
          "roadmap count, `tools` the listing of its tools.");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("responses").begin_object();
  ok_response(w, "Every domain, in catalog order.", "DomainListResponse");
  error_ref(w, refs, 401);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void me_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/me").begin_object().key("get").begin_object();
  w.field("operationId", "getMe")
      .field("summary", "The caller's plan, key prefix and month-to-date quota");
  w.field("description",
          "The plan and rate limit of the key sent, its prefix and label, and this calendar "
          "month's (UTC) quota: limit, used, remaining and when it resets.");
  w.key("tags").begin_array().string("account").end_array();
  security_required(w);
  w.key("responses").begin_object();
  ok_response(w, "The caller.", "MeResponse");
  error_ref(w, refs, 401);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void usage_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/usage").begin_object().key("get").begin_object();
  w.field("operationId", "getUsage")
      .field("summary", "The caller's daily usage per tool in a month");
  w.field("description",
          "Per UTC day with activity and per tool: successful executions, the quota units they "
          "used and the requests refused, by HTTP status. Counts are written every second or "
          "so; the current and the " +
              std::to_string(store::kHistoryMonths - 1) + " previous months are kept.");
  w.key("tags").begin_array().string("account").end_array();
  security_required(w);
  w.key("parameters").begin_array().begin_object().field("name", "month").field("in", "query");
  w.field("description", "The month (UTC), default the current one; one of the last " +
                             std::to_string(store::kHistoryMonths) + ".");
  w.key("schema").begin_object().field("type", "string").field("pattern", "^[0-9]{4}-[0-9]{2}$");
  w.end_object().end_object().end_array();
  w.key("responses").begin_object();
  ok_response(w, "The month's usage.", "UsageResponse");
  error_ref(w, refs, 400);
  error_ref(w, refs, 401);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void health_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/health").begin_object().key("get").begin_object();
  w.field("operationId", "getHealth").field("summary", "Liveness check");
  w.field("description",
          "Never authenticated, rate limited or counted; a key, even an invalid one, is ignored.");
  w.key("tags").begin_array().string("operations").end_array();
  w.key("security").begin_array().end_array();  // none: a key is ignored here
  w.key("responses").begin_object();
  ok_response(w, "The service is up.", "HealthResponse");
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void ready_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/ready").begin_object().key("get").begin_object();
  w.field("operationId", "getReady").field("summary", "Readiness check");
  w.field("description",
          "Whether this instance should get traffic: 503 `NOT_READY` while its shared store is "
          "unreachable (as of the last key refresh) or while it drains after SIGTERM; 200 "
          "otherwise. Liveness is `/v1/health`. Never authenticated, rate limited or counted.");
  w.key("tags").begin_array().string("operations").end_array();
  w.key("security").begin_array().end_array();
  w.key("responses").begin_object();
  ok_response(w, "Ready for traffic.", "ReadyResponse");
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void metrics_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/metrics").begin_object().key("get").begin_object();
  w.field("operationId", "getMetrics").field("summary", "Prometheus metrics");
  w.field("description",
          "The Prometheus text exposition format 0.0.4 (docs/operations.md, \"Metrics\"), at "
          "the server's root and under the base path. Never authenticated, rate limited or "
          "counted against a plan.");
  w.key("tags").begin_array().string("operations").end_array();
  w.key("security").begin_array().end_array();
  w.key("responses").begin_object();
  w.key("200").begin_object().field("description", "The metrics.");
  common_headers(w);
  w.key("content").begin_object().key("text/plain; version=0.0.4; charset=utf-8").begin_object();
  w.key("schema").begin_object().field("type", "string").end_object();
  w.end_object().end_object().end_object();
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void openapi_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/v1/openapi.json").begin_object().key("get").begin_object();
  w.field("operationId", "getOpenApiDocument").field("summary", "This OpenAPI document");
  w.field("description",
          "The document itself, as the body (no envelope): it is a document format of its own. "
          "Generated from the tool registry at start-up.");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("responses").begin_object();
  w.key("200").begin_object().field("description", "An OpenAPI 3.1 document.");
  common_headers(w);
  w.key("content").begin_object().key("application/json").begin_object().key("schema");
  w.begin_object().field("type", "object").key("required").begin_array().string("openapi");
  w.string("info").string("paths").end_array();
  w.key("properties").begin_object();
  w.key("openapi")
      .begin_object()
      .field("type", "string")
      .field("pattern", "^3\\.1\\.")
      .end_object();
  w.key("info").begin_object().field("type", "object").end_object();
  w.key("paths").begin_object().field("type", "object").end_object();
  w.end_object().end_object();
  w.end_object().end_object().end_object();
  error_ref(w, refs, 401);
  error_ref(w, refs, 429);
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void llms_txt_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/llms.txt").begin_object().key("get").begin_object();
  w.field("operationId", "getLlmsTxt").field("summary", "The catalog as text for agents");
  w.field("description",
          "Every tool with its endpoint, purpose, inputs (type, unit, bounds, default) and "
          "outputs, as Markdown in the llms.txt convention (llmstxt.org), for language models "
          "and agents that read text rather than speak MCP. Also served at the root, "
          "`/llms.txt`. Like /v1/health: never authenticated, rate limited or counted.");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("security").begin_array().end_array();  // none: a key is ignored here
  w.key("responses").begin_object();
  w.key("200").begin_object().field("description", "Markdown, served as text/plain.");
  common_headers(w);
  w.key("content").begin_object().key("text/plain").begin_object().key("schema");
  w.begin_object().field("type", "string").end_object();
  w.end_object().end_object().end_object();
  error_ref(w, refs, 500);
  transport_error_refs(w, refs, false);
  w.end_object().end_object().end_object();
}

void mcp_path(Paths& p) {
  JsonWriter& w = p.w;
  ErrorRefs& refs = p.refs;
  w.key("/mcp").begin_object().key("post").begin_object();
  w.field("operationId", "mcp")
      .field("summary", "Model Context Protocol (Streamable HTTP, JSON responses)");
  w.field("description",
          "One JSON-RPC 2.0 message per POST: `initialize`, `ping`, `tools/list` and "
          "`tools/call` are answered with one JSON object (never an event stream); "
          "notifications and responses are accepted with 202 and no body. No session id is "
          "issued or required. `tools/call` needs a key and runs the same validation, rate "
          "limit and quota as the execute endpoints; invalid arguments and 422 cases come back "
          "as a tool result with `isError: true`. GET is 405 (no server-initiated stream). A "
          "request whose `Origin` is not allowed is 403. See docs/api.md, \"MCP\".");
  w.key("tags").begin_array().string("mcp").end_array();
  w.key("requestBody").begin_object().field("required", true);
  json_content(w, "JsonRpcMessage");
  w.end_object();
  w.key("responses").begin_object();
  ok_response(w, "The JSON-RPC response to a request.", "JsonRpcResponse");
  w.key("202").begin_object().field("description",
                                    "A notification or response was accepted (no body).");
  common_headers(w);
  w.end_object();
  mcp_error_ref(w, refs, 400);
  mcp_error_ref(w, refs, 401);
  mcp_error_ref(w, refs, 403);
  mcp_error_ref(w, refs, 415);
  mcp_error_ref(w, refs, 429);
  mcp_error_ref(w, refs, 500);
  transport_error_refs(w, refs, true);
  w.end_object().end_object().end_object();
}

}  // namespace toolcalc::api::openapi
