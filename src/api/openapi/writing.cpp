#include "api/openapi/writing.hpp"

#include <stdexcept>

#include "api/openapi/error_responses.hpp"

namespace toolcalc::api::openapi {

namespace {

// The headers of every response the API layer writes, errors and /v1/health included.
constexpr std::string_view kCommonHeaderNames[] = {
    "X-Request-ID",      "X-Tool-Version",   "X-RateLimit-Limit", "X-RateLimit-Remaining",
    "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"};

}  // namespace

std::string fill_values(std::string_view text, std::initializer_list<TextValue> values) {
  std::string out(text);
  for (const auto& [name, value] : values) {
    const std::string marker = "${" + std::string(name) + "}";
    size_t at = out.find(marker);
    if (at == std::string::npos)
      throw std::logic_error("fill_values: no " + marker + " in the text");
    for (; at != std::string::npos; at = out.find(marker, at + value.size()))
      out.replace(at, marker.size(), value);
  }
  if (const size_t left = out.find("${"); left != std::string::npos)
    throw std::logic_error("fill_values: unfilled " + out.substr(left, 40));
  return out;
}

void ref(JsonWriter& w, std::string_view target) {
  w.begin_object().field("$ref", target).end_object();
}

void schema_ref(JsonWriter& w, std::string_view name) {
  ref(w, std::string(kSchemas) + std::string(name));
}

void common_headers(JsonWriter& w, std::initializer_list<std::string_view> extra) {
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

void error_ref(JsonWriter& w, ErrorRefs& refs, int status) {
  refs.rest.insert(status);
  w.key(std::to_string(status));
  ref(w, "#/components/responses/" + rest_response_name(status));
}

void mcp_error_ref(JsonWriter& w, ErrorRefs& refs, int status) {
  refs.mcp.insert(status);
  w.key(std::to_string(status));
  ref(w, "#/components/responses/" + mcp_response_name(status));
}

void transport_error_refs(JsonWriter& w, ErrorRefs& refs, bool has_body) {
  if (has_body) error_ref(w, refs, 413);
  error_ref(w, refs, 431);
  error_ref(w, refs, 503);
}

}  // namespace toolcalc::api::openapi
