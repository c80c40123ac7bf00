// Quota alerts below the server: the webhook client against a loopback receiver written
// here, the signature against a vector computed with Python's hmac module, and
// QuotaAlerts' detect/deliver rounds over the embedded store (exactly once per threshold,
// also for a second instance; retried with back-off while the receiver is away).
#include "accounts/quota_alerts.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "accounts/webhook_client.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::new_key;
using accounts::testing::TempDir;
using accounts::testing::utc_ms;

namespace {

// Accepts connections on 127.0.0.1 and answers each request with `status`, keeping what
// it received.
class LoopbackReceiver {
 public:
  explicit LoopbackReceiver(int status) : status_(status) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    EXPECT_EQ(::listen(fd_, 8), 0);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~LoopbackReceiver() {
    stopping_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string url(const std::string& path = "/hook") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  std::vector<std::string> requests() {
    std::lock_guard lock(mu_);
    return requests_;
  }

 private:
  void serve() {
    while (!stopping_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string req;
      char buf[4096];
      // Headers, then Content-Length bytes of body.
      for (;;) {
        const ssize_t n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        req.append(buf, static_cast<size_t>(n));
        const size_t end = req.find("\r\n\r\n");
        if (end == std::string::npos) continue;
        const size_t cl = req.find("Content-Length: ");
        const size_t length = cl == std::string::npos ? 0 : std::stoul(req.substr(cl + 16));
        if (req.size() >= end + 4 + length) break;
      }
      {
        std::lock_guard lock(mu_);
        requests_.push_back(req);
      }
      const std::string answer =
          "HTTP/1.1 " + std::to_string(status_) + " X\r\nContent-Length: 0\r\n\r\n";
      ::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
      ::close(c);
    }
  }

  int status_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

std::string body_of(const std::string& request) {
  return request.substr(request.find("\r\n\r\n") + 4);
}

}  // namespace

TEST(WebhookUrl, ParsesWhatADeliveryNeeds) {
  auto u = parse_webhook_url("https://hooks.example.com/a/b?c=d");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "hooks.example.com");
  EXPECT_EQ(u->port, 443);
  EXPECT_EQ(u->target, "/a/b?c=d");
  u = parse_webhook_url("http://127.0.0.1:8081");
  ASSERT_TRUE(u);
  EXPECT_FALSE(u->tls);
  EXPECT_EQ(u->port, 8081);
  EXPECT_EQ(u->target, "/");
  u = parse_webhook_url("http://[::1]:9/x");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->target, "/x");
  std::string why;
  for (const char* bad : {"ftp://x", "http://", "http://user:pw@x/", "http://x:0/",
                          "http://x:99999/", "http://x/#frag", "http://x/a b", "https://x:port/"}) {
    EXPECT_FALSE(parse_webhook_url(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
  EXPECT_FALSE(parse_webhook_url("https://x/" + std::string(2000, 'a')));
}

TEST(WebhookSignature, MatchesHmacSha256OfTimestampDotBody) {
  // python3: hmac.new(b'whsec_test', b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
  EXPECT_EQ(webhook_signature("whsec_test", 1'700'000'000, R"({"a":1})"),
            "t=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789");
}

TEST(WebhookClient, PostsAndReadsTheStatus) {
  LoopbackReceiver ok(204);
  const auto r = post_webhook(*parse_webhook_url(ok.url("/in?x=1")), R"({"a":1})",
                              {{"Toolcalc-Signature", "t=1,v1=00"}}, std::chrono::seconds(5));
  EXPECT_EQ(r.status, 204);
  EXPECT_TRUE(r.ok());
  const auto reqs = ok.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_TRUE(reqs[0].starts_with("POST /in?x=1 HTTP/1.1\r\n")) << reqs[0];
  EXPECT_NE(reqs[0].find("\r\nContent-Type: application/json\r\n"), std::string::npos);
  EXPECT_NE(reqs[0].find("\r\nToolcalc-Signature: t=1,v1=00\r\n"), std::string::npos);
  EXPECT_EQ(body_of(reqs[0]), R"({"a":1})");

  LoopbackReceiver failing(503);
  EXPECT_EQ(
      post_webhook(*parse_webhook_url(failing.url()), "{}", {}, std::chrono::seconds(5)).status,
      503);
  // Nobody listening: no status, and why.
  const auto down =
      post_webhook(*parse_webhook_url("http://127.0.0.1:1/"), "{}", {}, std::chrono::seconds(2));
  EXPECT_EQ(down.status, 0);
  EXPECT_NE(down.error.find("connect"), std::string::npos) << down.error;
  // A header with CR/LF is refused rather than sent.
  EXPECT_FALSE(post_webhook(*parse_webhook_url(ok.url()), "{}", {{"X", "a\r\nInjected: 1"}},
                            std::chrono::seconds(2))
                   .ok());
}

TEST(QuotaAlerts, EachThresholdOnceWithASignedEvent) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 11, 20, 12, 0, 0));
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t id = *store->create_key(new_key("tc_live_AAAA", 'a', "pro"));
  LoopbackReceiver receiver(200);
  int64_t used = 0;
  std::string asked_period;  // the month whose usage the monitor read last
  const AlertWatch watch{id, "tc_live_AAAA", "team", receiver.url(), "whsec_k", 10};
  auto make = [&] {
    return std::make_unique<QuotaAlerts>(
        *store, clock, [&] { return std::vector<AlertWatch>{watch}; },
        [&](int64_t, const std::string& period) {
          asked_period = period;
          return used;
        });
  };
  auto alerts = make();
  used = 7;
  alerts->run_once();
  EXPECT_TRUE(receiver.requests().empty());
  EXPECT_EQ(asked_period, "2026-11");
  used = 9;  // 80 % and 90 % at once
  alerts->run_once();
  auto reqs = receiver.requests();
  ASSERT_EQ(reqs.size(), 2u);
  const std::string body = body_of(reqs[0]);
  EXPECT_EQ(body, R"({"id":"evt_quota_1_2026-11_80","type":"quota.threshold_reached","created":)" +
                      std::to_string(clock.now_s()) +
                      R"(,"data":{"key_prefix":"tc_live_AAAA","label":"team","period":"2026-11",)"
                      R"("threshold_pct":80,"monthly_quota":10,"used":9,)"
                      R"("resets_at":"2026-12-01T00:00:00Z"}})");
  EXPECT_NE(reqs[0].find("\r\nToolcalc-Signature: " +
                         webhook_signature("whsec_k", clock.now_s(), body) + "\r\n"),
            std::string::npos);
  EXPECT_NE(reqs[0].find("\r\nToolcalc-Event-Id: evt_quota_1_2026-11_80\r\n"), std::string::npos);
  EXPECT_NE(body_of(reqs[1]).find(R"("threshold_pct":90)"), std::string::npos);

  alerts->run_once();       // nothing new
  auto restarted = make();  // another process on the same store
  restarted->run_once();
  EXPECT_EQ(receiver.requests().size(), 2u);
  used = 10;
  restarted->run_once();
  alerts->run_once();
  ASSERT_EQ(receiver.requests().size(), 3u);
  EXPECT_NE(body_of(receiver.requests()[2]).find(R"("threshold_pct":100)"), std::string::npos);

  // Next month, the thresholds count again.
  clock.set_ms(utc_ms(2026, 12, 2, 0, 0, 0));
  used = 8;
  alerts->run_once();
  EXPECT_EQ(asked_period, "2026-12");
  ASSERT_EQ(receiver.requests().size(), 4u);
  EXPECT_NE(body_of(receiver.requests()[3]).find(R"("period":"2026-12")"), std::string::npos);
}

TEST(QuotaAlerts, RetriedWithBackOffUntilTheReceiverAnswers) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 11, 20, 12, 0, 0));
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t id = *store->create_key(new_key("tc_live_AAAA", 'a', "pro"));
  std::string url = "http://127.0.0.1:1/down";
  AlertOptions options;
  options.retry_initial = std::chrono::seconds(10);
  options.retry_max = std::chrono::seconds(25);
  options.timeout = std::chrono::seconds(2);
  QuotaAlerts alerts(
      *store, clock,
      [&] {
        return std::vector<AlertWatch>{{id, "tc_live_AAAA", "", url, "whsec_k", 10}};
      },
      [](int64_t, const std::string&) { return int64_t{8}; }, options);
  alerts.run_once();  // attempt 1 fails: next in 10 s
  clock.advance_ms(9'000);
  alerts.run_once();  // not due
  EXPECT_TRUE(store->lease_due_alerts(clock.now_s(), clock.now_s(), 10).empty());
  clock.advance_ms(1'000);
  alerts.run_once();  // attempt 2 fails: next in 20 s
  clock.advance_ms(19'000);
  EXPECT_TRUE(store->lease_due_alerts(clock.now_s(), clock.now_s(), 10).empty());
  clock.advance_ms(1'000);
  alerts.run_once();  // attempt 3 fails: next in 25 s (the most)
  clock.advance_ms(24'000);
  EXPECT_TRUE(store->lease_due_alerts(clock.now_s(), clock.now_s(), 10).empty());

  LoopbackReceiver receiver(202);
  url = receiver.url();
  clock.advance_ms(1'000);
  alerts.run_once();
  ASSERT_EQ(receiver.requests().size(), 1u);
  clock.advance_ms(3'600'000);
  alerts.run_once();
  EXPECT_EQ(receiver.requests().size(), 1u);
}
