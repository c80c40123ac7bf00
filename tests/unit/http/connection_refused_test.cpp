// Service::connection_refused, the 503 of a connection refused as it is accepted (over a
// connection cap, or out of descriptors): the envelope and headers every response carries,
// with no AccessControl call (on the shared store each would be a Redis round trip on the
// accepting event loop) and no access-log line (a flood of connects would grow the log
// without limit).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <regex>
#include <string>

#include "accounts/access_control.hpp"
#include "api/service.hpp"
#include "catalog/domains.hpp"
#include "core/line_buffer.hpp"
#include "tools/all.hpp"

namespace toolcalc::test_support {
namespace {

const std::filesystem::path kSource = TOOLCALC_SOURCE_DIR;

// Counts every call the Service makes into it. The anonymous plan allows 7 a minute and
// 3 are used this window, so figures read from it would differ from the plan's.
class CountingAccess : public accounts::AccessControl {
 public:
  mutable int calls = 0;

  accounts::AuthResult authenticate(std::optional<std::string_view>,
                                    std::string_view peer_ip) const override {
    ++calls;
    accounts::AuthResult r;
    r.caller.subject = "ip:" + std::string(peer_ip);
    r.caller.plan = {"anonymous", 7, std::nullopt};
    return r;
  }
  std::optional<accounts::RateStep> rate_step(const accounts::Caller& c, bool,
                                              accounts::CountedUnits&,
                                              accounts::Suspendable*) override {
    ++calls;
    return accounts::RateStep{peek_rate(c), {}, {}};
  }
  accounts::RateDecision peek_rate(const accounts::Caller& c) const override {
    ++calls;
    return {true, c.plan.rate_per_minute, c.plan.rate_per_minute - 3, 1'800'000'040,
            0,    1'800'000'010};
  }
  accounts::QuotaReservation reserve_quota(const accounts::Caller&, int64_t,
                                           accounts::CountedUnits&) override {
    ++calls;
    return {};
  }
  void release_quota(const accounts::Caller&, const accounts::QuotaReservation&, int64_t,
                     accounts::CountedUnits&) override {
    ++calls;
  }
  accounts::QuotaStatus quota_status(const accounts::Caller&) const override {
    ++calls;
    return {};
  }
  accounts::Durability await_durable(const accounts::CountedUnits&,
                                     accounts::Suspendable*) override {
    ++calls;
    return accounts::Durability::Durable;
  }
  std::optional<accounts::QuotaView> peek_quota(const accounts::Caller&) const override {
    ++calls;
    return std::nullopt;
  }
  void record_usage(const accounts::Caller&, std::string_view, std::string_view, int,
                    int64_t) override {
    ++calls;
  }
  bool store_reachable() const override {
    ++calls;
    return true;
  }
};

class ConnectionRefused : public ::testing::Test {
 protected:
  catalog::Registry registry{tools::all_tools({kSource / "catalog"}),
                             catalog::load_domains(kSource / "catalog" / "domains.toml")};
  CountingAccess access;
  ManualClock clock{1'800'000'010'000};  // 10 s into a minute
  std::string access_log;
  LineBuffer access_log_lines{[this](std::string_view text) { access_log += text; },
                              {0, std::chrono::milliseconds(0)}};
  api::Service service{registry, access, clock, make_options()};

  api::ServiceOptions make_options() {
    api::ServiceOptions o{"", "9.9.9"};
    o.access_log = &access_log_lines;
    return o;
  }
  static ApiError busy() {
    return {
        ErrorCode::ServerBusy, "too many open connections from this address; retry shortly", {}};
  }
};

TEST_F(ConnectionRefused, AnswersWithoutAccessControlOrAnAccessLogLine) {
  access.calls = 0;  // the Service read the anonymous plan once, when it was built
  for (int i = 0; i < 100; ++i) (void)service.connection_refused(busy());
  access_log_lines.flush();
  EXPECT_EQ(access.calls, 0);
  EXPECT_EQ(access_log, "");
}

// What the counting fake sees of the answer connection refusals had before: an
// AccessControl round (authenticate, peek_rate) and an access-log line per connection.
TEST_F(ConnectionRefused, TransportErrorsStillReadTheWindowAndAreLogged) {
  access.calls = 0;
  (void)service.transport_error(busy(), "10.1.2.3");
  access_log_lines.flush();
  EXPECT_EQ(access.calls, 2);
  EXPECT_NE(access_log.find(R"("status":503)"), std::string::npos) << access_log;
}

TEST_F(ConnectionRefused, IsTheErrorEnvelopeWithRetryAfterAndEveryResponsesHeaders) {
  const api::Response r = service.connection_refused(busy());
  EXPECT_EQ(r.status, 503);
  const auto body = boost::json::parse(r.full_body()).as_object();
  EXPECT_EQ(body.at("ok").as_bool(), false);
  EXPECT_EQ(body.at("error").at("code").as_string(), "SERVER_BUSY");
  EXPECT_EQ(body.at("error").at("message").as_string(),
            "too many open connections from this address; retry shortly");
  EXPECT_EQ(body.at("meta").at("request_id").as_string(), *r.header("X-Request-ID"));
  EXPECT_TRUE(std::regex_match(*r.header("X-Request-ID"), std::regex("req_[A-Za-z0-9]{24}")));
  EXPECT_EQ(*r.header("Retry-After"), "1");
  // The anonymous plan's limit with nothing taken from it, and the current window's end.
  EXPECT_EQ(*r.header("X-RateLimit-Limit"), "7");
  EXPECT_EQ(*r.header("X-RateLimit-Remaining"), "7");
  EXPECT_EQ(*r.header("X-RateLimit-Reset"), "1800000060");
  EXPECT_EQ(*r.header("X-Tool-Version"), "9.9.9");
  // Each refusal has its own request id.
  EXPECT_NE(*service.connection_refused(busy()).header("X-Request-ID"), *r.header("X-Request-ID"));
}

}  // namespace
}  // namespace toolcalc::test_support
