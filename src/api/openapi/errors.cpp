// The error responses of the document, generated from the one error table
// (core/api_error.hpp): which codes each status can carry, and what each means.
#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "api/limits.hpp"
#include "api/openapi/error_responses.hpp"
#include "api/openapi/writing.hpp"
#include "core/api_error.hpp"

namespace toolcalc::api::openapi {
namespace {

// What a response component is called, and the headers a response of that status carries
// besides the common ones.
struct StatusResponse {
  int status;
  std::string_view name;
  std::initializer_list<std::string_view> headers;
};

const StatusResponse kStatusResponses[] = {
    {400, "BadRequest", {}},
    {401, "Unauthorized", {"WWW-Authenticate"}},
    {403, "Forbidden", {}},
    {404, "NotFound", {}},
    {405, "MethodNotAllowed", {}},
    {413, "PayloadTooLarge", {}},
    {415, "UnsupportedMediaType", {}},
    {422, "Unprocessable", {}},
    {429, "TooManyRequests", {"Retry-After"}},
    {431, "HeadersTooLarge", {}},
    {500, "InternalError", {}},
    {503, "ServiceUnavailable", {"Retry-After"}},
};

const StatusResponse& status_response(int status) {
  for (const auto& s : kStatusResponses)
    if (s.status == status) return s;
  throw std::logic_error("no error response for status " + std::to_string(status));
}

// "`INVALID_JSON`: The body is not one JSON object. `VALIDATION_ERROR`: …" for a status,
// with the limits the transport enforces where they apply.
std::string describe(int status) {
  std::string text;
  for (const auto& kind : kErrorTable) {
    if (kind.status != status) continue;
    if (!text.empty()) text += ' ';
    text += '`';
    text += kind.name;
    text += "`: ";
    text += kind.meaning;
  }
  if (status == 413) text += " The limit is " + std::to_string(kBodyLimitBytes / 1024) + " KiB.";
  if (status == 431) text += " The limit is " + std::to_string(kHeaderLimitBytes / 1024) + " KiB.";
  return text;
}

void codes_enum(JsonWriter& w, int status) {
  w.key("enum").begin_array();
  for (const auto& kind : kErrorTable)
    if (kind.status == status) w.string(kind.name);
  w.end_array();
}

// The MCP endpoint answers a refused HTTP request with a JSON-RPC error response; how each
// status reads there.
std::string_view mcp_meaning(int status) {
  switch (status) {
    case 400:
      return "Not a JSON-RPC 2.0 message: parse error (-32700) or invalid request (-32600), "
             "including batches.";
    case 401:
      return "Invalid API key, or `tools/call` without one (-32000).";
    case 403:
      return "The `Origin` header names an origin that is not allowed (DNS-rebinding "
             "protection; -32000).";
    case 415:
      return "The body is not sent with `Content-Type: application/json` (-32000).";
    case 429:
      return "Rate limit reached, or (tools/call) the monthly quota is used up, or the key "
             "already has its limit of analyses waiting or running (-32000).";
    case 500:
      return "A defect (-32603); quote `data.request_id` to support.";
    default:
      return "Refused (-32000).";
  }
}

}  // namespace

std::string rest_response_name(int status) {
  return std::string(status_response(status).name);
}

std::string mcp_response_name(int status) {
  return "Mcp" + rest_response_name(status);
}

void write_error_responses(JsonWriter& w, const ErrorRefs& refs) {
  for (const int status : refs.rest) {
    const StatusResponse& s = status_response(status);
    w.key(s.name).begin_object().field("description", describe(status));
    common_headers(w, s.headers);
    // ErrorEnvelope with error.code narrowed to the codes of this status.
    w.key("content").begin_object().key("application/json").begin_object();
    w.key("schema").begin_object().key("allOf").begin_array();
    schema_ref(w, "ErrorEnvelope");
    w.begin_object().field("type", "object").key("properties").begin_object();
    w.key("error").begin_object().field("type", "object").key("properties").begin_object();
    w.key("code").begin_object();
    codes_enum(w, status);
    w.end_object();
    w.end_object().end_object();  // error.properties, error
    w.end_object().end_object();  // properties, allOf[1]
    w.end_array().end_object();   // allOf, schema
    w.end_object().end_object();  // application/json, content
    w.end_object();
  }
  for (const int status : refs.mcp) {
    const StatusResponse& s = status_response(status);
    std::string description(mcp_meaning(status));
    if (status != 400) {  // the JSON-RPC error's data.code is the REST API's error code
      description += " `data.code`:";
      for (const auto& kind : kErrorTable)
        if (kind.status == status) description += " " + std::string(kind.name);
      description += ".";
    }
    w.key(mcp_response_name(status)).begin_object().field("description", description);
    common_headers(w, s.headers);
    json_content(w, "JsonRpcErrorResponse");
    w.end_object();
  }
}

void write_error_schemas(JsonWriter& w) {
  std::string description =
      "Machine-readable error code (docs/api.md, \"Status codes and error codes\"):";
  for (const auto& kind : kErrorTable)
    description += "\n- `" + std::string(kind.name) + "` (" + std::to_string(kind.status) +
                   "): " + std::string(kind.meaning);
  w.key("ErrorCode").begin_object().field("type", "string").field("description", description);
  w.key("enum").begin_array();
  for (const auto& kind : kErrorTable) w.string(kind.name);
  w.end_array().end_object();

  w.key("SweepPointError").begin_object().field("type", "object");
  w.field("description",
          "Why one point of a sweep has no result: the tool cannot compute it from these "
          "inputs together (the 422 case of execute). The point's quota unit is given back.");
  w.key("required").begin_array().string("code").string("message").end_array();
  w.field("additionalProperties", false).key("properties").begin_object();
  w.key("code").begin_object().field("type", "string");
  w.field("const", error_kind(ErrorCode::Unprocessable).name).end_object();
  w.key("message").begin_object().field("type", "string").end_object();
  w.key("field").begin_object().field("type", "string");
  w.field("description", "The input at fault.").end_object();
  w.end_object().end_object();
}

}  // namespace toolcalc::api::openapi
