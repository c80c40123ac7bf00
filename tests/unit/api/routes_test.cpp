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

TEST(Routes, RejectsEverythingElse) {
  for (const char* target : {"/", "/v1", "/v1/", "/v2/health", "/v1/health/", "/v1/tools/",
                             "/v1/a/b/c", "/v1/a/b/schema/x", "/v1//b", "/v1/A/b",
                             "/v1/tools/x/schema", "/v1/a/b/", "x/v1/health", "/v1/a/b/sweep/x",
                             "/v1/tools/x/sweep"})
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
