// The endpoint table (api/endpoints.hpp): each row's path routes to it, and the pipeline
// does what the row says about its method, its callers and what it counts.
#include "api/endpoints.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <set>
#include <string>

#include "api/openapi/paths.hpp"
#include "service_fixture.hpp"

using namespace toolcalc;
using api::Callers;
using api::Counting;
using api::Endpoint;
using api::kEndpoints;
using api::Method;
using api::RouteKind;

namespace {

// A target on the row's path: the battery tool, to which every route about one tool
// applies (it has numeric inputs and a number output).
std::string target(std::string_view pattern) {
  std::string s(pattern);
  const auto put = [&](std::string_view name, std::string_view value) {
    if (const size_t at = s.find(name); at != std::string::npos) s.replace(at, name.size(), value);
  };
  put("{domain}", "iot-mcu");
  put("{slug}", "mcu-deep-sleep-battery");
  put("{operation}", "keys");
  return s;
}

std::string_view method_of(const Endpoint& e) {
  return e.method == Method::Post ? "POST" : "GET";
}

// The rows a request reaches with the fixture's Service (no admin token: the admin API is
// an unknown path there).
bool reachable(const Endpoint& e) {
  return e.kind != RouteKind::NotFound && e.kind != RouteKind::Admin;
}

}  // namespace

TEST(Endpoints, EveryPathRoutesToItsRow) {
  for (const Endpoint& e : kEndpoints) {
    if (e.kind == RouteKind::NotFound) {
      EXPECT_TRUE(e.path.empty());
      continue;
    }
    EXPECT_EQ(api::match_route(target(e.path), "").kind, e.kind) << e.name;
    EXPECT_EQ(api::match_route("/api" + target(e.path), "/api").kind, e.kind) << e.name;
  }
}

// Matching comes from the rows' patterns (routes.cpp): a name gives way to a literal of
// another row that leads further (/v1/tools/{slug}), not to one that ends a path (/v1/me).
TEST(Endpoints, ANameGivesWayOnlyToALiteralThatLeadsFurther) {
  EXPECT_EQ(api::match_route("/v1/tools/x", "").kind, RouteKind::ToolBySlug);
  EXPECT_EQ(api::match_route("/v1/tools/x/sweep", "").kind, RouteKind::NotFound);
  const api::Route me = api::match_route("/v1/me/x", "");
  EXPECT_EQ(me.kind, RouteKind::Execute);
  EXPECT_EQ(me.domain, "me");
  EXPECT_EQ(me.slug, "x");
  const api::Route admin = api::match_route("/api/admin/v1/keys/tc_live_abcd/rotate?x", "/api");
  EXPECT_EQ(admin.kind, RouteKind::Admin);
  EXPECT_EQ(admin.slug, "keys/tc_live_abcd/rotate");
  EXPECT_EQ(admin.query, "x");
  EXPECT_EQ(api::match_route("/admin/v1", "").kind, RouteKind::NotFound);
  EXPECT_EQ(api::match_route("/admin/v1/", "").slug, "");
}

TEST(Endpoints, RowsAgreeWithThemselves) {
  std::set<std::string_view> names;
  for (const Endpoint& e : kEndpoints) {
    EXPECT_TRUE(names.insert(e.name).second) << "two rows named " << e.name;
    EXPECT_NE(e.handler, nullptr) << e.name << " has no handler";
    EXPECT_EQ(api::route_name(e.kind), e.name);
    EXPECT_EQ(api::allowed_methods(e.kind), e.methods);
    EXPECT_EQ(e.tool_route, e.path.starts_with("/v1/{domain}/{slug}")) << e.name;
    // A route about one tool is described once per tool (endpoint_documents_test checks
    // every writer's paths).
    if (e.tool_route) {
      EXPECT_NE(e.openapi, &api::openapi::no_path) << e.name;
    }
    EXPECT_NE(e.openapi, nullptr) << e.name << " has no OpenAPI writer";
    if (e.method == Method::Get) {
      EXPECT_EQ(e.methods, "GET, OPTIONS") << e.name;
    } else if (e.method == Method::Post) {
      EXPECT_EQ(e.methods, "POST, OPTIONS") << e.name;
    } else if (e.method == Method::GetOrHead) {
      EXPECT_EQ(e.methods, "GET, HEAD, OPTIONS") << e.name;
    }
    // Counted before the caller is known: nothing of a key is read.
    EXPECT_EQ(e.counting == Counting::NotCounted,
              e.callers == Callers::Anonymous || e.callers == Callers::Admin)
        << e.name;
    if (e.counting == Counting::Execution) {
      EXPECT_EQ(e.callers, Callers::Key) << e.name;
    }
  }
}

class EndpointRows : public test_support::ServiceFixture {
 protected:
  api::Response call(const Endpoint& e, std::string_view method,
                     std::optional<std::string_view> auth, std::string_view peer_ip = "10.1.2.3") {
    const std::string path = target(e.path);
    api::Request r = request(method, path, "{}", auth);
    r.peer_ip = peer_ip;
    return service.handle(r);
  }
};

TEST_F(EndpointRows, AWrongMethodIs405WithTheRowsMethods) {
  for (const Endpoint& e : kEndpoints) {
    if (!reachable(e)) continue;
    const api::Response r = call(e, "DELETE", "Bearer tc_live_good");
    EXPECT_EQ(r.status, 405) << e.name;
    EXPECT_EQ(r.header("Allow").value_or(""), e.methods) << e.name;
    // The refusal in the row's error format: the envelope, or a JSON-RPC error response.
    const boost::json::object body = boost::json::parse(r.full_body()).as_object();
    if (e.errors == api::ErrorFormat::JsonRpc) {
      EXPECT_EQ(body.at("jsonrpc").as_string(), "2.0") << e.name;
      EXPECT_EQ(body.at("error").at("data").at("code").as_string(), "METHOD_NOT_ALLOWED") << e.name;
    } else {
      EXPECT_FALSE(body.at("ok").as_bool()) << e.name;
      EXPECT_EQ(body.at("error").at("code").as_string(), "METHOD_NOT_ALLOWED") << e.name;
    }
    const api::Response preflight = call(e, "OPTIONS", std::nullopt);
    EXPECT_EQ(preflight.status, 204) << e.name;
    EXPECT_EQ(preflight.header("Access-Control-Allow-Methods").value_or(""), e.methods) << e.name;
    EXPECT_EQ(preflight.header("Access-Control-Allow-Headers").value_or(""), e.preflight_headers)
        << e.name;
  }
}

TEST_F(EndpointRows, AKeyIsRequiredWhereTheRowSaysSo) {
  int n = 0;
  for (const Endpoint& e : kEndpoints) {
    if (!reachable(e)) continue;
    // An address of its own per request: the anonymous window allows 5 a minute.
    const std::string ip = "10.9.0." + std::to_string(++n);
    const api::Response r = call(e, method_of(e), std::nullopt, ip);
    if (e.callers == Callers::Key)
      EXPECT_EQ(r.status, 401) << e.name;
    else
      EXPECT_NE(r.status, 401) << e.name;
  }
}

TEST_F(EndpointRows, WhatARequestCountsIsTheRows) {
  access.reserve_early = true;  // the rate step of an execution reserves its quota unit
  for (const Endpoint& e : kEndpoints) {
    if (!reachable(e)) continue;
    const int64_t used = access.window_used["key:tc_live_good"];
    const int64_t released = access.quota_released;
    const api::Response r = call(e, method_of(e), "Bearer tc_live_good");
    EXPECT_EQ(r.uncounted, e.counting == Counting::NotCounted) << e.name;
    EXPECT_EQ(access.window_used["key:tc_live_good"] - used,
              e.counting == Counting::NotCounted ? 0 : 1)
        << e.name;
    // The body {} is not valid for any tool: a unit reserved with the rate step goes back.
    EXPECT_EQ(access.quota_released - released, e.counting == Counting::Execution ? 1 : 0)
        << e.name;
  }
}
