#include "catalog/openapi.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "catalog/json_schema.hpp"
#include "catalog/render.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::catalog {
namespace {

constexpr std::string_view kSchemas = "#/components/schemas/";

// --- shared components (static: they do not depend on the catalog) ----------------------

// Headers of every response (docs/api.md "Headers"). X-RateLimit-* are on every response
// the API layer writes, including errors and /v1/health.
constexpr std::string_view kHeaderComponents = R"json({
"X-Request-ID":{"description":"Unique id of this call; equals `meta.request_id`. Quote it to support.","required":true,"schema":{"type":"string","pattern":"^req_[A-Za-z0-9]{20,}$"}},
"X-Tool-Version":{"description":"SemVer of the tool on responses about one tool (execute, its schema, `/v1/tools/{slug}`, including their errors); the service version elsewhere.","required":true,"schema":{"type":"string"}},
"X-RateLimit-Limit":{"description":"Calls per minute allowed for the caller's plan (the `anonymous` plan, per client IP, without a key).","required":true,"schema":{"type":"integer","minimum":0}},
"X-RateLimit-Remaining":{"description":"Calls left in the current 60-second window; never negative.","required":true,"schema":{"type":"integer","minimum":0}},
"X-RateLimit-Reset":{"description":"Unix epoch seconds when the current 60-second window ends.","required":true,"schema":{"type":"integer","minimum":0}},
"Retry-After":{"description":"Whole seconds to wait before retrying (at least 1).","required":true,"schema":{"type":"integer","minimum":1}},
"WWW-Authenticate":{"description":"The authentication scheme to use: `Bearer`.","required":true,"schema":{"type":"string"}}
})json";

constexpr std::string_view kCommonHeaderNames[] = {"X-Request-ID", "X-Tool-Version",
                                                   "X-RateLimit-Limit", "X-RateLimit-Remaining",
                                                   "X-RateLimit-Reset"};

constexpr std::string_view kStaticSchemas = R"json(
"ErrorCode":{"type":"string","description":"Machine-readable error code (docs/api.md, \"Status codes and error codes\").","enum":["INVALID_JSON","VALIDATION_ERROR","BAD_REQUEST","UNAUTHORIZED","FORBIDDEN","NOT_FOUND","METHOD_NOT_ALLOWED","PAYLOAD_TOO_LARGE","UNSUPPORTED_MEDIA_TYPE","UNPROCESSABLE","RATE_LIMITED","QUOTA_EXCEEDED","HEADERS_TOO_LARGE","INTERNAL","SERVER_BUSY","STORE_UNAVAILABLE"]},
"Error":{"type":"object","required":["code","message"],"additionalProperties":false,"properties":{"code":{"$ref":"#/components/schemas/ErrorCode"},"message":{"type":"string","description":"Human-readable; states the bound or the reason."},"field":{"type":"string","description":"The input key (or query parameter) at fault; present only when one is."}}},
"RequestMeta":{"type":"object","required":["request_id"],"additionalProperties":false,"properties":{"request_id":{"type":"string","pattern":"^req_[A-Za-z0-9]{20,}$","description":"Equals the X-Request-ID header."}}},
"ErrorEnvelope":{"type":"object","description":"Every non-2xx response of the REST endpoints.","required":["ok","error","meta"],"additionalProperties":false,"properties":{"ok":{"type":"boolean","const":false},"error":{"$ref":"#/components/schemas/Error"},"meta":{"$ref":"#/components/schemas/RequestMeta"}}},
"ExecuteMeta":{"type":"object","required":["latency_ms","quota_remaining","request_id"],"additionalProperties":false,"properties":{"latency_ms":{"type":"integer","minimum":0},"quota_remaining":{"type":["integer","null"],"minimum":0,"description":"Executions left this calendar month (UTC) after this call; null when the caller has no monthly quota."},"request_id":{"type":"string","pattern":"^req_[A-Za-z0-9]{20,}$"}}},
"SuccessEnvelope":{"type":"object","description":"The 200 response of every execute endpoint; `result` holds the tool's outputs.","required":["ok","tool","domain","version","result","meta"],"additionalProperties":false,"properties":{"ok":{"type":"boolean","const":true},"tool":{"type":"string","description":"The tool's slug."},"domain":{"type":"string"},"version":{"type":"string","description":"SemVer of the tool; equals X-Tool-Version."},"result":{"type":"object"},"meta":{"$ref":"#/components/schemas/ExecuteMeta"}}},
"SweepPointError":{"type":"object","description":"Why one point of a sweep has no result: the tool cannot compute it from these inputs together (the 422 case of execute). The point's quota unit is given back.","required":["code","message"],"additionalProperties":false,"properties":{"code":{"type":"string","const":"UNPROCESSABLE"},"message":{"type":"string"},"field":{"type":"string","description":"The input at fault."}}},
"ResultEnvelope":{"type":"object","description":"The 200 response of the discovery and account endpoints.","required":["ok","result","meta"],"additionalProperties":false,"properties":{"ok":{"type":"boolean","const":true},"result":{"type":"object"},"meta":{"$ref":"#/components/schemas/RequestMeta"}}},
"InputDescriptor":{"type":"object","required":["key","label","type","default"],"additionalProperties":false,"properties":{"key":{"type":"string"},"label":{"type":"string"},"required":{"type":"boolean","const":true,"description":"Present (true) on required inputs only."},"unit":{"type":"string"},"help":{"type":"string"},"type":{"type":"string","enum":["number","integer","enum","boolean"]},"min":{"type":"number"},"max":{"type":"number"},"step":{"type":"number","description":"A UI hint; not enforced."},"default":{"type":["number","string","boolean"]},"options":{"type":"array","items":{"type":"string"}}}},
"OutputDescriptor":{"type":"object","required":["key","label","type"],"additionalProperties":false,"properties":{"key":{"type":"string"},"label":{"type":"string"},"type":{"type":"string","enum":["number","string"]},"unit":{"type":"string"},"precision":{"type":"integer","minimum":0,"description":"Decimal places of a number output."},"options":{"type":"array","items":{"type":"string"},"description":"The values a string output takes."}}},
"ToolSummary":{"type":"object","required":["tool","domain","version","name","description","standard","endpoint"],"additionalProperties":false,"properties":{"tool":{"type":"string"},"domain":{"type":"string"},"version":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"standard":{"type":["string","null"]},"endpoint":{"type":"string","description":"Path of the execute endpoint, /v1/{domain}/{slug}."}}},
"ToolRecord":{"type":"object","description":"The tool description record (spec section 2.1).","required":["tool","domain","version","name","description","standard","inputs","outputs","endpoint"],"additionalProperties":false,"properties":{"tool":{"type":"string"},"domain":{"type":"string"},"version":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"standard":{"type":["string","null"]},"inputs":{"type":"array","items":{"$ref":"#/components/schemas/InputDescriptor"}},"outputs":{"type":"array","items":{"$ref":"#/components/schemas/OutputDescriptor"}},"endpoint":{"type":"string"}}},
"ToolExample":{"type":"object","description":"A worked example and verification vector: the request, the outputs an independent published source gives for it (`expected`), and that source. A number matches when it is within `tolerance_pct` % of the expected value plus half a unit in the last decimal place of the output's precision; a string matches exactly.","required":["title","method","path","body"],"additionalProperties":false,"properties":{"title":{"type":"string"},"method":{"type":"string","const":"POST"},"path":{"type":"string"},"body":{"type":"object"},"expected":{"type":"object","description":"Output key → the value the source gives.","additionalProperties":{"type":["number","string"]}},"tolerance_pct":{"type":"number","minimum":0},"source":{"type":"string","description":"The publication, with the page, table or figure."}}},
"ToolDetails":{"type":"object","description":"The description record plus links, references and worked example requests.","required":["tool","domain","version","name","description","standard","inputs","outputs","endpoint","schema","docs","references","examples"],"additionalProperties":false,"properties":{"tool":{"type":"string"},"domain":{"type":"string"},"version":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"standard":{"type":["string","null"]},"inputs":{"type":"array","items":{"$ref":"#/components/schemas/InputDescriptor"}},"outputs":{"type":"array","items":{"$ref":"#/components/schemas/OutputDescriptor"}},"endpoint":{"type":"string"},"schema":{"type":"string"},"docs":{"type":"string"},"references":{"type":"array","items":{"type":"string"}},"examples":{"type":"array","items":{"$ref":"#/components/schemas/ToolExample"}}}},
"ToolList":{"type":"object","required":["items","page","limit","total","pages"],"additionalProperties":false,"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/ToolSummary"}},"page":{"type":"integer","minimum":1},"limit":{"type":"integer","minimum":1,"maximum":100},"total":{"type":"integer","minimum":0},"pages":{"type":"integer","minimum":0}}},
"Domain":{"type":"object","required":["domain","name","description","live","target","tools"],"additionalProperties":false,"properties":{"domain":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"live":{"type":"integer","minimum":0,"description":"Registered tools of the domain."},"target":{"type":"integer","minimum":0,"description":"Roadmap tool count."},"tools":{"type":"string","description":"Path listing the domain's tools."}}},
"DomainList":{"type":"object","required":["items"],"additionalProperties":false,"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Domain"}}}},
"Quota":{"type":"object","required":["limit","used","remaining","period","resets_at"],"additionalProperties":false,"properties":{"limit":{"type":["integer","null"],"minimum":0},"used":{"type":"integer","minimum":0},"remaining":{"type":["integer","null"],"minimum":0},"period":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"},"resets_at":{"type":"string","format":"date-time"}}},
"Me":{"type":"object","required":["plan","key_prefix","label","rate_limit_per_minute","quota"],"additionalProperties":false,"properties":{"plan":{"type":"string"},"key_prefix":{"type":"string"},"label":{"type":"string"},"rate_limit_per_minute":{"type":"integer","minimum":0},"quota":{"$ref":"#/components/schemas/Quota"}}},
"Health":{"type":"object","required":["status","version","uptime_s"],"additionalProperties":false,"properties":{"status":{"type":"string","const":"ok"},"version":{"type":"string"},"uptime_s":{"type":"integer","minimum":0}}},
"ToolRecordResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/ToolRecord"}}}]},
"ToolDetailsResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/ToolDetails"}}}]},
"ToolListResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/ToolList"}}}]},
"DomainListResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/DomainList"}}}]},
"MeResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Me"}}}]},
"HealthResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Health"}}}]},
"JsonRpcId":{"type":["string","number"],"description":"A JSON-RPC request id (MCP: a string or an integer, never null)."},
"JsonRpcMessage":{"type":"object","description":"One JSON-RPC 2.0 message: a request (`id` and `method`), a notification (`method`, no `id`) or a response to the server (`id` and `result` or `error`). Batches (arrays) are not accepted.","required":["jsonrpc"],"properties":{"jsonrpc":{"type":"string","const":"2.0"},"id":{"$ref":"#/components/schemas/JsonRpcId"},"method":{"type":"string","examples":["initialize","notifications/initialized","tools/list","tools/call","ping"]},"params":{"type":"object"},"result":{"type":"object"},"error":{"$ref":"#/components/schemas/JsonRpcError"}}},
"JsonRpcError":{"type":"object","required":["code","message"],"properties":{"code":{"type":"integer","description":"-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32603 internal error, -32000 refused by the service (HTTP 401, 403, 405, 415, 429: `data.code` is the error code of the REST API)."},"message":{"type":"string"},"data":{"type":"object","properties":{"code":{"$ref":"#/components/schemas/ErrorCode"},"request_id":{"type":"string"}}}}},
"JsonRpcResponse":{"type":"object","description":"The answer to one JSON-RPC request: `result` (initialize, tools/list, tools/call, ping) or `error`.","required":["jsonrpc","id"],"properties":{"jsonrpc":{"type":"string","const":"2.0"},"id":{"anyOf":[{"$ref":"#/components/schemas/JsonRpcId"},{"type":"null"}]},"result":{"type":"object"},"error":{"$ref":"#/components/schemas/JsonRpcError"}}},
"JsonRpcErrorResponse":{"type":"object","required":["jsonrpc","id","error"],"properties":{"jsonrpc":{"type":"string","const":"2.0"},"id":{"anyOf":[{"$ref":"#/components/schemas/JsonRpcId"},{"type":"null"}]},"error":{"$ref":"#/components/schemas/JsonRpcError"}}}
)json";

// --- small writing helpers --------------------------------------------------------------

void ref(JsonWriter& w, std::string_view target) {
  w.begin_object().field("$ref", target).end_object();
}

void schema_ref(JsonWriter& w, std::string_view name) {
  ref(w, std::string(kSchemas) + std::string(name));
}

void common_headers(JsonWriter& w, std::initializer_list<std::string_view> extra = {}) {
  w.key("headers").begin_object();
  for (auto name : kCommonHeaderNames) {
    w.key(name);
    ref(w, "#/components/headers/" + std::string(name));
  }
  for (auto name : extra) {
    w.key(name);
    ref(w, "#/components/headers/" + std::string(name));
  }
  w.end_object();
}

void json_content(JsonWriter& w, std::string_view schema_name) {
  w.key("content").begin_object().key("application/json").begin_object().key("schema");
  schema_ref(w, schema_name);
  w.end_object().end_object();
}

struct ErrorResponse {
  std::string_view name;
  std::string_view description;
  std::initializer_list<std::string_view> codes;
  std::initializer_list<std::string_view> headers;
};

// The REST error responses, each narrowing ErrorEnvelope's error.code to what it can be.
const ErrorResponse kErrorResponses[] = {
    {"BadRequest",
     "The body is not one JSON object (`INVALID_JSON`), an input or query parameter is wrong "
     "(`VALIDATION_ERROR`, `field` names it), or the HTTP message is malformed (`BAD_REQUEST`).",
     {"INVALID_JSON", "VALIDATION_ERROR", "BAD_REQUEST"},
     {}},
    {"Unauthorized",
     "Missing API key (on endpoints that need one) or invalid API key.",
     {"UNAUTHORIZED"},
     {"WWW-Authenticate"}},
    {"NotFound", "No such tool.", {"NOT_FOUND"}, {}},
    {"PayloadTooLarge",
     "Body over 64 KiB; answered before the body is read, then the connection is closed.",
     {"PAYLOAD_TOO_LARGE"},
     {}},
    {"UnsupportedMediaType",
     "The body is not sent with `Content-Type: application/json`.",
     {"UNSUPPORTED_MEDIA_TYPE"},
     {}},
    {"Unprocessable",
     "The inputs are valid one by one but the tool cannot compute a result from them together; "
     "`field` names the input. No quota is used.",
     {"UNPROCESSABLE"},
     {}},
    {"TooManyRequests",
     "Per-minute rate limit reached (`RATE_LIMITED`) or monthly quota used up (`QUOTA_EXCEEDED`, "
     "execute and sweep; a sweep needs one unit per point).",
     {"RATE_LIMITED", "QUOTA_EXCEEDED"},
     {"Retry-After"}},
    {"InternalError", "A defect; quote `meta.request_id` to support.", {"INTERNAL"}, {}},
    {"HeadersTooLarge",
     "Header block over 8 KiB; the connection is then closed.",
     {"HEADERS_TOO_LARGE"},
     {}},
    {"ServiceUnavailable",
     "Over the open-connection cap (`SERVER_BUSY`; the connection is then closed), or, with "
     "the shared Redis store, the store that counts limits and quotas is unreachable "
     "(`STORE_UNAVAILABLE`; the request was neither counted nor run).",
     {"SERVER_BUSY", "STORE_UNAVAILABLE"},
     {"Retry-After"}},
};

// The MCP endpoint's refusals: the same statuses, with a JSON-RPC error response as body.
struct McpErrorResponse {
  std::string_view name;
  std::string_view description;
  std::initializer_list<std::string_view> headers;
};
const McpErrorResponse kMcpErrorResponses[] = {
    {"McpBadRequest",
     "Not a JSON-RPC 2.0 message: parse error (-32700) or invalid request (-32600), "
     "including batches.",
     {}},
    {"McpUnauthorized",
     "Invalid API key, or `tools/call` without one (-32000, `data.code` UNAUTHORIZED).",
     {"WWW-Authenticate"}},
    {"McpForbidden",
     "The `Origin` header names an origin that is not allowed (DNS-rebinding protection; "
     "-32000, `data.code` FORBIDDEN).",
     {}},
    {"McpUnsupportedMediaType", "The body is not sent with `Content-Type: application/json`.", {}},
    {"McpTooManyRequests",
     "Rate limit reached, or (tools/call) the monthly quota is used up (-32000, `data.code` "
     "RATE_LIMITED or QUOTA_EXCEEDED).",
     {"Retry-After"}},
    {"McpInternalError", "A defect (-32603); quote `data.request_id` to support.", {}},
};

void write_error_responses(JsonWriter& w) {
  for (const auto& e : kErrorResponses) {
    w.key(e.name).begin_object().field("description", e.description);
    common_headers(w, e.headers);
    w.key("content").begin_object().key("application/json").begin_object();
    w.key("schema").begin_object().key("allOf").begin_array();
    schema_ref(w, "ErrorEnvelope");
    w.begin_object().field("type", "object").key("properties").begin_object();
    w.key("error").begin_object().field("type", "object").key("properties").begin_object();
    w.key("code").begin_object().key("enum").begin_array();
    for (auto c : e.codes) w.string(c);
    w.end_array().end_object();
    w.end_object().end_object();  // error.properties, error
    w.end_object().end_object();  // properties, allOf[1]
    w.end_array().end_object();   // allOf, schema
    w.end_object().end_object();  // application/json, content
    w.end_object();
  }
  for (const auto& e : kMcpErrorResponses) {
    w.key(e.name).begin_object().field("description", e.description);
    common_headers(w, e.headers);
    json_content(w, "JsonRpcErrorResponse");
    w.end_object();
  }
}

void response_ref(JsonWriter& w, std::string_view status, std::string_view name) {
  w.key(status);
  ref(w, "#/components/responses/" + std::string(name));
}

// What the HTTP layer answers before a request reaches its endpoint, on any path.
void transport_refs(JsonWriter& w) {
  response_ref(w, "431", "HeadersTooLarge");
  response_ref(w, "503", "ServiceUnavailable");
}

void ok_response(JsonWriter& w, std::string_view description, std::string_view schema_name) {
  w.key("200").begin_object().field("description", description);
  common_headers(w);
  json_content(w, schema_name);
  w.end_object();
}

void security_required(JsonWriter& w) {
  w.key("security").begin_array().begin_object().key("bearerAuth").begin_array().end_array();
  w.end_object().end_array();
}

// --- per-tool parts ---------------------------------------------------------------------

// The 200 response of one of the tool's executing paths: the success envelope naming the
// tool, with `result` as the schema `result_schema`.
void write_success_response_schema(JsonWriter& w, const ToolDescriptor& t, const std::string& path,
                                   const std::string& result_schema) {
  w.begin_object();
  w.field("description", "The 200 response of " + path + ".");
  w.key("allOf").begin_array();
  schema_ref(w, "SuccessEnvelope");
  w.begin_object().field("type", "object").key("properties").begin_object();
  w.key("tool").begin_object().field("const", t.slug).end_object();
  w.key("domain").begin_object().field("const", t.domain).end_object();
  w.key("version").begin_object().field("const", t.version).end_object();
  w.key("result");
  schema_ref(w, result_schema);
  w.end_object().end_object();
  w.end_array().end_object();
}

void write_tool_schemas(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(prefix + "Input");
  write_input_schema(w, t);
  w.key(prefix + "Result");
  write_output_schema(w, t);
  w.key(prefix + "Response");
  write_success_response_schema(w, t, t.endpoint(), prefix + "Result");
}

void write_request_examples(JsonWriter& w, const ToolDescriptor& t) {
  w.key("examples").begin_object();
  if (t.examples.empty()) {
    w.key("defaults").begin_object().field("summary", "Every input at its default");
    w.key("value").begin_object();
    for (const auto& in : t.inputs) {
      w.key(in.key);
      write_default_value(w, in.default_value);
    }
    w.end_object().end_object();
  }
  int n = 0;
  for (const auto& ex : t.examples) {
    w.key("example" + std::to_string(++n)).begin_object().field("summary", ex.title);
    w.key("value").raw(ex.request_json).end_object();
  }
  w.end_object();
}

void write_execute_path(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(t.endpoint()).begin_object().key("post").begin_object();
  w.field("operationId", "run" + prefix);
  w.field("summary", t.name);
  std::string description = t.description;
  if (t.standard) description += "\n\nStandard: " + *t.standard + ".";
  description += "\n\nFormula, constants and worked examples: `docs/tools/" + t.slug +
                 ".md`. A 200 response uses one unit of the monthly quota; errors use none.";
  w.field("description", description);
  w.key("tags").begin_array().string(t.domain).end_array();
  security_required(w);
  w.key("requestBody").begin_object().field("required", true);
  w.key("content").begin_object().key("application/json").begin_object().key("schema");
  schema_ref(w, prefix + "Input");
  write_request_examples(w, t);
  w.end_object().end_object().end_object();
  w.key("responses").begin_object();
  ok_response(w, "The tool's outputs, each rounded to its precision.", prefix + "Response");
  response_ref(w, "400", "BadRequest");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "413", "PayloadTooLarge");
  response_ref(w, "415", "UnsupportedMediaType");
  response_ref(w, "422", "Unprocessable");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object();
  w.end_object().end_object();
}

// --- sweeps (issue 8; docs/api.md "Sweeps") ----------------------------------------------

bool is_numeric(const InputDescriptor& in) {
  return in.type == InputType::Number || in.type == InputType::Integer;
}

bool has_numeric_input(const ToolDescriptor& t) {
  for (const auto& in : t.inputs)
    if (is_numeric(in)) return true;
  return false;
}

void write_numeric_keys(JsonWriter& w, const ToolDescriptor& t) {
  w.begin_array();
  for (const auto& in : t.inputs)
    if (is_numeric(in)) w.string(in.key);
  w.end_array();
}

// vary.from / vary.to when `in` is the varied input: its type and bounds.
void write_sweep_end(JsonWriter& w, std::string_view name, const InputDescriptor& in) {
  w.key(name).begin_object().field("type", in.type == InputType::Integer ? "integer" : "number");
  if (in.min) w.key("minimum").shortest(*in.min);
  if (in.max) w.key("maximum").shortest(*in.max);
  w.end_object();
}

// The body {inputs, vary}. What depends on the varied input (the bounds of from/to, the
// inputs still required, the types of the others) is one if/then per numeric input; the
// varied input's own value in `inputs`, if sent, is replaced by each x and not checked.
void write_sweep_request_schema(JsonWriter& w, const ToolDescriptor& t) {
  w.begin_object().field("type", "object");
  w.field("description", "Vary one numeric input of " + t.slug +
                             " over a range; the other inputs as for " + t.endpoint() + ".");
  w.key("required").begin_array().string("vary").end_array();
  w.field("additionalProperties", false);
  w.key("properties").begin_object();
  w.key("inputs").begin_object().field("type", "object");
  w.field("description",
          "The tool's inputs (default `{}`); optional ones take their defaults. The varied "
          "input may be left out: each point sets it to `x`.");
  w.key("propertyNames").begin_object().key("enum").begin_array();
  for (const auto& in : t.inputs) w.string(in.key);
  w.end_array().end_object();
  w.end_object();
  w.key("vary").begin_object().field("type", "object");
  w.key("required").begin_array().string("key").string("from").string("to").string("points");
  w.end_array().field("additionalProperties", false);
  w.key("properties").begin_object();
  w.key("key").begin_object().field("type", "string");
  w.field("description", "The numeric input to vary.").key("enum");
  write_numeric_keys(w, t);
  w.end_object();
  w.key("from").begin_object().field("type", "number");
  w.field("description", "First x, within the input's bounds (an integer for an integer input).");
  w.end_object();
  w.key("to").begin_object().field("type", "number");
  w.field("description",
          "Last x, within the input's bounds; differs from `from` (a descending range is "
          "allowed).");
  w.end_object();
  w.key("points").begin_object().field("type", "integer").field("minimum", 2);
  w.field("maximum", 200);
  w.field("description",
          "How many x values, evenly spaced from `from` to `to` and rounded to 12 significant "
          "digits (integer inputs: to integers, and at most |to - from| + 1 points). Each point "
          "uses one unit of the monthly quota.");
  w.end_object();
  w.end_object().end_object();  // vary.properties, vary
  w.end_object();               // properties

  // Each sub-schema names every member it may meet ({} where anything goes), so that a
  // validator treating unlisted members as errors (Redocly's example check) reads it as
  // meant.
  const auto any = [&](std::string_view key) { w.key(key).begin_object().end_object(); };
  w.key("allOf").begin_array();
  for (const auto& varied : t.inputs) {
    if (!is_numeric(varied)) continue;
    w.begin_object().key("if").begin_object();
    w.key("required").begin_array().string("vary").end_array();
    w.key("properties").begin_object();
    any("inputs");
    w.key("vary").begin_object();
    w.key("required").begin_array().string("key").end_array();
    w.key("properties").begin_object();
    w.key("key").begin_object().field("const", varied.key).end_object();
    any("from");
    any("to");
    any("points");
    w.end_object().end_object();  // vary.properties, vary
    w.end_object().end_object();  // properties, if
    w.key("then").begin_object().key("properties").begin_object();
    w.key("vary").begin_object().key("properties").begin_object();
    any("key");
    write_sweep_end(w, "from", varied);
    write_sweep_end(w, "to", varied);
    any("points");
    w.end_object().end_object();
    w.key("inputs").begin_object().key("properties").begin_object();
    for (const auto& in : t.inputs) {
      if (&in == &varied)
        any(in.key);  // replaced by each x; its value is not checked
      else
        write_input_property(w, in);
    }
    w.end_object().key("required").begin_array();
    for (const auto& in : t.inputs)
      if (&in != &varied && in.required) w.string(in.key);
    w.end_array().end_object();
    w.end_object().end_object();  // then.properties, then
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_sweep_schemas(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(prefix + "SweepRequest");
  write_sweep_request_schema(w, t);

  w.key(prefix + "SweepResult").begin_object().field("type", "object");
  w.key("required").begin_array().string("key").string("points").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("key").begin_object().field("type", "string").field("description", "The varied input.");
  w.key("enum");
  write_numeric_keys(w, t);
  w.end_object();
  w.key("points").begin_object().field("type", "array").field("minItems", 2);
  w.field("maxItems", 200).field("description", "One per x, in order from `from` to `to`.");
  w.key("items").begin_object().key("oneOf").begin_array();
  w.begin_object().field("type", "object");
  w.key("required").begin_array().string("x").string("result").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("x").begin_object().field("type", "number").end_object();
  w.key("result");
  schema_ref(w, prefix + "Result");
  w.end_object().end_object();
  w.begin_object().field("type", "object");
  w.key("required").begin_array().string("x").string("error").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("x").begin_object().field("type", "number").end_object();
  w.key("error");
  schema_ref(w, "SweepPointError");
  w.end_object().end_object();
  w.end_array().end_object();   // oneOf, items
  w.end_object();               // points
  w.end_object().end_object();  // properties, SweepResult

  w.key(prefix + "SweepResponse");
  write_success_response_schema(w, t, t.endpoint() + "/sweep", prefix + "SweepResult");
}

// A request that sweeps the first numeric input upwards from its default, the others at
// their defaults.
void write_sweep_example(JsonWriter& w, const ToolDescriptor& t) {
  const InputDescriptor* varied = nullptr;
  for (const auto& in : t.inputs)
    if (!varied && is_numeric(in)) varied = &in;
  double from = std::get<double>(varied->default_value);
  double to = from == 0 ? 1 : from * 2;
  if (varied->max && to > *varied->max) to = *varied->max;
  if (varied->min && to < *varied->min) to = *varied->min;
  if (to == from && varied->min) to = *varied->min;
  int points = 5;
  if (varied->type == InputType::Integer)
    points = static_cast<int>(std::min(5.0, std::fabs(to - from) + 1));
  w.key("examples").begin_object().key("sweep").begin_object();
  w.field("summary",
          "Vary " + varied->key + " from its default, " + std::to_string(points) + " points");
  w.key("value").begin_object().key("inputs").begin_object();
  for (const auto& in : t.inputs) {
    if (&in == varied) continue;
    w.key(in.key);
    write_default_value(w, in.default_value);
  }
  w.end_object();
  w.key("vary").begin_object().field("key", varied->key).key("from").shortest(from);
  w.key("to").shortest(to).field("points", points).end_object();
  w.end_object().end_object().end_object();
}

void write_sweep_path(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(t.endpoint() + "/sweep").begin_object().key("post").begin_object();
  w.field("operationId", "sweep" + prefix);
  w.field("summary", t.name + ": sweep one input");
  w.field("description",
          "Runs " + t.endpoint() +
              " once per x value of one numeric input, with the same validation and maths. "
              "Costs one rate-limit unit, and one unit of the monthly quota per point that "
              "produced a result (all `points` units must be available, else 429 "
              "`QUOTA_EXCEEDED`). A point the tool cannot compute carries `error` instead of "
              "`result`. Errors name the field: `inputs.<key>`, `vary.key`, `vary.from`, "
              "`vary.to`, `vary.points`.");
  w.key("tags").begin_array().string(t.domain).end_array();
  security_required(w);
  w.key("requestBody").begin_object().field("required", true);
  w.key("content").begin_object().key("application/json").begin_object().key("schema");
  schema_ref(w, prefix + "SweepRequest");
  write_sweep_example(w, t);
  w.end_object().end_object().end_object();
  w.key("responses").begin_object();
  ok_response(w, "The x values with the tool's outputs (or the point's error).",
              prefix + "SweepResponse");
  response_ref(w, "400", "BadRequest");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "413", "PayloadTooLarge");
  response_ref(w, "415", "UnsupportedMediaType");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object();
  w.end_object().end_object();
}

void write_schema_path(JsonWriter& w, const ToolDescriptor& t, const std::string& prefix) {
  w.key(t.endpoint() + "/schema").begin_object().key("get").begin_object();
  w.field("operationId", "get" + prefix + "Schema");
  w.field("summary", "Inputs and outputs of " + t.name);
  w.key("tags").begin_array().string(t.domain).end_array();
  w.key("responses").begin_object();
  ok_response(w, "The tool description record.", "ToolRecordResponse");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object();
  w.end_object().end_object();
}

// --- the rest of spec §4, the document itself and MCP -----------------------------------

void write_discovery_paths(JsonWriter& w, const Registry& registry) {
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
  w.key("schema").begin_object().field("type", "integer").field("minimum", 1).field("default", 1);
  w.end_object().end_object();
  w.begin_object()
      .field("name", "limit")
      .field("in", "query")
      .field("description", "Items per page.");
  w.key("schema").begin_object().field("type", "integer").field("minimum", 1);
  w.field("maximum", 100).field("default", 20).end_object().end_object();
  w.end_array();
  w.key("responses").begin_object();
  ok_response(w, "One page of tool summaries.", "ToolListResponse");
  response_ref(w, "400", "BadRequest");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();

  w.key("/v1/tools/{slug}").begin_object().key("get").begin_object();
  w.field("operationId", "getTool").field("summary", "Full metadata of one tool");
  w.field("description",
          "The description record plus the schema path, the documentation page, references "
          "and worked example requests.");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("parameters").begin_array().begin_object().field("name", "slug").field("in", "path");
  w.field("required", true).field("description", "The tool's slug.");
  w.key("schema").begin_object().field("type", "string").field("pattern", "^[a-z0-9._-]{1,64}$");
  w.end_object().end_object().end_array();
  w.key("responses").begin_object();
  ok_response(w, "The tool's details.", "ToolDetailsResponse");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "404", "NotFound");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();

  w.key("/v1/domains").begin_object().key("get").begin_object();
  w.field("operationId", "listDomains")
      .field("summary", "All domains with live and target tool counts");
  w.key("tags").begin_array().string("catalog").end_array();
  w.key("responses").begin_object();
  ok_response(w, "Every domain, in catalog order.", "DomainListResponse");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();

  w.key("/v1/me").begin_object().key("get").begin_object();
  w.field("operationId", "getMe")
      .field("summary", "The caller's plan, key prefix and month-to-date quota");
  w.key("tags").begin_array().string("account").end_array();
  security_required(w);
  w.key("responses").begin_object();
  ok_response(w, "The caller.", "MeResponse");
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();

  w.key("/v1/health").begin_object().key("get").begin_object();
  w.field("operationId", "getHealth").field("summary", "Liveness check");
  w.field("description",
          "Never authenticated, rate limited or counted; a key, even an invalid one, is ignored.");
  w.key("tags").begin_array().string("operations").end_array();
  w.key("security").begin_array().end_array();  // none: a key is ignored here
  w.key("responses").begin_object();
  ok_response(w, "The service is up.", "HealthResponse");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();

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
  response_ref(w, "401", "Unauthorized");
  response_ref(w, "429", "TooManyRequests");
  response_ref(w, "500", "InternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();

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
  response_ref(w, "400", "McpBadRequest");
  response_ref(w, "401", "McpUnauthorized");
  response_ref(w, "403", "McpForbidden");
  response_ref(w, "413", "PayloadTooLarge");
  response_ref(w, "415", "McpUnsupportedMediaType");
  response_ref(w, "429", "McpTooManyRequests");
  response_ref(w, "500", "McpInternalError");
  transport_refs(w);
  w.end_object().end_object().end_object();
}

}  // namespace

std::string pascal_case(std::string_view slug) {
  std::string out;
  bool upper = true;
  for (char c : slug) {
    if (c == '-' || c == '_' || c == '.') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string openapi_server_url(const OpenApiOptions& options) {
  std::string url = options.server_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  url += options.base_path;
  return url.empty() ? "/" : url;
}

std::string render_openapi(const Registry& registry, const OpenApiOptions& options) {
  // Component prefixes: PascalCase slugs, made unique with the domain if two ever collide.
  std::map<const RegisteredTool*, std::string> prefix;
  std::set<std::string> taken;
  for (const auto& r : registry.tools()) {
    std::string p = pascal_case(r.tool.descriptor.slug);
    if (!taken.insert(p).second) {
      p = pascal_case(r.tool.descriptor.domain) + p;
      taken.insert(p);
    }
    prefix[&r] = p;
  }

  std::string s;
  s.reserve(64 * 1024);
  JsonWriter w(s);
  w.begin_object().field("openapi", "3.1.0");

  w.key("info").begin_object().field("title", "toolcalc API").field("version", options.version);
  w.field("summary", "A catalog of engineering and cost calculators over JSON/HTTP.");
  w.field(
      "description",
      "Generated from the tool registry. Every tool runs with `POST /v1/{domain}/{slug}` "
      "(one concrete path per tool below, with its inputs as the request body schema and "
      "its outputs as the typed `result`), and `POST /v1/{domain}/{slug}/sweep` runs it "
      "over a range of one numeric input; a path naming no tool is 404 `NOT_FOUND`. "
      "Discovery endpoints need no key; execute, sweep and `/v1/me` need `Authorization: Bearer "
      "<API key>`, and an invalid key is 401 everywhere. Every response carries "
      "`X-Request-ID`, `X-Tool-Version` and `X-RateLimit-*`; every non-2xx REST response "
      "is the error envelope. A wrong method on a known path is 405 `METHOD_NOT_ALLOWED` "
      "with `Allow`; `OPTIONS` answers CORS preflights (204). Transport limits: header "
      "block over 8 KiB is 431 `HEADERS_TOO_LARGE`, over the connection cap is 503 "
      "`SERVER_BUSY`. The MCP endpoint (`/mcp`) serves the same tools to agents. "
      "Decisions the contract left open are in docs/api.md.");
  w.end_object();

  w.key("servers").begin_array().begin_object().field("url", openapi_server_url(options));
  w.field("description", options.server_url.empty()
                             ? "Relative to the address this document was fetched from"
                             : "The service");
  w.end_object().end_array();

  // Discovery is open; a key, when sent, must be valid. Operations that need one say so.
  w.key("security").begin_array().begin_object().end_object();
  w.begin_object().key("bearerAuth").begin_array().end_array().end_object().end_array();

  w.key("tags").begin_array();
  for (const auto& d : registry.domains()) {
    if (registry.live_count(d.name) == 0) continue;
    w.begin_object()
        .field("name", d.name)
        .field("description", d.display_name + ": " + d.description);
    w.end_object();
  }
  w.begin_object()
      .field("name", "catalog")
      .field("description", "Discovery: tools, domains and this document.")
      .end_object();
  w.begin_object()
      .field("name", "account")
      .field("description", "The caller's plan and quota.")
      .end_object();
  w.begin_object().field("name", "operations").field("description", "Liveness.").end_object();
  w.begin_object()
      .field("name", "mcp")
      .field("description", "The tools for agents, over the Model Context Protocol.")
      .end_object();
  w.end_array();

  w.key("paths").begin_object();
  for (const auto& r : registry.tools()) write_execute_path(w, r.tool.descriptor, prefix[&r]);
  for (const auto& r : registry.tools()) write_schema_path(w, r.tool.descriptor, prefix[&r]);
  for (const auto& r : registry.tools())
    if (has_numeric_input(r.tool.descriptor)) write_sweep_path(w, r.tool.descriptor, prefix[&r]);
  write_discovery_paths(w, registry);
  w.end_object();

  w.key("components").begin_object();
  w.key("securitySchemes").begin_object().key("bearerAuth").begin_object();
  w.field("type", "http").field("scheme", "bearer");
  w.field("description",
          "An API key (`tc_live_…`, from `toolcalc keys create`) as `Authorization: Bearer "
          "<key>`. A missing key on execute or /v1/me, or an invalid key anywhere, is 401.");
  w.end_object().end_object();
  w.key("headers").raw(kHeaderComponents);
  w.key("responses").begin_object();
  write_error_responses(w);
  w.end_object();
  w.key("schemas").begin_object();
  for (const auto& r : registry.tools()) {
    write_tool_schemas(w, r.tool.descriptor, prefix[&r]);
    if (has_numeric_input(r.tool.descriptor)) write_sweep_schemas(w, r.tool.descriptor, prefix[&r]);
  }
  w.raw(kStaticSchemas);
  w.end_object();
  w.end_object();

  w.end_object();
  s += '\n';
  return s;
}

}  // namespace toolcalc::catalog
