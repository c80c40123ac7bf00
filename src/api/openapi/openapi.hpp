#pragma once
// The OpenAPI 3.1 document of the whole service, generated from the registry: one concrete
// path per tool with its request body and typed 200 response (from catalog/json_schema),
// every discovery and account endpoint, the MCP endpoint, and shared components for
// envelopes, error codes (from core/api_error.hpp's table), headers and bearer security.
// The registry is immutable, so the document is rendered once (at start-up, or by
// `toolcalc openapi`).
#include <string>
#include <string_view>

#include "catalog/registry.hpp"

namespace toolcalc::api::openapi {

struct Options {
  std::string version;     // info.version: the service version
  std::string base_path;   // "" or "/api": the path prefix every endpoint is served under
  std::string server_url;  // absolute origin, e.g. https://api.example.com; "" = relative
};

// servers[0].url: server_url + base_path, or base_path alone ("/" when both are empty),
// which a client resolves against the address it fetched the document from.
std::string server_url(const Options& options);

// Component and operation names for a tool: "mcu-deep-sleep-battery" → "McuDeepSleepBattery".
std::string pascal_case(std::string_view slug);

std::string render(const catalog::Registry& registry, const Options& options);

// The admin API's own document (GET /admin/v1/openapi.json; admin_document.cpp): kept out
// of the public one, which clients and agents read.
std::string render_admin(const Options& options);

}  // namespace toolcalc::api::openapi
