// The document: its info, servers, security and tags, then the paths (each endpoint row's
// writer, paths.hpp) and the components that the other files of this folder write.
#include <cctype>
#include <map>
#include <set>

#include "api/analysis_schema.hpp"
#include "api/endpoints.hpp"
#include "api/limits.hpp"
#include "api/openapi/openapi.hpp"
#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"

namespace toolcalc::api::openapi {

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

// The endpoints the document does not describe.
void no_path(Paths&) {}

std::string server_url(const Options& options) {
  std::string url = options.server_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  url += options.base_path;
  return url.empty() ? "/" : url;
}

std::string render(const catalog::Registry& registry, const Options& options) {
  // Component prefixes: PascalCase slugs, made unique with the domain if two ever collide.
  std::map<const catalog::RegisteredTool*, std::string> prefix;
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
  w.field("description",
          "Generated from the tool registry. Every tool runs with `POST /v1/{domain}/{slug}` "
          "(one concrete path per tool below, with its inputs as the request body schema and "
          "its outputs as the typed `result`), `POST /v1/{domain}/{slug}/sweep` runs it "
          "over a range of one numeric input, `…/tolerance` analyses it with tolerances on its "
          "inputs (worst case, RSS, Monte Carlo, sensitivity) and `…/solve` finds the input "
          "values that give an output a target value; a path naming no tool is 404 `NOT_FOUND`. "
          "Discovery endpoints need no key; execute, sweep, tolerance, solve and `/v1/me` need "
          "`Authorization: Bearer <API key>`, and an invalid key is 401 everywhere. Every "
          "response carries `X-Request-ID`, `X-Tool-Version` and `X-RateLimit-*`; every "
          "non-2xx REST response is the error envelope. A wrong method on a known path is 405 "
          "`METHOD_NOT_ALLOWED` with `Allow`; `OPTIONS` answers CORS preflights (204). "
          "Transport limits: a header block over " +
              std::to_string(kHeaderLimitBytes / 1024) +
              " KiB is 431 `HEADERS_TOO_LARGE`, a body over " +
              std::to_string(kBodyLimitBytes / 1024) +
              " KiB is 413 `PAYLOAD_TOO_LARGE`, over the connection cap is 503 `SERVER_BUSY`. The "
              "MCP endpoint (`/mcp`) serves the same tools to agents. Decisions the contract left "
              "open are in docs/api.md.");
  // Who answers for the service is whoever runs it; the request id is what they need.
  w.key("contact").begin_object().field("name", "The operator of this toolcalc service");
  w.end_object();
  w.end_object();

  w.key("servers").begin_array().begin_object().field("url", server_url(options));
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
  w.begin_object()
      .field("name", "operations")
      .field("description", "Liveness, readiness and metrics.")
      .end_object();
  w.begin_object()
      .field("name", "mcp")
      .field("description", "The tools for agents, over the Model Context Protocol.")
      .end_object();
  w.end_array();

  // The paths: every endpoint's, written by its row's writer (api/endpoints.cpp), in the
  // table's order, so that no routed endpoint is left out.
  ErrorRefs refs;
  Paths paths{w, refs, registry, prefix};
  w.key("paths").begin_object();
  for (const Endpoint& e : kEndpoints) e.openapi(paths);
  w.end_object();

  w.key("components").begin_object();
  w.key("securitySchemes").begin_object().key("bearerAuth").begin_object();
  w.field("type", "http").field("scheme", "bearer");
  w.field("description",
          "An API key (`tc_live_…`, from `toolcalc keys create`) as `Authorization: Bearer "
          "<key>`. A missing key on execute or /v1/me, or an invalid key anywhere, is 401.");
  w.end_object().end_object();
  w.key("headers");
  write_header_components(w);
  w.key("responses").begin_object();
  write_error_responses(w, refs);
  w.end_object();
  w.key("schemas").begin_object();
  for (const auto& r : registry.tools()) {
    write_tool_schemas(w, r.tool.descriptor, prefix[&r]);
    if (has_numeric_input(r.tool.descriptor)) write_sweep_schemas(w, r.tool.descriptor, prefix[&r]);
    write_analysis_schemas(w, r.tool.descriptor, prefix[&r]);
  }
  analysis_schema::write_components(w);
  write_error_schemas(w);
  write_static_schemas(w);
  w.end_object();
  w.end_object();

  w.end_object();
  s += '\n';
  return s;
}

}  // namespace toolcalc::api::openapi
