// The MCP endpoint through Service::handle: JSON-RPC framing and errors,
// initialize's version negotiation, tools/list from the schema generator, tools/call on
// the execute path (auth, quota, validation as tool errors), GET 405, the Origin rule.
#include "api/mcp.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <regex>

#include "analysis/solve.hpp"
#include "analysis/tolerance.hpp"
#include "api/limits.hpp"
#include "api/openapi/openapi.hpp"
#include "api/routes.hpp"
#include "api/service.hpp"
#include "catalog/domains.hpp"
#include "catalog/json_schema.hpp"
#include "fake_access.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;
constexpr std::string_view kBatteryArgs =
    R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
    R"("wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80})";

class McpTest : public ::testing::Test {
 protected:
  catalog::Registry registry{tools::all_tools({kSource / "catalog"}),
                             catalog::load_domains(kSource / "catalog" / "domains.toml")};
  test_support::FakeAccess access;
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock,
                       api::ServiceOptions{"/api", "9.9.9", nullptr, {"https://app.example.com"}}};

  api::Response post(std::string_view body,
                     std::optional<std::string_view> auth = "Bearer tc_live_good",
                     std::string_view origin = {}, std::string_view method = "POST",
                     std::string_view content_type = "application/json") {
    api::Request r;
    r.method = method;
    r.target = "/api/mcp";
    r.body = body;
    r.authorization = auth;
    r.content_type = content_type;
    r.origin = origin;
    r.peer_ip = "10.1.2.3";
    return service.handle(r);
  }
  static json::object parse(const api::Response& r) { return json::parse(r.body).as_object(); }
  static std::string call(std::string_view name, std::string_view args, int id = 7) {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
           R"(,"method":"tools/call","params":{"name":")" + std::string(name) +
           R"(","arguments":)" + std::string(args) + "}}";
  }
  static void expect_rpc_error(const api::Response& r, int status, json::value id, int code) {
    EXPECT_EQ(r.status, status) << r.body;
    auto o = parse(r);
    EXPECT_EQ(o.at("jsonrpc").as_string(), "2.0");
    EXPECT_EQ(o.at("id"), id) << r.body;
    EXPECT_EQ(o.at("error").at("code").as_int64(), code) << r.body;
    EXPECT_FALSE(o.at("error").at("message").as_string().empty());
  }
};

}  // namespace

TEST_F(McpTest, InitializeNegotiatesTheVersion) {
  for (const auto& [asked, answered] :
       std::vector<std::pair<std::string, std::string>>{{"2025-06-18", "2025-06-18"},
                                                        {"2025-11-25", "2025-11-25"},
                                                        {"2024-11-05", "2025-11-25"},
                                                        {"2099-01-01", "2025-11-25"}}) {
    auto r = post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" +
                  asked + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    ASSERT_EQ(r.status, 200) << r.body;
    auto o = parse(r);
    EXPECT_EQ(o.at("id").as_int64(), 1);
    const auto& res = o.at("result").as_object();
    EXPECT_EQ(res.at("protocolVersion").as_string(), answered) << asked;
    EXPECT_EQ(json::serialize(res.at("capabilities")), R"({"tools":{}})");
    EXPECT_EQ(res.at("serverInfo").at("name").as_string(), "toolcalc");
    EXPECT_EQ(res.at("serverInfo").at("version").as_string(), "9.9.9");
    EXPECT_FALSE(r.header("Mcp-Session-Id").has_value());
  }
  // Initialize needs no key (discovery); protocolVersion is required.
  EXPECT_EQ(
      post(
          R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})",
          std::nullopt)
          .status,
      200);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":"x","method":"initialize","params":{}})"), 200,
                   "x", -32602);
}

TEST_F(McpTest, NotificationsAndResponsesAreAcceptedWithoutBody) {
  for (const char* body :
       {R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})",
        R"({"jsonrpc":"2.0","method":"no/such/notification"})",
        R"({"jsonrpc":"2.0","id":5,"result":{}})"}) {
    auto r = post(body, std::nullopt);
    EXPECT_EQ(r.status, 202) << body;
    EXPECT_TRUE(r.body.empty()) << body;
    EXPECT_TRUE(r.header("X-Request-ID").has_value());
  }
}

TEST_F(McpTest, JsonRpcFramingErrors) {
  expect_rpc_error(post("{nope"), 400, nullptr, -32700);
  expect_rpc_error(post(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"), 400, nullptr, -32600);
  expect_rpc_error(post(R"("ping")"), 400, nullptr, -32600);
  expect_rpc_error(post(R"({"id":1,"method":"ping"})"), 400, nullptr, -32600);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"), 400, nullptr, -32600);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})"), 400, nullptr, -32600);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":1,"method":7})"), 400, 1, -32600);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":1})"), 400, 1, -32600);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":2,"method":"resources/list"})"), 200, 2, -32601);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":3,"method":"ping","params":[1]})"), 200, 3,
                   -32602);
  auto ping = post(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
  EXPECT_EQ(ping.status, 200);
  EXPECT_EQ(ping.body, R"({"jsonrpc":"2.0","id":"p","result":{}})");
}

TEST_F(McpTest, ToolsListUsesTheSchemaGenerator) {
  auto r = post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", std::nullopt);
  ASSERT_EQ(r.status, 200) << r.body;
  const auto doc = parse(r);
  const auto& tools = doc.at("result").at("tools").as_array();
  // Every catalog tool, then tolerance_analysis and solve_for_input.
  ASSERT_EQ(tools.size(), registry.tools().size() + 2);
  EXPECT_EQ(tools[tools.size() - 2].at("name").as_string(), "tolerance_analysis");
  EXPECT_EQ(tools[tools.size() - 1].at("name").as_string(), "solve_for_input");
  for (size_t i = 0; i < registry.tools().size(); ++i) {
    const auto& t = registry.tools()[i].tool.descriptor;
    const auto& tool = tools[i].as_object();
    EXPECT_EQ(tool.at("name").as_string(), t.domain + "_" + t.slug);
    EXPECT_EQ(tool.at("title").as_string(), t.name);
    EXPECT_EQ(tool.at("inputSchema"), json::parse(catalog::input_schema_json(t))) << t.slug;
    EXPECT_EQ(tool.at("outputSchema"), json::parse(catalog::output_schema_json(t))) << t.slug;
    EXPECT_EQ(tool.at("annotations").at("readOnlyHint"), true);
  }
}

TEST_F(McpTest, ToolNamesKeepToTheStrictestClientRules) {
  for (const auto& r : registry.tools()) {
    const std::string name = api::mcp::tool_name(r.tool.descriptor);
    EXPECT_LE(name.size(), 64u) << name;
    for (char c : name)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') << name;
  }
}

TEST_F(McpTest, ToolsCallRunsTheExecutePath) {
  auto r = post(call("iot-mcu_mcu-deep-sleep-battery", kBatteryArgs));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(*r.header("X-Tool-Version"), "1.0.0");
  const std::string result =
      R"({"avg_current_ua":343.3,"avg_current_ma":0.343,"lifetime_hours":4660.8,)"
      R"("lifetime_days":194.2,"lifetime_years":0.53,"daily_wakes":1440})";
  EXPECT_NE(r.body.find(R"("structuredContent":)" + result + R"(,"isError":false)"),
            std::string::npos)
      << r.body;
  auto o = parse(r);
  const auto& res = o.at("result").as_object();
  EXPECT_EQ(res.at("content").at(0).at("type").as_string(), "text");
  EXPECT_EQ(res.at("content").at(0).at("text").as_string(), result);
  EXPECT_EQ(res.at("_meta").at("toolcalc/quota_remaining").as_int64(), 1);
  EXPECT_EQ(access.quota_used, 1);
  // Optional inputs take their defaults when left out, as on REST.
  auto cost = post(call(
      "programming-dev_llm-api-cost-calculator",
      R"({"input_tokens_per_call":2000,"output_tokens_per_call":500,"calls_per_month":100000})"));
  EXPECT_EQ(cost.status, 200) << cost.body;
  EXPECT_EQ(parse(cost).at("result").at("isError"), false) << cost.body;
  EXPECT_EQ(access.quota_used, 2);
}

TEST_F(McpTest, InvalidArgumentsAreToolErrorsAndUseNoQuota) {
  auto r = post(call("iot-mcu_mcu-deep-sleep-battery", R"({"battery_capacity_mah":5})"));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto doc = parse(r);
  const auto& res = doc.at("result").as_object();
  EXPECT_EQ(res.at("isError"), true);
  EXPECT_FALSE(res.contains("structuredContent"));
  EXPECT_EQ(res.at("content").at(0).at("text").as_string(),
            "battery_capacity_mah must be at least 100");
  EXPECT_EQ(res.at("_meta").at("toolcalc/error").at("code").as_string(), "VALIDATION_ERROR");
  EXPECT_EQ(res.at("_meta").at("toolcalc/error").at("field").as_string(), "battery_capacity_mah");
  // 422: valid one by one, impossible together.
  auto impossible =
      post(call("iot-mcu_mcu-deep-sleep-battery",
                R"({"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,)"
                R"("wake_duration_ms":600000,"cycle_period_s":60,"battery_efficiency_pct":80})"));
  ASSERT_EQ(impossible.status, 200) << impossible.body;
  const auto doc422 = parse(impossible);
  const auto& res422 = doc422.at("result").as_object();
  EXPECT_EQ(res422.at("isError"), true);
  EXPECT_EQ(res422.at("_meta").at("toolcalc/error").at("code").as_string(), "UNPROCESSABLE");
  EXPECT_EQ(access.quota_used, 0);
  // Missing arguments are an empty object: the first required input is named.
  auto none = post(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"iot-mcu_mcu-deep-sleep-battery"}})");
  EXPECT_EQ(parse(none).at("result").at("content").at(0).at("text").as_string(),
            "battery_capacity_mah is required");
}

TEST_F(McpTest, ProtocolErrorsOfToolsCall) {
  auto unknown = post(call("iot-mcu.mcu-deep-sleep-battery", "{}", 4));
  expect_rpc_error(unknown, 200, 4, -32602);
  EXPECT_NE(unknown.body.find("did you mean 'iot-mcu_mcu-deep-sleep-battery'"), std::string::npos);
  expect_rpc_error(post(call("iot-mcu_mcu-deep-sleep-battery", "[1]", 5)), 200, 5, -32602);
  expect_rpc_error(post(R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{}})"), 200, 6,
                   -32602);
}

TEST_F(McpTest, ProtocolErrorsNeverEchoAKeyWhole) {
  // A key pasted where the client names a version, a method, a tool or a member is quoted
  // up to its 12-character prefix (the 40 characters of the version echo hold a whole key).
  const std::string key = "tc_live_abcdefghijklmnopqrstuvwxyz012345";
  const std::string kept = "tc_live_abcd[redacted]";
  auto expect_redacted = [&](const api::Response& r, int status, json::value id, int code) {
    expect_rpc_error(r, status, id, code);
    EXPECT_EQ(r.body.find("efghijklmnop"), std::string::npos) << r.body;
    EXPECT_NE(parse(r).at("error").at("message").as_string().find(kept), std::string::npos)
        << r.body;
  };
  api::Request version;
  version.method = "POST";
  version.target = "/api/mcp";
  version.body = R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})";
  version.content_type = "application/json";
  version.peer_ip = "10.1.2.3";
  version.mcp_protocol_version = key;
  expect_redacted(service.handle(version), 400, nullptr, -32600);
  expect_redacted(post(R"({"jsonrpc":"2.0","id":2,"method":")" + key + R"("})"), 200, 2, -32601);
  expect_redacted(post(call(key, "{}", 4)), 200, 4, -32602);
  expect_redacted(
      post(R"({"jsonrpc":"2.0","id":5,"method":"ping",")" + key + R"(":1,")" + key + R"(":2})"),
      400, 5, -32600);
}

TEST_F(McpTest, ToolsCallNeedsAValidKey) {
  auto missing = post(call("iot-mcu_mcu-deep-sleep-battery", kBatteryArgs, 9), std::nullopt);
  expect_rpc_error(missing, 401, 9, -32000);
  EXPECT_EQ(*missing.header("WWW-Authenticate"), "Bearer");
  EXPECT_EQ(parse(missing).at("error").at("data").at("code").as_string(), "UNAUTHORIZED");
  // An invalid key is refused before the body is read, on every method.
  auto invalid = post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", "Bearer tc_live_bad");
  expect_rpc_error(invalid, 401, nullptr, -32000);
  EXPECT_EQ(access.quota_used, 0);
}

TEST_F(McpTest, QuotaExhaustionIsHttp429) {
  access.quota_used = 2;  // the fake plan allows 2
  auto r = post(call("iot-mcu_mcu-deep-sleep-battery", kBatteryArgs, 3));
  expect_rpc_error(r, 429, 3, -32000);
  EXPECT_EQ(parse(r).at("error").at("data").at("code").as_string(), "QUOTA_EXCEEDED");
  ASSERT_TRUE(r.header("Retry-After").has_value());
}

TEST_F(McpTest, RateLimitedLikeEveryRequest) {
  for (int i = 0; i < 100; ++i) post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  auto r = post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  expect_rpc_error(r, 429, nullptr, -32000);
  EXPECT_EQ(parse(r).at("error").at("data").at("code").as_string(), "RATE_LIMITED");
}

TEST_F(McpTest, GetIs405AndPreflightAllowsMcpHeaders) {
  auto get = post("", std::nullopt, {}, "GET");
  expect_rpc_error(get, 405, nullptr, -32000);
  EXPECT_EQ(*get.header("Allow"), "POST, OPTIONS");
  auto options = post("", std::nullopt, "https://elsewhere.example", "OPTIONS");
  EXPECT_EQ(options.status, 204);
  EXPECT_NE(options.header("Access-Control-Allow-Headers")->find("Mcp-Protocol-Version"),
            std::string::npos);
  expect_rpc_error(post("{}", "Bearer tc_live_good", {}, "POST", "text/plain"), 415, nullptr,
                   -32000);
}

TEST_F(McpTest, OriginIsChecked) {
  const std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  for (const char* ok : {"", "http://localhost:5173", "http://127.0.0.1", "https://LOCALHOST:8443",
                         "http://[::1]:3000", "https://app.example.com", "HTTPS://APP.EXAMPLE.COM"})
    EXPECT_EQ(post(ping, "Bearer tc_live_good", ok).status, 200) << ok;
  for (const char* bad :
       {"https://evil.example", "null", "http://localhost.evil.example", "http://127.0.0.1.nip.io",
        "http://localhost:99999x", "file://", "https://app.example.com:444"}) {
    auto r = post(ping, "Bearer tc_live_good", bad);
    expect_rpc_error(r, 403, nullptr, -32000);
    EXPECT_EQ(parse(r).at("error").at("data").at("code").as_string(), "FORBIDDEN") << bad;
  }
}

TEST(McpOrigin, Rule) {
  using api::mcp::origin_allowed;
  EXPECT_TRUE(origin_allowed("", {}));
  EXPECT_TRUE(origin_allowed("http://localhost", {}));
  EXPECT_FALSE(origin_allowed("http://localhost:", {}));
  EXPECT_FALSE(origin_allowed("http://[::1", {}));
  EXPECT_FALSE(origin_allowed("http://evil.example", {"https://evil.example"}));
}

TEST(McpRoutes, OpenApiAndMcpPaths) {
  using api::RouteKind;
  EXPECT_EQ(api::match_route("/v1/openapi.json", "").kind, RouteKind::OpenApi);
  EXPECT_EQ(api::match_route("/api/v1/openapi.json", "/api").kind, RouteKind::OpenApi);
  EXPECT_EQ(api::match_route("/mcp", "").kind, RouteKind::Mcp);
  EXPECT_EQ(api::match_route("/api/mcp?x=1", "/api").kind, RouteKind::Mcp);
  for (const char* t : {"/mcp/", "/v1/mcp", "/MCP", "/api/mcp"})
    EXPECT_NE(api::match_route(t, "").kind, RouteKind::Mcp) << t;
  EXPECT_EQ(api::allowed_methods(RouteKind::Mcp), "POST, OPTIONS");
  EXPECT_EQ(api::allowed_methods(RouteKind::OpenApi), "GET, OPTIONS");
}

TEST_F(McpTest, UnsupportedProtocolVersionHeaderIs400) {
  const std::string list = R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})";
  api::Request r;
  r.method = "POST";
  r.target = "/api/mcp";
  r.body = list;
  r.content_type = "application/json";
  r.peer_ip = "10.1.2.3";
  r.mcp_protocol_version = "1999-01-01";
  expect_rpc_error(service.handle(r), 400, nullptr, -32600);
  for (const char* v : {"2025-06-18", "2025-11-25"}) {
    r.mcp_protocol_version = v;
    EXPECT_EQ(service.handle(r).status, 200) << v;
  }
}

TEST_F(McpTest, AnalysisToolsTakeAToolArgumentAndTheRestBody) {
  const std::string divider = R"("inputs":{"vin_v":12,"r1_ohm":10000,"r2_ohm":10000})";
  auto r = post(
      call("solve_for_input", R"({"tool":"electronics_voltage-divider",)" + divider +
                                  R"(,"vary":"r2_ohm","target":{"output":"vout_v","value":3.3}})"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(*r.header("X-Tool-Version"), "2.0.0");
  auto result = parse(r).at("result").as_object();
  EXPECT_EQ(result.at("isError"), false) << r.body;
  const auto& solution = result.at("structuredContent").at("solutions").at(0).as_object();
  EXPECT_NEAR(solution.at("value").as_double(), 10000 * 3.3 / 8.7, 1e-9);
  EXPECT_EQ(result.at("_meta").at("toolcalc/quota_remaining").as_int64(), 1);
  EXPECT_EQ(access.quota_used, 1);

  // `tool` missing or unknown: a tool error naming the argument, nothing charged.
  r = post(call("tolerance_analysis", "{" + divider + "}"));
  ASSERT_EQ(r.status, 200) << r.body;
  result = parse(r).at("result").as_object();
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_EQ(result.at("_meta").at("toolcalc/error").at("field").as_string(), "tool");
  r = post(call("tolerance_analysis", R"({"tool":"voltage-divider"})"));
  result = parse(r).at("result").as_object();
  EXPECT_NE(json::serialize(result.at("content")).find("electronics_voltage-divider"),
            std::string::npos)
      << r.body;
  // A refused body is a tool error with REST's field.
  r = post(call("tolerance_analysis", R"({"tool":"electronics_voltage-divider",)" + divider +
                                          R"(,"tolerances":{"r1_ohm":{"pct":1}},"samples":5})"));
  result = parse(r).at("result").as_object();
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_EQ(result.at("_meta").at("toolcalc/error").at("field").as_string(), "samples");
  EXPECT_EQ(access.quota_used, 1);

  // Like tools/call of a catalog tool, a key is needed.
  expect_rpc_error(post(call("solve_for_input", "{}"), std::nullopt), 401, 7, -32000);
}

TEST_F(McpTest, AnalysisToolsListTheirSchemas) {
  const auto doc = parse(post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", std::nullopt));
  const auto& tools = doc.at("result").at("tools").as_array();
  const auto& tolerance = tools[tools.size() - 2].as_object();
  const auto& solve = tools[tools.size() - 1].as_object();
  const auto& names = tolerance.at("inputSchema").at("properties").at("tool").at("enum").as_array();
  // Every catalog tool has a numeric input.
  EXPECT_EQ(names.size(), registry.tools().size());
  EXPECT_EQ(tolerance.at("inputSchema").at("properties").at("samples").at("maximum"), 100000);
  EXPECT_EQ(solve.at("inputSchema").at("required"), json::parse(R"(["tool","vary","target"])"));
  EXPECT_EQ(solve.at("outputSchema").at("required"),
            json::parse(R"(["vary","target","solutions","reachable","evaluations","complete"])"));
  EXPECT_EQ(tolerance.at("annotations").at("readOnlyHint"), true);
}

// Every figure the documents state about the analyses' limits is the constant's value, in
// tools/list and in the OpenAPI document alike: a number written into the prose by hand
// would drift the day the constant changes. Each pattern must also be found, so that a
// rewording cannot make the check vacuous.
TEST_F(McpTest, AnalysisLimitsInTheDocumentsAreTheConstants) {
  const auto grouped = [](int64_t n) {
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
      digits.insert(static_cast<size_t>(i), ",");
    return digits;
  };
  struct Figure {
    std::regex pattern;  // group 1: the figure
    std::string expected;
  };
  const Figure figures[] = {
      {std::regex(R"((\d+) to \d+ (?:of (?:the|its|the tool's) )?numeric)"), "1"},
      {std::regex(R"(\d+ to (\d+) (?:of (?:the|its|the tool's) )?numeric)"),
       std::to_string(analysis::kMaxToleranced)},
      {std::regex(R"(per ([\d,]+) evaluations)"), grouped(api::kEvaluationsPerQuotaUnit)},
      {std::regex(R"(the ([\d,]+)-evaluation budget)"), grouped(analysis::kSolveEvaluationBudget)},
  };
  const std::string list = post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})").body;
  const std::string openapi = api::openapi::render(registry, {"1", "", ""});
  for (const std::string* doc : {&list, &openapi}) {
    for (const Figure& f : figures) {
      int found = 0;
      for (auto it = std::sregex_iterator(doc->begin(), doc->end(), f.pattern);
           it != std::sregex_iterator(); ++it, ++found) {
        EXPECT_EQ((*it)[1].str(), f.expected) << (*it)[0].str();
      }
      // tools/list does not state the solve's budget; the OpenAPI document states each.
      if (doc == &openapi || f.expected != grouped(analysis::kSolveEvaluationBudget)) {
        EXPECT_GT(found, 0) << f.expected;
      }
    }
  }
}
