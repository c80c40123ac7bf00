// GET /llms.txt: the catalog as llms.txt Markdown, from the registry, served without a key
// and never counted.
#include "api/llms_txt.hpp"

#include <gtest/gtest.h>

#include "api/fake_access.hpp"
#include "api/service.hpp"
#include "catalog/domains.hpp"
#include "tools/all.hpp"

using namespace toolcalc;

namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;

catalog::Registry make_registry() {
  return catalog::Registry(tools::all_tools({kSource / "catalog"}),
                           catalog::load_domains(kSource / "catalog" / "domains.toml"));
}

size_t count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(LlmsTxt, TheConventionsShapeWithEveryTool) {
  const auto registry = make_registry();
  const std::string text = api::render_llms_txt(registry, "/api");
  EXPECT_EQ(text.rfind("# toolcalc\n\n> Engineering and cost calculators over JSON/HTTP: ", 0), 0u);
  EXPECT_NE(text.find("\n## API\n\n- [OpenAPI document](/api/v1/openapi.json): "),
            std::string::npos);
  for (const auto& d : registry.domains()) {
    if (registry.live_count(d.name) == 0) continue;
    EXPECT_NE(text.find("\n## " + d.display_name + "\n\n"), std::string::npos) << d.name;
  }
  EXPECT_EQ(count(text, "\n- ["), registry.tools().size() + 3);  // tools and the API list
  for (const auto& r : registry.tools()) {
    const auto& t = r.tool.descriptor;
    const std::string line = "\n- [" + t.name + "](/api/v1/tools/" + t.slug + "): ";
    const size_t at = text.find(line);
    ASSERT_NE(at, std::string::npos) << t.slug;
    const std::string rest =
        text.substr(at + line.size(), text.find('\n', at + 1) - at - line.size());
    EXPECT_NE(rest.find("`POST /api" + t.endpoint() + "`. Inputs: "), std::string::npos) << rest;
    for (const auto& in : t.inputs)
      EXPECT_NE(rest.find("`" + in.key + "` ("), std::string::npos) << t.slug << " " << in.key;
    for (const auto& out : t.outputs)
      EXPECT_NE(rest.find("`" + out.key + "`"), std::string::npos) << t.slug << " " << out.key;
  }
}

TEST(LlmsTxt, InputsWithTypeUnitBoundsAndDefault) {
  const std::string text = api::render_llms_txt(make_registry(), "");
  EXPECT_NE(text.find("`vin_v` (number, V, 0.001 to 1000, required); "), std::string::npos);
  EXPECT_NE(text.find("`e_series` (one of `E12`, `E24`, `E96`, default `E24`)"), std::string::npos);
  EXPECT_NE(text.find("`use_batch_api` (boolean, default false)"), std::string::npos);
  EXPECT_NE(text.find("`POST /v1/electronics/voltage-divider`"), std::string::npos);
}

TEST(LlmsTxt, ServedAsTextWithoutKeyAndNeverCounted) {
  const auto registry = make_registry();
  test_support::FakeAccess access;
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock, api::ServiceOptions{"/api", "9.9.9"}};
  api::Request req;
  req.method = "GET";
  req.target = "/llms.txt";
  req.peer_ip = "10.0.0.1";
  req.authorization = "Bearer tc_live_wrong";  // ignored, as on /v1/health
  for (int i = 0; i < 10; ++i) {
    const api::Response r = service.handle(req);
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "text/plain; charset=utf-8");
    EXPECT_EQ(r.full_body(), api::render_llms_txt(registry, "/api"));
    EXPECT_EQ(*r.header("X-RateLimit-Remaining"), "5");  // peeked, never charged
  }
  req.target = "/api/llms.txt";
  EXPECT_EQ(service.handle(req).status, 200);
  req.method = "POST";
  const api::Response refused = service.handle(req);
  EXPECT_EQ(refused.status, 405);
  EXPECT_EQ(*refused.header("Allow"), "GET, OPTIONS");
}
