// JSON Schema and OpenAPI generation: the schemas a tool's
// descriptor gives, exactly, and the document's shape — every tool and endpoint, shared
// components, every $ref resolvable, served as is by GET /v1/openapi.json.
#include "api/openapi/openapi.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <functional>

#include "accounts/api_key.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/rate_window.hpp"
#include "api/admin_guard.hpp"
#include "api/fake_access.hpp"
#include "api/limits.hpp"
#include "api/openapi/writing.hpp"
#include "api/service.hpp"
#include "api/sweep_request.hpp"
#include "catalog/analysis_costs.hpp"
#include "catalog/domains.hpp"
#include "catalog/json_schema.hpp"
#include "store/account_store.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
namespace json = boost::json;

namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;

catalog::Registry make_registry() {
  return catalog::Registry(tools::all_tools({kSource / "catalog"}),
                           catalog::load_domains(kSource / "catalog" / "domains.toml"));
}

const catalog::ToolDescriptor& battery(const catalog::Registry& r) {
  return r.find("iot-mcu", "mcu-deep-sleep-battery")->tool.descriptor;
}

// Every kind of input and output, without a tool's prose.
catalog::ToolDescriptor synthetic() {
  using namespace catalog;
  ToolDescriptor t;
  t.slug = "demo-tool";
  t.domain = "iot-mcu";
  t.version = "1.2.3";
  InputDescriptor n;
  n.key = "length_m";
  n.label = "Length";
  n.unit = "m";
  n.help = "End to end.";
  n.min = 0.001;
  n.max = 1000;
  n.step = 0.1;
  n.default_value = 2.5;
  InputDescriptor i;
  i.key = "count";
  i.label = "Count";
  i.type = InputType::Integer;
  i.unit = "";
  i.min = 1;
  i.max = 1e9;
  i.default_value = 100.0;
  InputDescriptor e;
  e.key = "layer";
  e.label = "Layer";
  e.type = InputType::Enum;
  e.required = false;
  e.options = {"external", "internal"};
  e.default_value = std::string("internal");
  InputDescriptor b;
  b.key = "batch";
  b.label = "Batch";
  b.type = InputType::Boolean;
  b.required = false;
  b.default_value = false;
  t.inputs = {n, i, e, b};
  OutputDescriptor o1;
  o1.key = "area_mm2";
  o1.label = "Area";
  o1.unit = "mm²";
  o1.precision = 1;
  OutputDescriptor o2;
  o2.key = "count_out";
  o2.label = "Count out";
  o2.precision = 0;
  OutputDescriptor o3;
  o3.key = "status";
  o3.label = "Status";
  o3.type = OutputType::String;
  o3.options = {"ok", "danger"};
  OutputDescriptor o4;
  o4.key = "note";
  o4.label = "Note";
  o4.type = OutputType::String;
  t.outputs = {o1, o2, o3, o4};
  return t;
}

}  // namespace

TEST(JsonSchema, InputSchemaOfEveryInputType) {
  EXPECT_EQ(
      catalog::input_schema_json(synthetic()),
      R"({"type":"object","properties":{)"
      R"("length_m":{"title":"Length","description":"Unit: m. End to end.","type":"number","minimum":0.001,"maximum":1000,"default":2.5},)"
      R"("count":{"title":"Count","type":"integer","minimum":1,"maximum":1000000000,"default":100},)"
      R"("layer":{"title":"Layer","type":"string","enum":["external","internal"],"default":"internal"},)"
      R"("batch":{"title":"Batch","type":"boolean","default":false}},)"
      R"("required":["length_m","count"],"additionalProperties":false})");
}

TEST(JsonSchema, OutputSchemaOfEveryOutputType) {
  EXPECT_EQ(
      catalog::output_schema_json(synthetic()),
      R"({"type":"object","properties":{)"
      R"("area_mm2":{"title":"Area","description":"Unit: mm². Rounded to 1 decimal place.","type":"number"},)"
      R"("count_out":{"title":"Count out","description":"Rounded to 0 decimal places.","type":"number"},)"
      R"("status":{"title":"Status","type":"string","enum":["ok","danger"]},)"
      R"("note":{"title":"Note","type":"string"}},)"
      R"("required":["area_mm2","count_out","status","note"],"additionalProperties":false})");
}

TEST(JsonSchema, BatteryRequestSchemaExactly) {
  const auto registry = make_registry();
  EXPECT_EQ(
      catalog::input_schema_json(battery(registry)),
      R"({"type":"object","properties":{)"
      R"("battery_capacity_mah":{"title":"Battery capacity","description":"Unit: mAh. Rated capacity from the cell datasheet, at the discharge rate you expect.","type":"number","minimum":100,"maximum":30000,"default":2000},)"
      R"("sleep_current_ua":{"title":"Sleep current","description":"Unit: µA. Total current in deep sleep: MCU, RTC, regulator quiescent and leakage.","type":"number","minimum":1,"maximum":10000,"default":10},)"
      R"("wake_current_ma":{"title":"Wake current","description":"Unit: mA. Average current while awake (CPU, sensors, radio), averaged over the wake window including radio peaks; it replaces the sleep current during the wake.","type":"number","minimum":1,"maximum":2000,"default":80},)"
      R"("wake_duration_ms":{"title":"Wake duration","description":"Unit: ms. How long each wake lasts, from leaving sleep to re-entering it; at most the cycle period.","type":"number","minimum":1,"maximum":600000,"default":250},)"
      R"("cycle_period_s":{"title":"Cycle period","description":"Unit: s. How often the device wakes: time from one wake to the next.","type":"number","minimum":1,"maximum":86400,"default":60},)"
      R"("battery_efficiency_pct":{"title":"Battery efficiency","description":"Unit: % (usable capacity). Usable share of capacity after self-discharge, cut-off voltage and regulator losses; temperature effects are not modelled, so derate further for cold or hot sites.","type":"number","minimum":50,"maximum":100,"default":80}},)"
      R"("required":["battery_capacity_mah","sleep_current_ua","wake_current_ma","wake_duration_ms","cycle_period_s","battery_efficiency_pct"],)"
      R"("additionalProperties":false})");
}

TEST(OpenApi, ServerUrlFollowsTheBasePath) {
  EXPECT_EQ(api::openapi::server_url({"1", "", ""}), "/");
  EXPECT_EQ(api::openapi::server_url({"1", "/api", ""}), "/api");
  EXPECT_EQ(api::openapi::server_url({"1", "/api", "https://x.example/"}), "https://x.example/api");
  EXPECT_EQ(api::openapi::server_url({"1", "", "https://x.example"}), "https://x.example");
  EXPECT_EQ(api::openapi::pascal_case("mcu-deep-sleep-battery"), "McuDeepSleepBattery");
}

TEST(OpenApi, DocumentDescribesEveryToolAndEndpoint) {
  const auto registry = make_registry();
  const std::string text = api::openapi::render(registry, {"9.9.9", "/api", ""});
  const json::object doc = json::parse(text).as_object();
  EXPECT_EQ(doc.at("openapi").as_string(), "3.1.0");
  EXPECT_EQ(doc.at("info").at("version").as_string(), "9.9.9");
  EXPECT_EQ(doc.at("servers").at(0).at("url").as_string(), "/api");
  const auto& paths = doc.at("paths").as_object();
  const auto& schemas = doc.at("components").at("schemas").as_object();
  for (const auto& r : registry.tools()) {
    const auto& t = r.tool.descriptor;
    const std::string prefix = api::openapi::pascal_case(t.slug);
    ASSERT_TRUE(paths.contains(t.endpoint())) << t.endpoint();
    const auto& post = paths.at(t.endpoint()).at("post").as_object();
    EXPECT_EQ(post.at("operationId").as_string(), "run" + prefix);
    EXPECT_EQ(post.at("security").at(0).at("bearerAuth").as_array().size(), 0u);
    EXPECT_EQ(post.at("requestBody")
                  .at("content")
                  .at("application/json")
                  .at("schema")
                  .at("$ref")
                  .as_string(),
              "#/components/schemas/" + prefix + "Input");
    for (const char* status : {"200", "400", "401", "413", "415", "422", "429", "500"})
      EXPECT_TRUE(post.at("responses").as_object().contains(status)) << t.slug << " " << status;
    // The same generator as MCP: the component is the input schema, byte for byte.
    EXPECT_EQ(json::serialize(schemas.at(prefix + "Input")),
              json::serialize(json::parse(catalog::input_schema_json(t))));
    EXPECT_EQ(json::serialize(schemas.at(prefix + "Result")),
              json::serialize(json::parse(catalog::output_schema_json(t))));
    EXPECT_TRUE(paths.contains(t.endpoint() + "/schema"));
  }
  for (const char* p : {"/v1/tools", "/v1/tools/{slug}", "/v1/domains", "/v1/me", "/v1/health",
                        "/v1/openapi.json", "/mcp"})
    EXPECT_TRUE(paths.contains(p)) << p;
  // Discovery: key optional; /v1/me: key required; health: no security at all.
  EXPECT_EQ(doc.at("security").as_array().size(), 2u);
  EXPECT_TRUE(paths.at("/v1/me").at("get").as_object().contains("security"));
  EXPECT_TRUE(paths.at("/v1/health").at("get").at("security").as_array().empty());
  EXPECT_FALSE(paths.at("/v1/tools").at("get").as_object().contains("security"));
  const auto& codes = schemas.at("ErrorCode").at("enum").as_array();
  for (const char* code : {"INVALID_JSON", "VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND",
                           "UNPROCESSABLE", "RATE_LIMITED", "QUOTA_EXCEEDED", "INTERNAL"})
    EXPECT_NE(std::find(codes.begin(), codes.end(), json::value(code)), codes.end()) << code;
  for (const char* h :
       {"X-Request-ID", "X-Tool-Version", "X-RateLimit-Limit", "X-RateLimit-Remaining",
        "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit", "Retry-After"})
    EXPECT_TRUE(doc.at("components").at("headers").as_object().contains(h)) << h;
  EXPECT_EQ(doc.at("components").at("securitySchemes").at("bearerAuth").at("scheme").as_string(),
            "bearer");
}

// What linters ask of every operation (Spectral's spectral:oas ruleset, Redocly's
// recommended rules; `make lint-openapi` runs both): an operationId, a summary, a
// description and a tag; and of the document: a contact.
TEST(OpenApi, EveryOperationIsDescribed) {
  const auto registry = make_registry();
  const json::object doc =
      json::parse(api::openapi::render(registry, {"9.9.9", "", ""})).as_object();
  EXPECT_FALSE(doc.at("info").at("contact").at("name").as_string().empty());
  int operations = 0;
  for (const auto& [path, item] : doc.at("paths").as_object()) {
    for (const auto& [method, op] : item.as_object()) {
      ++operations;
      for (const char* field : {"operationId", "summary", "description"})
        EXPECT_FALSE(op.at(field).as_string().empty()) << method << " " << path << " " << field;
      EXPECT_FALSE(op.at("tags").as_array().empty()) << method << " " << path;
    }
  }
  EXPECT_GT(operations, static_cast<int>(2 * registry.tools().size()));
}

// A sweep's `inputs` names every input of the tool (so that generated types have those
// members) and nothing else; a numeric input is unconstrained there (it may be the varied
// one, whose value is replaced), the others keep their schema.
TEST(OpenApi, SweepInputsNameEveryInput) {
  const auto registry = make_registry();
  const json::object doc =
      json::parse(api::openapi::render(registry, {"9.9.9", "", ""})).as_object();
  const auto& inputs = doc.at("components")
                           .at("schemas")
                           .at("LlmApiCostCalculatorSweepRequest")
                           .at("properties")
                           .at("inputs")
                           .as_object();
  EXPECT_EQ(inputs.at("additionalProperties"), json::value(false));
  const auto& props = inputs.at("properties").as_object();
  std::vector<std::string> keys;
  for (const auto& [k, v] : props) keys.emplace_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"model", "input_tokens_per_call",
                                            "output_tokens_per_call", "calls_per_month",
                                            "cached_input_fraction", "use_batch_api"}));
  EXPECT_FALSE(props.at("calls_per_month").as_object().contains("type"));
  EXPECT_EQ(props.at("use_batch_api").at("type").as_string(), "boolean");
  EXPECT_EQ(props.at("model").at("type").as_string(), "string");
}

namespace {

// The number of "$ref"s in `doc`, each checked to point at a member of `doc`.
int resolved_refs(const json::value& doc) {
  int refs = 0;
  std::function<void(const json::value&)> walk = [&](const json::value& v) {
    if (v.is_array()) {
      for (const auto& e : v.as_array()) walk(e);
    } else if (v.is_object()) {
      for (const auto& [k, e] : v.as_object()) {
        if (k == "$ref") {
          std::string ref(e.as_string());
          ASSERT_EQ(ref.rfind("#/", 0), 0u) << ref;
          const json::value* target = &doc;
          size_t pos = 2;
          while (pos <= ref.size()) {
            const size_t slash = std::min(ref.find('/', pos), ref.size());
            const std::string part = ref.substr(pos, slash - pos);
            ASSERT_TRUE(target->is_object() && target->as_object().contains(part)) << ref;
            target = &target->as_object().at(part);
            pos = slash + 1;
          }
          ++refs;
        } else {
          walk(e);
        }
      }
    }
  };
  walk(doc);
  return refs;
}

}  // namespace

TEST(OpenApi, EveryReferenceResolves) {
  const auto registry = make_registry();
  EXPECT_GT(resolved_refs(json::parse(api::openapi::render(registry, {"1", "", ""}))), 50);
}

// The admin API's document: its own paths only, every reference resolved, and none of it
// in the public document.
TEST(OpenApi, TheAdminDocumentStandsAlone) {
  const json::value admin = json::parse(api::openapi::render_admin({"1", "/api", ""}));
  EXPECT_EQ(admin.at("openapi").as_string(), "3.1.0");
  EXPECT_EQ(admin.at("servers").at(0).at("url").as_string(), "/api");
  EXPECT_EQ(admin.at("paths").as_object().size(), 4u);
  EXPECT_GT(resolved_refs(admin), 20);
  const std::string public_doc = api::openapi::render(make_registry(), {"1", "/api", ""});
  EXPECT_EQ(public_doc.find("/admin"), std::string::npos);
  EXPECT_EQ(public_doc.find("adminToken"), std::string::npos);
}

TEST(OpenApi, ServedAsIsWithoutEnvelopeOrKey) {
  const auto registry = make_registry();
  test_support::FakeAccess access;
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock, api::ServiceOptions{"/api", "9.9.9"}};
  api::Request req;
  req.method = "GET";
  req.target = "/api/v1/openapi.json";
  req.peer_ip = "10.0.0.1";
  const api::Response r = service.handle(req);
  ASSERT_EQ(r.status, 200) << r.full_body();
  EXPECT_EQ(r.full_body(), api::openapi::render(registry, {"9.9.9", "/api", ""}));
  EXPECT_EQ(r.full_body(), service.openapi_json());
  ASSERT_TRUE(r.header("X-RateLimit-Remaining").has_value());
  EXPECT_EQ(*r.header("X-RateLimit-Remaining"), "4");  // counted like discovery
  req.method = "POST";
  EXPECT_EQ(service.handle(req).status, 405);
  req.method = "GET";
  req.authorization = "Bearer tc_live_wrong";
  EXPECT_EQ(service.handle(req).status, 401);
}

// A sweep path per tool, whose request schema names exactly the numeric inputs and
// whose worked example is a request the server answers with 200.
TEST(OpenApi, SweepPathPerToolWithARunnableExample) {
  const auto registry = make_registry();
  const json::object doc =
      json::parse(api::openapi::render(registry, {"9.9.9", "", ""})).as_object();
  const auto& paths = doc.at("paths").as_object();
  const auto& schemas = doc.at("components").at("schemas").as_object();
  test_support::FakeAccess access;
  access.keys["tc_live_sweep"] = {"sweep", 100000, 100000};
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock, api::ServiceOptions{"", "9.9.9"}};
  for (const auto& r : registry.tools()) {
    const auto& t = r.tool.descriptor;
    const std::string prefix = api::openapi::pascal_case(t.slug);
    const std::string path = t.endpoint() + "/sweep";
    ASSERT_TRUE(paths.contains(path)) << path;
    const auto& post = paths.at(path).at("post").as_object();
    EXPECT_EQ(post.at("operationId").as_string(), "sweep" + prefix);
    EXPECT_EQ(post.at("security").at(0).at("bearerAuth").as_array().size(), 0u);
    for (const char* status : {"200", "400", "401", "413", "415", "429", "500"})
      EXPECT_TRUE(post.at("responses").as_object().contains(status)) << t.slug << " " << status;

    const auto& request = schemas.at(prefix + "SweepRequest").as_object();
    json::array numeric;
    for (const auto& in : t.inputs)
      if (in.type == catalog::InputType::Number || in.type == catalog::InputType::Integer)
        numeric.emplace_back(in.key);
    EXPECT_EQ(request.at("properties").at("vary").at("properties").at("key").at("enum"), numeric)
        << t.slug;
    EXPECT_EQ(request.at("allOf").as_array().size(), numeric.size());
    EXPECT_EQ(schemas.at(prefix + "SweepResult").at("properties").at("key").at("enum"), numeric);

    const auto& example = post.at("requestBody")
                              .at("content")
                              .at("application/json")
                              .at("examples")
                              .at("sweep")
                              .at("value");
    const std::string body = json::serialize(example);
    api::Request req;
    req.method = "POST";
    req.target = path;
    req.body = body;
    req.content_type = "application/json";
    req.authorization = "Bearer tc_live_sweep";
    req.peer_ip = "10.0.0.1";
    const api::Response res = service.handle(req);
    EXPECT_EQ(res.status, 200) << t.slug << " " << body << " → " << res.full_body();
  }
}

// The limits the documents state are written from the constants the server enforces, and
// no placeholder is left unfilled.
TEST(OpenApi, LimitsInTheTextsAreTheConstants) {
  const std::string admin_text = api::openapi::render_admin({"1", "", ""});
  const std::string public_text = api::openapi::render(make_registry(), {"1", "", ""});
  EXPECT_EQ(admin_text.find("${"), std::string::npos);
  EXPECT_EQ(public_text.find("${"), std::string::npos);
  const json::value admin = json::parse(admin_text);
  const json::value settings = admin.at_pointer("/components/schemas/KeySettings/properties");
  EXPECT_EQ(settings.at_pointer("/label/maxLength").to_number<int64_t>(),
            static_cast<int64_t>(accounts::kMaxLabelLength));
  EXPECT_EQ(settings.at_pointer("/rate_per_minute/maximum").to_number<int64_t>(),
            accounts::kMaxRatePerMinute);
  EXPECT_EQ(settings.at_pointer("/monthly_quota/maximum").to_number<int64_t>(),
            accounts::kMaxMonthlyQuota);
  EXPECT_NE(settings.at_pointer("/webhook_url/description").as_string().find("(80, 90 and 100 %"),
            json::string::npos);
  const json::value prefix = admin.at_pointer("/components/parameters/Prefix");
  EXPECT_EQ(
      prefix.at("description").as_string(),
      "The key's first " + std::to_string(accounts::kKeyPrefixLength) + " characters, as listed.");
  EXPECT_EQ(prefix.at_pointer("/schema/pattern").as_string(),
            "^tc_(live|test)_[0-9A-Za-z]{" +
                std::to_string(accounts::kKeyPrefixLength - accounts::kLiveKeyPrefix.size()) +
                "}$");
  EXPECT_NE(admin.at_pointer("/components/responses/TooManyFailures/description")
                .as_string()
                .find("failed to authenticate " + std::to_string(api::AdminGuard::kMaxFailures) +
                      " times within " + std::to_string(api::AdminGuard::kWindowSeconds) + " s"),
            json::string::npos);
  EXPECT_EQ(admin.at_pointer("/components/schemas/IssuedKey/properties/webhook_secret/pattern")
                .as_string(),
            "^whsec_[0-9A-Za-z]{" + std::to_string(accounts::kWebhookSecretRandomChars) + "}$");
  EXPECT_NE(admin_text.find("default " + std::to_string(accounts::kDefaultRotationGraceS / 3600) +
                            "h; 0 ends it"),
            std::string::npos);
  EXPECT_NE(
      admin_text.find("at most " + std::to_string(accounts::kMaxRotationGraceS / 86'400) + " days"),
      std::string::npos);

  const json::value doc = json::parse(public_text);
  EXPECT_EQ(doc.at_pointer("/components/schemas/ToolDetails/properties/analysis_cost_class/maximum")
                .to_number<int64_t>(),
            catalog::kMaxAnalysisCostClass);
  EXPECT_EQ(
      doc.at_pointer("/components/schemas/ToolList/properties/limit/maximum").to_number<int64_t>(),
      api::kMaxPageSize);
  EXPECT_EQ(doc.at_pointer("/components/headers/X-RateLimit-Reset/description").as_string(),
            "Unix epoch seconds when the current " + std::to_string(accounts::kRateWindowSeconds) +
                "-second window ends.");
  const json::value usage = doc.at_pointer("/paths/~1v1~1usage/get");
  EXPECT_NE(usage.at("description")
                .as_string()
                .find("the current and the " + std::to_string(store::kHistoryMonths - 1) +
                      " previous months"),
            json::string::npos);
  EXPECT_NE(usage.at_pointer("/parameters/0/description")
                .as_string()
                .find("one of the last " + std::to_string(store::kHistoryMonths) + "."),
            json::string::npos);
  const json::value points = doc.at_pointer(
      "/components/schemas/McuDeepSleepBatterySweepRequest/properties/vary/properties/points");
  EXPECT_EQ(points.at("minimum").to_number<int64_t>(), api::kSweepMinPoints);
  EXPECT_NE(points.at("description")
                .as_string()
                .find("rounded to " + std::to_string(api::kSweepSignificantDigits) +
                      " significant digits"),
            json::string::npos);
}

TEST(OpenApi, FillValuesRefusesAMissingOrAnUnfilledName) {
  EXPECT_EQ(api::openapi::fill_values("a ${x} b ${x}", {{"x", "1"}}), "a 1 b 1");
  EXPECT_THROW(api::openapi::fill_values("a ${x}", {{"y", "1"}}), std::logic_error);
  EXPECT_THROW(api::openapi::fill_values("a ${x} ${z}", {{"x", "1"}}), std::logic_error);
}
