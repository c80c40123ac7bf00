// The components that do not depend on the catalog: response headers, envelopes, tool
// descriptors and the results of the discovery and account endpoints.
#include <string>

#include "api/limits.hpp"
#include "api/openapi/writing.hpp"

namespace toolcalc::api::openapi {
namespace {

// Headers of every response (docs/api.md "Headers"). X-RateLimit-* are on every response
// the API layer writes, including errors and /v1/health.
constexpr std::string_view kHeaderComponents = R"json({
"X-Request-ID":{"description":"Unique id of this call; equals `meta.request_id`. Quote it to support.","required":true,"schema":{"type":"string","pattern":"^req_[A-Za-z0-9]{20,}$"}},
"X-Tool-Version":{"description":"SemVer of the tool on responses about one tool (execute, its schema, `/v1/tools/{slug}`, including their errors); the service version elsewhere.","required":true,"schema":{"type":"string"}},
"X-RateLimit-Limit":{"description":"Calls per minute allowed for the caller's plan (the `anonymous` plan, per client IP, without a key).","required":true,"schema":{"type":"integer","minimum":0}},
"X-RateLimit-Remaining":{"description":"Calls left in the current 60-second window; never negative.","required":true,"schema":{"type":"integer","minimum":0}},
"X-RateLimit-Reset":{"description":"Unix epoch seconds when the current 60-second window ends.","required":true,"schema":{"type":"integer","minimum":0}},
"RateLimit-Policy":{"description":"The caller's quota policies as in draft-ietf-httpapi-ratelimit-headers-09 (a structured-field List): `\"minute\";q=<X-RateLimit-Limit>;w=60` and, for a key with a monthly quota, `\"month\";q=<the quota>;w=<seconds in the current UTC month>`.","required":true,"schema":{"type":"string","pattern":"^\"minute\";q=[0-9]+;w=60(, \"month\";q=[0-9]+;w=[0-9]+)?$"},"example":"\"minute\";q=600;w=60, \"month\";q=100000;w=2592000"},
"RateLimit":{"description":"What is left of each policy of RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-09): `r` the units remaining (the minute's equals X-RateLimit-Remaining, the month's `meta.quota_remaining` and `/v1/me`'s `quota.remaining`), `t` the seconds until the window or the month ends.","required":true,"schema":{"type":"string","pattern":"^\"minute\";r=[0-9]+;t=[0-9]+(, \"month\";r=[0-9]+;t=[0-9]+)?$"},"example":"\"minute\";r=599;t=42, \"month\";r=99990;t=1234567"},
"Retry-After":{"description":"Whole seconds to wait before retrying (at least 1).","required":true,"schema":{"type":"integer","minimum":1}},
"WWW-Authenticate":{"description":"The authentication scheme to use: `Bearer`.","required":true,"schema":{"type":"string"}}
})json";

// ToolDetails declares `examples` in an allOf member (closed by unevaluatedProperties) rather
// than beside `schema`: a `properties` object holding members named both `schema` and
// `examples` is taken for a media type object by Spectral's oas3-valid-media-example rule
// (its JSONPath descends into schemas), which then reports a false error.
constexpr std::string_view kStaticSchemas = R"json(
"Error":{"type":"object","required":["code","message"],"additionalProperties":false,"properties":{"code":{"$ref":"#/components/schemas/ErrorCode"},"message":{"type":"string","description":"Human-readable; states the bound or the reason."},"field":{"type":"string","description":"The input key (or query parameter) at fault; present only when one is."}}},
"RequestMeta":{"type":"object","required":["request_id"],"additionalProperties":false,"properties":{"request_id":{"type":"string","pattern":"^req_[A-Za-z0-9]{20,}$","description":"Equals the X-Request-ID header."}}},
"ErrorEnvelope":{"type":"object","description":"Every non-2xx response of the REST endpoints.","required":["ok","error","meta"],"additionalProperties":false,"properties":{"ok":{"type":"boolean","const":false},"error":{"$ref":"#/components/schemas/Error"},"meta":{"$ref":"#/components/schemas/RequestMeta"}}},
"ExecuteMeta":{"type":"object","required":["latency_ms","quota_remaining","request_id"],"additionalProperties":false,"properties":{"latency_ms":{"type":"integer","minimum":0},"quota_remaining":{"type":["integer","null"],"minimum":0,"description":"Executions left this calendar month (UTC) after this call; null when the caller has no monthly quota."},"request_id":{"type":"string","pattern":"^req_[A-Za-z0-9]{20,}$"}}},
"SuccessEnvelope":{"type":"object","description":"The 200 response of every execute endpoint; `result` holds the tool's outputs.","required":["ok","tool","domain","version","result","meta"],"additionalProperties":false,"properties":{"ok":{"type":"boolean","const":true},"tool":{"type":"string","description":"The tool's slug."},"domain":{"type":"string"},"version":{"type":"string","description":"SemVer of the tool; equals X-Tool-Version."},"result":{"type":"object"},"meta":{"$ref":"#/components/schemas/ExecuteMeta"}}},
"ResultEnvelope":{"type":"object","description":"The 200 response of the discovery and account endpoints.","required":["ok","result","meta"],"additionalProperties":false,"properties":{"ok":{"type":"boolean","const":true},"result":{"type":"object"},"meta":{"$ref":"#/components/schemas/RequestMeta"}}},
"InputDescriptor":{"type":"object","required":["key","label","type","default"],"additionalProperties":false,"properties":{"key":{"type":"string"},"label":{"type":"string"},"required":{"type":"boolean","const":true,"description":"Present (true) on required inputs only."},"unit":{"type":"string"},"help":{"type":"string"},"type":{"type":"string","enum":["number","integer","enum","boolean"]},"min":{"type":"number"},"max":{"type":"number"},"step":{"type":"number","description":"A UI hint; not enforced."},"default":{"type":["number","string","boolean"]},"options":{"type":"array","items":{"type":"string"}}}},
"OutputDescriptor":{"type":"object","required":["key","label","type"],"additionalProperties":false,"properties":{"key":{"type":"string"},"label":{"type":"string"},"type":{"type":"string","enum":["number","string"]},"unit":{"type":"string"},"precision":{"type":"integer","minimum":0,"description":"Decimal places of a number output."},"options":{"type":"array","items":{"type":"string"},"description":"The values a string output takes."}}},
"ToolSummary":{"type":"object","required":["tool","domain","version","name","description","standard","endpoint"],"additionalProperties":false,"properties":{"tool":{"type":"string"},"domain":{"type":"string"},"version":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"standard":{"type":["string","null"]},"endpoint":{"type":"string","description":"Path of the execute endpoint, /v1/{domain}/{slug}."}}},
"ToolRecord":{"type":"object","description":"The tool description record (spec section 2.1).","required":["tool","domain","version","name","description","standard","inputs","outputs","endpoint"],"additionalProperties":false,"properties":{"tool":{"type":"string"},"domain":{"type":"string"},"version":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"standard":{"type":["string","null"]},"inputs":{"type":"array","items":{"$ref":"#/components/schemas/InputDescriptor"}},"outputs":{"type":"array","items":{"$ref":"#/components/schemas/OutputDescriptor"}},"endpoint":{"type":"string"}}},
"ToolExample":{"type":"object","description":"A worked example and verification vector: the request, the outputs an independent published source gives for it (`expected`), and that source. A number matches when it is within `tolerance_pct` % of the expected value plus half a unit in the last decimal place of the output's precision; a string matches exactly.","required":["title","method","path","body"],"additionalProperties":false,"properties":{"title":{"type":"string"},"method":{"type":"string","const":"POST"},"path":{"type":"string"},"body":{"type":"object"},"expected":{"type":"object","description":"Output key → the value the source gives.","additionalProperties":{"type":["number","string"]}},"tolerance_pct":{"type":"number","minimum":0},"source":{"type":"string","description":"The publication, with the page, table or figure."}}},
"ToolDetails":{"type":"object","description":"The description record plus links, references and worked example requests.","required":["tool","domain","version","name","description","standard","inputs","outputs","endpoint","schema","docs","references","examples"],"properties":{"tool":{"type":"string"},"domain":{"type":"string"},"version":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"standard":{"type":["string","null"]},"inputs":{"type":"array","items":{"$ref":"#/components/schemas/InputDescriptor"}},"outputs":{"type":"array","items":{"$ref":"#/components/schemas/OutputDescriptor"}},"endpoint":{"type":"string"},"schema":{"type":"string"},"docs":{"type":"string"},"references":{"type":"array","items":{"type":"string"}}},"allOf":[{"properties":{"examples":{"type":"array","items":{"$ref":"#/components/schemas/ToolExample"}}}}],"unevaluatedProperties":false},
"ToolList":{"type":"object","required":["items","page","limit","total","pages"],"additionalProperties":false,"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/ToolSummary"}},"page":{"type":"integer","minimum":1},"limit":{"type":"integer","minimum":1,"maximum":100},"total":{"type":"integer","minimum":0},"pages":{"type":"integer","minimum":0}}},
"Domain":{"type":"object","required":["domain","name","description","live","target","tools"],"additionalProperties":false,"properties":{"domain":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"live":{"type":"integer","minimum":0,"description":"Registered tools of the domain."},"target":{"type":"integer","minimum":0,"description":"Roadmap tool count."},"tools":{"type":"string","description":"Path listing the domain's tools."}}},
"DomainList":{"type":"object","required":["items"],"additionalProperties":false,"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Domain"}}}},
"Quota":{"type":"object","required":["limit","used","remaining","period","resets_at"],"additionalProperties":false,"properties":{"limit":{"type":["integer","null"],"minimum":0},"used":{"type":"integer","minimum":0},"remaining":{"type":["integer","null"],"minimum":0},"period":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"},"resets_at":{"type":"string","format":"date-time"}}},
"Limit":{"type":"object","required":["value","source"],"additionalProperties":false,"properties":{"value":{"type":["integer","null"],"minimum":0},"source":{"type":"string","enum":["plan","key"],"description":"`key` when the key has its own limit instead of its plan's."}}},
"Limits":{"type":"object","required":["rate_per_minute","monthly_quota"],"additionalProperties":false,"properties":{"rate_per_minute":{"$ref":"#/components/schemas/Limit"},"monthly_quota":{"$ref":"#/components/schemas/Limit"}}},
"Me":{"type":"object","required":["plan","key_prefix","label","rate_limit_per_minute","quota","limits"],"additionalProperties":false,"properties":{"plan":{"type":"string"},"key_prefix":{"type":"string"},"label":{"type":"string"},"rate_limit_per_minute":{"type":"integer","minimum":0,"description":"The effective limit: `limits.rate_per_minute.value`."},"quota":{"$ref":"#/components/schemas/Quota"},"limits":{"$ref":"#/components/schemas/Limits"}}},
"UsageCounts":{"type":"object","required":["executions","units","refusals"],"additionalProperties":false,"properties":{"executions":{"type":"integer","minimum":0,"description":"Successful executions (200), sweeps counted once."},"units":{"type":"integer","minimum":0,"description":"Quota units they used (a sweep: one per point with a result)."},"refusals":{"type":"object","description":"HTTP status → requests refused with it (400, 415, 422, 429, …).","propertyNames":{"pattern":"^[1-5][0-9]{2}$"},"additionalProperties":{"type":"integer","minimum":1}}}},
"UsageTool":{"type":"object","required":["domain","tool","executions","units","refusals"],"additionalProperties":false,"properties":{"domain":{"type":"string"},"tool":{"type":"string"},"executions":{"type":"integer","minimum":0},"units":{"type":"integer","minimum":0},"refusals":{"type":"object","propertyNames":{"pattern":"^[1-5][0-9]{2}$"},"additionalProperties":{"type":"integer","minimum":1}}}},
"UsageDay":{"type":"object","required":["date","tools"],"additionalProperties":false,"properties":{"date":{"type":"string","format":"date"},"tools":{"type":"array","items":{"$ref":"#/components/schemas/UsageTool"}}}},
"Usage":{"type":"object","required":["period","key_prefix","days","totals"],"additionalProperties":false,"properties":{"period":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"},"key_prefix":{"type":"string"},"days":{"type":"array","description":"The days with activity, in order (UTC).","items":{"$ref":"#/components/schemas/UsageDay"}},"totals":{"$ref":"#/components/schemas/UsageCounts"}}},
"Health":{"type":"object","required":["status","version","uptime_s"],"additionalProperties":false,"properties":{"status":{"type":"string","const":"ok"},"version":{"type":"string"},"uptime_s":{"type":"integer","minimum":0}}},
"ToolRecordResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/ToolRecord"}}}]},
"ToolDetailsResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/ToolDetails"}}}]},
"ToolListResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/ToolList"}}}]},
"DomainListResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/DomainList"}}}]},
"MeResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Me"}}}]},
"UsageResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Usage"}}}]},
"HealthResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Health"}}}]},
"Ready":{"type":"object","required":["status"],"additionalProperties":false,"properties":{"status":{"type":"string","const":"ready"}}},
"ReadyResponse":{"allOf":[{"$ref":"#/components/schemas/ResultEnvelope"},{"type":"object","properties":{"result":{"$ref":"#/components/schemas/Ready"}}}]},
"JsonRpcId":{"type":["string","number"],"description":"A JSON-RPC request id (MCP: a string or an integer, never null)."},
"JsonRpcMessage":{"type":"object","description":"One JSON-RPC 2.0 message: a request (`id` and `method`), a notification (`method`, no `id`) or a response to the server (`id` and `result` or `error`). Batches (arrays) are not accepted.","required":["jsonrpc"],"properties":{"jsonrpc":{"type":"string","const":"2.0"},"id":{"$ref":"#/components/schemas/JsonRpcId"},"method":{"type":"string","examples":["initialize","notifications/initialized","tools/list","tools/call","ping"]},"params":{"type":"object"},"result":{"type":"object"},"error":{"$ref":"#/components/schemas/JsonRpcError"}}},
"JsonRpcError":{"type":"object","required":["code","message"],"properties":{"code":{"type":"integer","description":"-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32603 internal error, -32000 refused by the service (HTTP 401, 403, 405, 415, 429: `data.code` is the error code of the REST API)."},"message":{"type":"string"},"data":{"type":"object","properties":{"code":{"$ref":"#/components/schemas/ErrorCode"},"request_id":{"type":"string"}}}}},
"JsonRpcResponse":{"type":"object","description":"The answer to one JSON-RPC request: `result` (initialize, tools/list, tools/call, ping) or `error`.","required":["jsonrpc","id"],"properties":{"jsonrpc":{"type":"string","const":"2.0"},"id":{"anyOf":[{"$ref":"#/components/schemas/JsonRpcId"},{"type":"null"}]},"result":{"type":"object"},"error":{"$ref":"#/components/schemas/JsonRpcError"}}},
"JsonRpcErrorResponse":{"type":"object","required":["jsonrpc","id","error"],"properties":{"jsonrpc":{"type":"string","const":"2.0"},"id":{"anyOf":[{"$ref":"#/components/schemas/JsonRpcId"},{"type":"null"}]},"error":{"$ref":"#/components/schemas/JsonRpcError"}}}
)json";

}  // namespace

void write_header_components(JsonWriter& w) {
  w.raw(kHeaderComponents);
}

void write_static_schemas(JsonWriter& w) {
  // The page size's bound is the server's, not a copy of it.
  std::string schemas(kStaticSchemas);
  const std::string bound = R"("limit":{"type":"integer","minimum":1,"maximum":100})";
  schemas.replace(
      schemas.find(bound), bound.size(),
      R"("limit":{"type":"integer","minimum":1,"maximum":)" + std::to_string(kMaxPageSize) + "}");
  w.raw(schemas);
}

}  // namespace toolcalc::api::openapi
