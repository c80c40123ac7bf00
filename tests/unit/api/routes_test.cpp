#include "api/routes.hpp"

#include <gtest/gtest.h>

using namespace toolcalc::api;

TEST(Routes, MatchesEveryEndpointOfTheSpec) {
  EXPECT_EQ(match_route("/v1/health", "").kind, RouteKind::Health);
  EXPECT_EQ(match_route("/v1/me", "").kind, RouteKind::Me);
  EXPECT_EQ(match_route("/v1/domains", "").kind, RouteKind::Domains);
  EXPECT_EQ(match_route("/v1/tools", "").kind, RouteKind::Tools);
  auto tools = match_route("/v1/tools?domain=iot-mcu&page=2", "");
  EXPECT_EQ(tools.kind, RouteKind::Tools);
  EXPECT_EQ(tools.query, "domain=iot-mcu&page=2");
  auto by_slug = match_route("/v1/tools/pcb-trace-width", "");
  EXPECT_EQ(by_slug.kind, RouteKind::ToolBySlug);
  EXPECT_EQ(by_slug.slug, "pcb-trace-width");
  auto exec = match_route("/v1/iot-mcu/mcu-deep-sleep-battery", "");
  EXPECT_EQ(exec.kind, RouteKind::Execute);
  EXPECT_EQ(exec.domain, "iot-mcu");
  EXPECT_EQ(exec.slug, "mcu-deep-sleep-battery");
  auto schema = match_route("/v1/electronics/mosfet-thermal-junction/schema", "");
  EXPECT_EQ(schema.kind, RouteKind::Schema);
  EXPECT_EQ(schema.domain, "electronics");
  EXPECT_EQ(schema.slug, "mosfet-thermal-junction");
}

TEST(Routes, HonoursTheBasePath) {
  EXPECT_EQ(match_route("/api/v1/health", "/api").kind, RouteKind::Health);
  EXPECT_EQ(match_route("/v1/health", "/api").kind, RouteKind::NotFound);
  EXPECT_EQ(match_route("/apiv1/health", "/api").kind, RouteKind::NotFound);
  EXPECT_EQ(match_route("/api/v1/a/b", "/api").kind, RouteKind::Execute);
}

// llms.txt sits at the root, where the llmstxt.org convention looks for it, and under the
// base path like the playground's files.
TEST(Routes, LlmsTxtAtTheRootAndUnderTheBasePath) {
  EXPECT_EQ(match_route("/llms.txt", "").kind, RouteKind::LlmsTxt);
  EXPECT_EQ(match_route("/llms.txt", "/api").kind, RouteKind::LlmsTxt);
  EXPECT_EQ(match_route("/api/llms.txt", "/api").kind, RouteKind::LlmsTxt);
  EXPECT_EQ(match_route("/llms.txt?x=1", "").kind, RouteKind::LlmsTxt);
  EXPECT_EQ(match_route("/v1/llms.txt", "").kind, RouteKind::NotFound);
  EXPECT_EQ(match_route("/llms.txt/", "").kind, RouteKind::NotFound);
  EXPECT_EQ(allowed_methods(RouteKind::LlmsTxt), "GET, OPTIONS");
}

TEST(Routes, RejectsEverythingElse) {
  for (const char* target : {"",
                             "/v1",
                             "/v1/",
                             "/v2/health",
                             "/v1/health/",
                             "/v1/tools/",
                             "/v1/a/b/c",
                             "/v1/a/b/schema/x",
                             "/v1//b",
                             "/v1/A/b",
                             "/v1/tools/x/schema",
                             "/v1/a/b/",
                             "x/v1/health",
                             "/v1/a/b/sweep/x",
                             "/v1/tools/x/sweep",
                             "/app.jsx",
                             "/vendor/",
                             "/vendor/x.js",
                             "//",
                             "/index.html/"})
    EXPECT_EQ(match_route(target, "").kind, RouteKind::NotFound) << target;
}

TEST(Routes, AllowHeaderNamesTheMethods) {
  EXPECT_EQ(allowed_methods(RouteKind::Execute), "POST, OPTIONS");
  EXPECT_EQ(allowed_methods(RouteKind::Tools), "GET, OPTIONS");
}

TEST(Routes, MatchesSweeps) {
  auto sweep = match_route("/v1/iot-mcu/mcu-deep-sleep-battery/sweep", "");
  EXPECT_EQ(sweep.kind, RouteKind::Sweep);
  EXPECT_EQ(sweep.domain, "iot-mcu");
  EXPECT_EQ(sweep.slug, "mcu-deep-sleep-battery");
  EXPECT_EQ(match_route("/api/v1/a/b/sweep", "/api").kind, RouteKind::Sweep);
  EXPECT_EQ(match_route("/v1/a/b/sweep", "/api").kind, RouteKind::NotFound);
  EXPECT_EQ(allowed_methods(RouteKind::Sweep), "POST, OPTIONS");
}

// The playground: the page at "/" and the base path's "/", and exactly the
// embedded files below either.
TEST(Routes, MatchesThePlaygroundAtTheRootAndUnderTheBasePath) {
  for (std::string_view base : {"", "/api"}) {
    for (std::string_view prefix : {std::string_view(), base}) {
      const std::string p(prefix);
      auto page = match_route(p + "/", base);
      EXPECT_EQ(page.kind, RouteKind::Asset) << p;
      EXPECT_EQ(page.slug, "");
      auto page_q = match_route(p + "/?x=1", base);
      EXPECT_EQ(page_q.kind, RouteKind::Asset) << p;
      const std::string app_target = p + "/app.js";
      auto app = match_route(app_target, base);
      EXPECT_EQ(app.kind, RouteKind::Asset) << p;
      EXPECT_EQ(app.slug, "app.js");
      const std::string vendor_target = p + "/vendor/uPlot.iife.min.js";  // outlives the view
      auto vendor = match_route(vendor_target, base);
      EXPECT_EQ(vendor.kind, RouteKind::Asset) << p;
      EXPECT_EQ(vendor.slug, "vendor/uPlot.iife.min.js");
      EXPECT_EQ(match_route(p + "/vendor/uPlot.min.css", base).kind, RouteKind::Asset);
      EXPECT_EQ(match_route(p + "/index.html", base).kind, RouteKind::Asset);
      EXPECT_EQ(match_route(p + "/nope.js", base).kind, RouteKind::NotFound);
    }
  }
  EXPECT_EQ(match_route("/api", "/api").kind, RouteKind::NotFound);  // paths are exact
  EXPECT_EQ(match_route("/other/app.js", "/api").kind, RouteKind::NotFound);
  EXPECT_EQ(allowed_methods(RouteKind::Asset), "GET, HEAD, OPTIONS");
}

TEST(Routes, ReadinessAndMetrics) {
  EXPECT_EQ(match_route("/v1/ready", "").kind, RouteKind::Ready);
  EXPECT_EQ(match_route("/api/v1/ready", "/api").kind, RouteKind::Ready);
  // /metrics at the root (Prometheus's default path) and under the base path alike
  EXPECT_EQ(match_route("/metrics", "").kind, RouteKind::Metrics);
  EXPECT_EQ(match_route("/metrics", "/api").kind, RouteKind::Metrics);
  EXPECT_EQ(match_route("/api/metrics", "/api").kind, RouteKind::Metrics);
  EXPECT_EQ(match_route("/metrics/", "").kind, RouteKind::NotFound);
  EXPECT_EQ(match_route("/v1/metrics", "").kind, RouteKind::NotFound);
  EXPECT_EQ(route_name(RouteKind::Ready), "ready");
  EXPECT_EQ(route_name(RouteKind::ToolBySlug), "tool");
  EXPECT_EQ(allowed_methods(RouteKind::Metrics), "GET, OPTIONS");
}
