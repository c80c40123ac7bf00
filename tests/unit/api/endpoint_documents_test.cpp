// Every endpoint of the table (api/endpoints.hpp) is in the documents that list endpoints:
// its OpenAPI document (public or admin), the metrics' route labels and their list in
// docs/operations.md, and the endpoint tables of docs/architecture.md and docs/api.md. A
// row without its entry, or an entry without its row, fails here.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "api/endpoints.hpp"
#include "api/openapi/openapi.hpp"
#include "api/openapi/paths.hpp"
#include "api/openapi/writing.hpp"
#include "api/request_metrics.hpp"
#include "service_fixture.hpp"

using namespace toolcalc;
namespace json = boost::json;
using api::Callers;
using api::Counting;
using api::Endpoint;
using api::kEndpoints;
using api::Method;
using api::RouteKind;
using test_support::kSource;

namespace {

constexpr std::string_view kDomain = "iot-mcu";
constexpr std::string_view kSlug = "mcu-deep-sleep-battery";  // every tool route applies to it

catalog::Registry make_registry() {
  return catalog::Registry(tools::all_tools({kSource / "catalog"}),
                           catalog::load_domains(kSource / "catalog" / "domains.toml"));
}

std::string replaced(std::string s, std::string_view name, std::string_view value) {
  if (const size_t at = s.find(name); at != std::string::npos) s.replace(at, name.size(), value);
  return s;
}

// The battery tool's path for a route about one tool.
std::string tool_path(const Endpoint& e) {
  return replaced(replaced(std::string(e.path), "{domain}", kDomain), "{slug}", kSlug);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view method_text(Method m) {
  switch (m) {
    case Method::Get:
      return "GET";
    case Method::Post:
      return "POST";
    case Method::GetOrHead:
      return "GET, HEAD";
    case Method::Any:
      return "any";
  }
  return "";
}

std::string_view callers_text(Callers c) {
  switch (c) {
    case Callers::Anonymous:
      return "anyone";
    case Callers::Key:
      return "key";
    case Callers::KeyOptional:
      return "key optional";
    case Callers::Admin:
      return "admin token";
  }
  return "";
}

std::string_view counting_text(Counting c) {
  switch (c) {
    case Counting::NotCounted:
      return "no";
    case Counting::Request:
      return "request";
    case Counting::Execution:
      return "execution";
    case Counting::Units:
      return "units";
  }
  return "";
}

// Whether the row's writer describes it in the public document.
bool in_public_document(const Endpoint& e) {
  return e.openapi != &api::openapi::no_path;
}

// Where the row is described: in the public document, once per tool (a route about one
// tool) or at its path; the admin API's operations in the admin document (its rows); or
// nowhere.
std::string_view openapi_text(const Endpoint& e) {
  if (in_public_document(e)) return e.tool_route ? "per tool" : "public";
  return e.callers == Callers::Admin ? "admin" : "no";
}

// The rows the documents list: every endpoint but the unknown path, the admin API by its
// operations.
bool listed(const Endpoint& e) {
  return e.kind != RouteKind::NotFound && e.kind != RouteKind::Admin;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

// The rows of the first Markdown table after the line `heading`, each as its cells
// (trimmed, backticks removed), without the header and separator lines.
std::vector<std::vector<std::string>> table_after(const std::string& text,
                                                  std::string_view heading) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  bool under = false;
  int lines = 0;
  while (std::getline(in, line)) {
    if (!under) {
      under = line == heading;
      continue;
    }
    if (!line.starts_with("|")) {
      if (lines > 0) break;
      continue;
    }
    if (++lines <= 2) continue;  // the header and the separator
    std::vector<std::string> cells;
    std::string cell;
    for (char c : std::string_view(line).substr(1)) {
      if (c == '|') {
        cells.push_back(trim(cell));
        cell.clear();
      } else if (c != '`') {
        cell += c;
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

std::string as_row(const std::vector<std::string>& cells) {
  std::string s = "|";
  for (const auto& c : cells) s += " " + c + " |";
  return s;
}

}  // namespace

TEST(EndpointDocuments, EveryPublicEndpointIsInTheOpenApiDocumentAtItsMethod) {
  const auto registry = make_registry();
  const json::object doc = json::parse(api::openapi::render(registry, {"1", "", ""})).as_object();
  const json::object& paths = doc.at("paths").as_object();
  for (const Endpoint& e : kEndpoints) {
    if (!in_public_document(e)) continue;
    const std::string path = e.tool_route ? tool_path(e) : std::string(e.path);
    ASSERT_TRUE(paths.contains(path)) << e.name << ": no " << path << " in the OpenAPI document";
    EXPECT_TRUE(paths.at(path).as_object().contains(lower(method_text(e.method))))
        << e.name << " " << path;
  }
  // And every path of the document is a row that says it is there, at the row's method.
  for (const auto& [path, item] : paths) {
    const std::string target = replaced(std::string(path), "{slug}", kSlug);
    const Endpoint& e = api::endpoint(api::match_route(target, "").kind);
    EXPECT_TRUE(in_public_document(e))
        << path << " is documented, but its row (" << e.name << ") has no writer";
    for (const auto& [member, operation] : item.as_object()) {
      if (member == "parameters") continue;
      EXPECT_EQ(member, lower(method_text(e.method))) << path;
    }
  }
}

// Each row's writer writes its own row's paths and nothing else: its path at its method,
// or, for a route about one tool, that path of each tool it applies to.
TEST(EndpointDocuments, EachRowsWriterWritesItsOwnPaths) {
  const auto registry = make_registry();
  std::map<const catalog::RegisteredTool*, std::string> prefixes;
  for (const auto& r : registry.tools())
    prefixes[&r] = api::openapi::pascal_case(r.tool.descriptor.slug) + r.tool.descriptor.domain;
  for (const Endpoint& e : kEndpoints) {
    std::string out;
    JsonWriter w(out);
    api::openapi::ErrorRefs refs;
    api::openapi::Paths paths{w, refs, registry, prefixes};
    w.begin_object();
    e.openapi(paths);
    w.end_object();
    const json::object written = json::parse(out).as_object();
    if (!in_public_document(e)) {
      EXPECT_TRUE(written.empty()) << e.name;
      continue;
    }
    ASSERT_FALSE(written.empty()) << e.name;
    for (const auto& [path, item] : written) {
      const std::string target = replaced(std::string(path), "{slug}", kSlug);
      EXPECT_EQ(api::match_route(target, "").kind, e.kind) << e.name << " wrote " << path;
      EXPECT_TRUE(item.as_object().contains(lower(method_text(e.method)))) << e.name << " " << path;
    }
    if (e.tool_route) {
      EXPECT_TRUE(written.contains(tool_path(e))) << e.name;
    } else {
      EXPECT_EQ(written.size(), 1u) << e.name;
      EXPECT_TRUE(written.contains(e.path)) << e.name;
    }
  }
}

TEST(EndpointDocuments, EveryAdminOperationIsInTheAdminDocument) {
  const json::object doc = json::parse(api::openapi::render_admin({"1", "", ""})).as_object();
  const json::object& paths = doc.at("paths").as_object();
  for (const api::AdminEndpoint& a : api::admin_endpoints()) {
    ASSERT_TRUE(paths.contains(a.path)) << a.action;
    EXPECT_TRUE(paths.at(a.path).as_object().contains(lower(a.method))) << a.action;
  }
  for (const auto& [path, item] : paths) {
    for (const auto& [member, operation] : item.as_object()) {
      if (member == "parameters") continue;
      bool found = false;
      for (const api::AdminEndpoint& a : api::admin_endpoints())
        found = found || (a.path == path && lower(a.method) == member);
      EXPECT_TRUE(found) << member << " " << path << " is documented but has no admin row";
    }
  }
  // The admin API is not in the public document.
  const auto registry = make_registry();
  const std::string pub = api::openapi::render(registry, {"1", "", ""});
  EXPECT_EQ(pub.find("/admin/"), std::string::npos);
}

TEST(EndpointDocuments, EveryEndpointHasItsMetricsLabelAndIsListedInOperationsDoc) {
  const auto registry = make_registry();
  const auto* battery = registry.find(kDomain, kSlug);
  ASSERT_NE(battery, nullptr);
  api::RequestMetrics metrics(registry);
  for (const Endpoint& e : kEndpoints)
    metrics.count(e.kind, e.tool_route ? battery : nullptr, 200, 1000);
  std::string out;
  metrics.render(out);
  // docs/operations.md's list of the `route` label's values.
  const std::string ops = read_file(kSource / "docs" / "operations.md");
  const size_t list = ops.find("`route`: ");
  ASSERT_NE(list, std::string::npos);
  const std::string route_list = ops.substr(list, ops.find('\n', list) - list);
  for (const Endpoint& e : kEndpoints) {
    const std::string tool = e.tool_route ? std::string(kSlug) : "";
    EXPECT_NE(out.find("toolcalc_requests_total{route=\"" + std::string(e.name) + "\",tool=\"" +
                       tool + "\",status=\"2xx\"} 1"),
              std::string::npos)
        << e.name;
    const std::string listed_name = " " + std::string(e.name);
    EXPECT_TRUE(route_list.find(listed_name + ",") != std::string::npos ||
                route_list.find(listed_name + " (") != std::string::npos)
        << e.name << " is not in docs/operations.md's list of route labels";
  }
}

// docs/architecture.md's table is this table: a row added, removed or changed on one side
// only fails, and the message shows the rows to write there.
TEST(EndpointDocuments, TheArchitectureTableIsTheEndpointTable) {
  std::vector<std::vector<std::string>> expected;
  for (const Endpoint& e : kEndpoints) {
    if (!listed(e)) continue;
    expected.push_back({std::string(e.name), std::string(method_text(e.method)),
                        std::string(e.path), std::string(callers_text(e.callers)),
                        std::string(counting_text(e.counting)), std::string(openapi_text(e))});
  }
  for (const api::AdminEndpoint& a : api::admin_endpoints())
    expected.push_back({std::string(a.action), std::string(a.method), std::string(a.path),
                        std::string(callers_text(Callers::Admin)),
                        std::string(counting_text(Counting::NotCounted)), "admin"});
  const auto documented =
      table_after(read_file(kSource / "docs" / "architecture.md"), "## Endpoints");
  std::string want;
  for (const auto& row : expected) want += as_row(row) + "\n";
  EXPECT_EQ(documented, expected) << "docs/architecture.md, \"Endpoints\", should list:\n" << want;
}

// docs/api.md's table of endpoints names every public one at its method.
TEST(EndpointDocuments, TheApiDocListsEveryEndpoint) {
  const auto rows = table_after(read_file(kSource / "docs" / "api.md"), "## Endpoints");
  ASSERT_FALSE(rows.empty());
  for (const Endpoint& e : kEndpoints) {
    if (!listed(e)) continue;
    bool found = false;
    for (const auto& cells : rows) {
      if (cells.size() < 2) continue;
      const std::string& path = cells[1];
      const bool at_path = path.starts_with(std::string(e.path)) &&
                           (path.size() == e.path.size() || path[e.path.size()] == ',' ||
                            path[e.path.size()] == '?' || path[e.path.size()] == ' ');
      found = found || (at_path && cells[0].find(e.method == Method::Post ? "POST" : "GET") !=
                                       std::string::npos);
    }
    EXPECT_TRUE(found) << e.name << " (" << e.path << ") is not in docs/api.md's endpoint table";
  }
}
