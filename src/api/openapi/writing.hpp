#pragma once
// Internal to api/openapi: the pieces every part of the document is written with, and the
// parts themselves (one file each, by what they describe).
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "catalog/descriptor.hpp"
#include "catalog/registry.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::api::openapi {

inline constexpr std::string_view kSchemas = "#/components/schemas/";

// The error statuses the paths refer to, collected while they are written, so that the
// document defines exactly the error responses it uses (errors.cpp).
struct ErrorRefs {
  std::set<int> rest;
  std::set<int> mcp;
};

// `text` with each "${NAME}" replaced by the value given for NAME: the limits a raw JSON text
// states, written from the constants the server enforces. Throws std::logic_error when a
// NAME given does not occur in `text` or a "${" is left unfilled (the documents are rendered
// by the tests, so a mistake fails there).
using TextValue = std::pair<std::string_view, std::string>;
std::string fill_values(std::string_view text, std::initializer_list<TextValue> values);

// What a row's OpenAPI writer (paths.hpp) writes with: the document's writer, inside
// "paths"; the error statuses referred to; the registry; each tool's component prefix
// (PascalCase slug, made unique with the domain if two ever collide).
struct Paths {
  JsonWriter& w;
  ErrorRefs& refs;
  const catalog::Registry& registry;
  const std::map<const catalog::RegisteredTool*, std::string>& prefixes;

  const std::string& prefix(const catalog::RegisteredTool& tool) const {
    return prefixes.at(&tool);
  }
};

// {"$ref": target}
void ref(JsonWriter& w, std::string_view target);
// {"$ref": "#/components/schemas/<name>"}
void schema_ref(JsonWriter& w, std::string_view name);
// "headers": the headers of every response, then `extra` ones (Retry-After, …).
void common_headers(JsonWriter& w, std::initializer_list<std::string_view> extra = {});
// "content": application/json with the schema component `schema_name`.
void json_content(JsonWriter& w, std::string_view schema_name);
// "200": the response with `schema_name` as its body.
void ok_response(JsonWriter& w, std::string_view description, std::string_view schema_name);
// "security": bearerAuth required.
void security_required(JsonWriter& w);

// "<status>": {"$ref": the REST error response for that status}; records it in `refs`.
void error_ref(JsonWriter& w, ErrorRefs& refs, int status);
// The same for the MCP endpoint, whose error bodies are JSON-RPC error responses.
void mcp_error_ref(JsonWriter& w, ErrorRefs& refs, int status);
// What the transport answers before a request reaches its endpoint, on any path: 413 (on
// requests with a body), 431 and 503.
void transport_error_refs(JsonWriter& w, ErrorRefs& refs, bool has_body);

// --- the parts (one file each) ---------------------------------------------------------

// components/headers (components.cpp)
void write_header_components(JsonWriter& w);
// The envelopes, descriptors and discovery results: the schemas that do not depend on the
// catalog (components.cpp).
void write_static_schemas(JsonWriter& w);
// components/responses: the error responses `refs` names, from the error table; and the
// ErrorCode and SweepPointError schemas (errors.cpp).
void write_error_responses(JsonWriter& w, const ErrorRefs& refs);
void write_error_schemas(JsonWriter& w);

// POST /v1/{domain}/{slug} and GET …/schema, and the tool's Input, Result and Response
// schemas (tool_paths.cpp). `prefix` is the tool's component prefix (PascalCase slug).
void write_execute_path(JsonWriter& w, ErrorRefs& refs, const catalog::ToolDescriptor& t,
                        const std::string& prefix);
void write_schema_path(JsonWriter& w, ErrorRefs& refs, const catalog::ToolDescriptor& t,
                       const std::string& prefix);
void write_tool_schemas(JsonWriter& w, const catalog::ToolDescriptor& t, const std::string& prefix);
// The 200 response of one of the tool's executing paths: the success envelope naming the
// tool, with `result` as the schema `result_schema`.
void write_success_response_schema(JsonWriter& w, const catalog::ToolDescriptor& t,
                                   const std::string& path, const std::string& result_schema);

// POST …/sweep and its schemas (sweep_paths.cpp); only for tools with a numeric input.
bool has_numeric_input(const catalog::ToolDescriptor& t);
void write_sweep_path(JsonWriter& w, ErrorRefs& refs, const catalog::ToolDescriptor& t,
                      const std::string& prefix);
void write_sweep_schemas(JsonWriter& w, const catalog::ToolDescriptor& t,
                         const std::string& prefix);

// The schemas of POST …/tolerance and …/solve (analysis_paths.cpp); only for tools with a
// numeric input (and, for solve, a number output).
void write_analysis_schemas(JsonWriter& w, const catalog::ToolDescriptor& t,
                            const std::string& prefix);

}  // namespace toolcalc::api::openapi
