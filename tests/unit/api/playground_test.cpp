// The playground's files (docs/playground.md) as the API layer serves them:
// content types, ETag/304, CSP, the values written into index.html, and that they are never
// authenticated, rate limited or counted.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "api/embedded_files.hpp"
#include "api/service.hpp"
#include "api/static_assets.hpp"
#include "catalog/domains.hpp"
#include "fake_access.hpp"
#include "tools/all.hpp"

using namespace toolcalc;

namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;

class PlaygroundTest : public ::testing::Test {
 protected:
  catalog::Registry registry{tools::all_tools({kSource / "catalog"}),
                             catalog::load_domains(kSource / "catalog" / "domains.toml")};
  test_support::FakeAccess access;
  ManualClock clock{1'800'000'010'000};
  api::Service service{registry, access, clock,
                       api::ServiceOptions{"/api", "9.9.9", nullptr, {}, "tc_test_devkey"}};

  api::Response get(std::string_view target, std::string_view method = "GET",
                    std::optional<std::string_view> auth = std::nullopt,
                    std::string_view if_none_match = {}) {
    api::Request r;
    r.method = method;
    r.target = target;
    r.authorization = auth;
    r.if_none_match = if_none_match;
    r.peer_ip = "10.9.9.9";
    return service.handle(r);
  }
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_F(PlaygroundTest, EmbedsEveryWebFileAndUplotByteForByte) {
  size_t web_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSource / "web")) {
    ++web_files;
    const std::string name = entry.path().filename().string();
    ASSERT_TRUE(api::is_embedded_file(name)) << name;
  }
  const auto files = api::embedded_files();
  EXPECT_EQ(files.size(), web_files + 2);
  for (const auto& f : files) {
    const auto path = f.name.substr(0, 7) == "vendor/"
                          ? kSource / "third_party" / "uplot" / std::string(f.name.substr(7))
                          : kSource / "web" / std::string(f.name);
    EXPECT_EQ(f.bytes, read_file(path)) << f.name;
  }
}

TEST_F(PlaygroundTest, ServesThePageWithTheBasePathAndDevKeyWrittenIn) {
  for (std::string_view target : {"/", "/api/", "/index.html", "/api/index.html"}) {
    auto r = get(target);
    ASSERT_EQ(r.status, 200) << target;
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
    EXPECT_NE(r.full_body().find(R"(<meta name="toolcalc-api-base" content="/api">)"),
              std::string::npos);
    EXPECT_NE(r.full_body().find(R"(<meta name="toolcalc-dev-key" content="tc_test_devkey">)"),
              std::string::npos);
    EXPECT_EQ(r.full_body().find("{{"), std::string::npos);
    EXPECT_EQ(*r.header("Cache-Control"), "no-cache");
    EXPECT_EQ(*r.header("Content-Security-Policy"), api::kPlaygroundCsp);
    EXPECT_EQ(*r.header("X-Content-Type-Options"), "nosniff");
    ASSERT_TRUE(r.header("ETag").has_value());
  }
  // No dev key, no base path: empty values.
  api::Service plain{registry, access, clock, api::ServiceOptions{"", "9.9.9"}};
  api::Request req;
  req.method = "GET";
  req.target = "/";
  auto r = plain.handle(req);
  EXPECT_NE(r.full_body().find(R"(<meta name="toolcalc-api-base" content="">)"), std::string::npos);
  EXPECT_NE(r.full_body().find(R"(<meta name="toolcalc-dev-key" content="">)"), std::string::npos);
  req.target = "/api/";
  EXPECT_EQ(plain.handle(req).status, 404);  // no base path: only the root
}

TEST_F(PlaygroundTest, ContentTypesFollowTheFile) {
  EXPECT_EQ(get("/app.js").content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(get("/api/style.css").content_type, "text/css; charset=utf-8");
  EXPECT_EQ(get("/favicon.svg").content_type, "image/svg+xml");
  auto js = get("/api/vendor/uPlot.iife.min.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_NE(js.full_body().find("uPlot"), std::string::npos);
  EXPECT_EQ(get("/vendor/uPlot.min.css").content_type, "text/css; charset=utf-8");
}

TEST_F(PlaygroundTest, EtagGivesNotModified) {
  auto first = get("/api/app.js");
  const std::string etag = *first.header("ETag");
  EXPECT_EQ(etag.size(), 18u);  // "…16 hex…"
  auto again = get("/api/app.js", "GET", std::nullopt, etag);
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.full_body().empty());
  EXPECT_EQ(*again.header("ETag"), etag);
  EXPECT_EQ(get("/api/app.js", "GET", std::nullopt, "\"x\", W/" + etag).status, 304);
  EXPECT_EQ(get("/api/app.js", "GET", std::nullopt, "*").status, 304);
  EXPECT_EQ(get("/api/app.js", "GET", std::nullopt, "\"0000000000000000\"").status, 200);
  EXPECT_NE(*get("/api/style.css").header("ETag"), etag);  // per file
}

TEST_F(PlaygroundTest, NeverAuthenticatedLimitedOrCounted) {
  for (int i = 0; i < 20; ++i) {  // the anonymous plan allows 5 a minute
    auto r = get("/api/app.js", "GET", "Bearer tc_live_invalid");
    ASSERT_EQ(r.status, 200);
  }
  EXPECT_EQ(access.window_used["ip:10.9.9.9"], 0);
  EXPECT_EQ(access.quota_used, 0);
  EXPECT_EQ(get("/api/", "HEAD").status, 200);
  auto post = get("/api/", "POST");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(*post.header("Allow"), "GET, HEAD, OPTIONS");
  EXPECT_EQ(access.window_used["ip:10.9.9.9"], 0);
  auto options = get("/api/app.js", "OPTIONS");
  EXPECT_EQ(options.status, 204);
  EXPECT_EQ(*options.header("Access-Control-Allow-Methods"), "GET, HEAD, OPTIONS");
  // API answers keep their own content type and caching.
  auto health = get("/api/v1/health");
  EXPECT_EQ(health.content_type, "application/json; charset=utf-8");
  EXPECT_EQ(*health.header("Cache-Control"), "no-store");
  EXPECT_FALSE(health.header("Content-Security-Policy").has_value());
}

TEST(EtagMatches, FollowsRfc9110WeakComparison) {
  EXPECT_TRUE(api::etag_matches("\"a\"", "\"a\""));
  EXPECT_TRUE(api::etag_matches(" W/\"a\" ", "\"a\""));
  EXPECT_TRUE(api::etag_matches("\"b\",\"a\"", "\"a\""));
  EXPECT_TRUE(api::etag_matches("*", "\"a\""));
  EXPECT_FALSE(api::etag_matches("\"b\"", "\"a\""));
  EXPECT_FALSE(api::etag_matches("a", "\"a\""));
  EXPECT_FALSE(api::etag_matches("", "\"a\""));
}
