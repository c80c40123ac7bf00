// Quota alerts below the server: the webhook client against a loopback receiver written
// here, the signature against a vector computed with Python's hmac module, and
// QuotaAlerts' detect/deliver rounds over the embedded store (exactly once per threshold,
// also for a second instance; retried with back-off while the receiver is away; a receiver
// that never answers holds only its own alerts), and no delivery to a special-purpose
// address (loopback, private, link-local, … in any spelling) unless allow-listed.
#include "accounts/quota_alerts.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "accounts/host_resolver.hpp"
#include "accounts/webhook_client.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::new_key;
using accounts::testing::TempDir;
using accounts::testing::utc_ms;

namespace {

// A socket listening on 127.0.0.1 at a port the kernel chose, which it writes to `port`.
int listen_on_loopback(int backlog, int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(::listen(fd, backlog), 0);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

// Accepts connections on 127.0.0.1 and answers each request with `status`, keeping what
// it received.
class LoopbackReceiver {
 public:
  explicit LoopbackReceiver(int status) : status_(status) {
    fd_ = listen_on_loopback(8, port_);
    thread_ = std::thread([this] { serve(); });
  }
  ~LoopbackReceiver() {
    stopping_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
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

// The request whose event is for `pct` %: deliveries run side by side, in either order.
std::string request_for(const std::vector<std::string>& requests, int pct) {
  const std::string mark = "\"threshold_pct\":" + std::to_string(pct) + ",";
  for (const auto& r : requests)
    if (body_of(r).find(mark) != std::string::npos) return r;
  ADD_FAILURE() << "no event for " << pct << " %";
  return std::string();
}

// The receivers of these tests listen on loopback, which only an allow-list lets through.
ReceiverPolicy loopback_allowed() {
  return ReceiverPolicy({*parse_ip_range("127.0.0.0/8")});
}

AlertOptions test_options() {
  AlertOptions o;
  o.receivers = loopback_allowed();
  return o;
}

// One round, and the deliveries it handed out.
void round_of(QuotaAlerts& alerts) {
  alerts.run_once();
  alerts.wait_for_deliveries();
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
                              {{"Toolcalc-Signature", "t=1,v1=00"}}, std::chrono::seconds(5),
                              loopback_allowed());
  EXPECT_EQ(r.status, 204);
  EXPECT_TRUE(r.ok());
  const auto reqs = ok.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_TRUE(reqs[0].starts_with("POST /in?x=1 HTTP/1.1\r\n")) << reqs[0];
  EXPECT_NE(reqs[0].find("\r\nContent-Type: application/json\r\n"), std::string::npos);
  EXPECT_NE(reqs[0].find("\r\nToolcalc-Signature: t=1,v1=00\r\n"), std::string::npos);
  EXPECT_EQ(body_of(reqs[0]), R"({"a":1})");

  LoopbackReceiver failing(503);
  EXPECT_EQ(post_webhook(*parse_webhook_url(failing.url()), "{}", {}, std::chrono::seconds(5),
                         loopback_allowed())
                .status,
            503);
  // Nobody listening: no status, and why.
  const auto down = post_webhook(*parse_webhook_url("http://127.0.0.1:1/"), "{}", {},
                                 std::chrono::seconds(2), loopback_allowed());
  EXPECT_EQ(down.status, 0);
  EXPECT_NE(down.error.find("connect"), std::string::npos) << down.error;
  // A header with CR/LF is refused rather than sent.
  EXPECT_FALSE(post_webhook(*parse_webhook_url(ok.url()), "{}", {{"X", "a\r\nInjected: 1"}},
                            std::chrono::seconds(2), loopback_allowed())
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
        },
        test_options());
  };
  auto alerts = make();
  used = 7;
  round_of(*alerts);
  EXPECT_TRUE(receiver.requests().empty());
  EXPECT_EQ(asked_period, "2026-11");
  used = 9;  // 80 % and 90 % at once
  round_of(*alerts);
  auto reqs = receiver.requests();
  ASSERT_EQ(reqs.size(), 2u);
  const std::string first = request_for(reqs, 80);
  const std::string body = body_of(first);
  EXPECT_EQ(body, R"({"id":"evt_quota_1_2026-11_80","type":"quota.threshold_reached","created":)" +
                      std::to_string(clock.now_s()) +
                      R"(,"data":{"key_prefix":"tc_live_AAAA","label":"team","period":"2026-11",)"
                      R"("threshold_pct":80,"monthly_quota":10,"used":9,)"
                      R"("resets_at":"2026-12-01T00:00:00Z"}})");
  EXPECT_NE(first.find("\r\nToolcalc-Signature: " +
                       webhook_signature("whsec_k", clock.now_s(), body) + "\r\n"),
            std::string::npos);
  EXPECT_NE(first.find("\r\nToolcalc-Event-Id: evt_quota_1_2026-11_80\r\n"), std::string::npos);
  EXPECT_NE(body_of(request_for(reqs, 90)).find(R"("used":9)"), std::string::npos);

  round_of(*alerts);        // nothing new
  auto restarted = make();  // another process on the same store
  round_of(*restarted);
  EXPECT_EQ(receiver.requests().size(), 2u);
  used = 10;
  round_of(*restarted);
  round_of(*alerts);
  ASSERT_EQ(receiver.requests().size(), 3u);
  EXPECT_NE(body_of(receiver.requests()[2]).find(R"("threshold_pct":100)"), std::string::npos);

  // Next month, the thresholds count again.
  clock.set_ms(utc_ms(2026, 12, 2, 0, 0, 0));
  used = 8;
  round_of(*alerts);
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
  AlertOptions options = test_options();
  options.retry_initial = std::chrono::seconds(10);
  options.retry_max = std::chrono::seconds(25);
  options.timeout = std::chrono::seconds(2);
  QuotaAlerts alerts(
      *store, clock,
      [&] {
        return std::vector<AlertWatch>{{id, "tc_live_AAAA", "", url, "whsec_k", 10}};
      },
      [](int64_t, const std::string&) { return int64_t{8}; }, options);
  round_of(alerts);  // attempt 1 fails: next in 10 s
  clock.advance_ms(9'000);
  round_of(alerts);  // not due
  EXPECT_TRUE(store->lease_due_alerts(clock.now_s(), clock.now_s(), 10).empty());
  clock.advance_ms(1'000);
  round_of(alerts);  // attempt 2 fails: next in 20 s
  clock.advance_ms(19'000);
  EXPECT_TRUE(store->lease_due_alerts(clock.now_s(), clock.now_s(), 10).empty());
  clock.advance_ms(1'000);
  round_of(alerts);  // attempt 3 fails: next in 25 s (the most)
  clock.advance_ms(24'000);
  EXPECT_TRUE(store->lease_due_alerts(clock.now_s(), clock.now_s(), 10).empty());

  LoopbackReceiver receiver(202);
  url = receiver.url();
  clock.advance_ms(1'000);
  round_of(alerts);
  ASSERT_EQ(receiver.requests().size(), 1u);
  clock.advance_ms(3'600'000);
  round_of(alerts);
  EXPECT_EQ(receiver.requests().size(), 1u);
}

namespace {

// Listens on 127.0.0.1 and never accepts: the kernel completes the connections, the
// request is buffered, and no answer ever comes (a receiver that hangs).
class BlackHole {
 public:
  BlackHole() { fd_ = listen_on_loopback(16, port_); }
  ~BlackHole() { close(); }
  // Resets the connections waiting in its queue: deliveries under way fail at once.
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

template <typename Done>
bool within(std::chrono::milliseconds limit, Done done) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace

TEST(WebhookClient, RefusesEverySpecialPurposeAddressAndSendsNothing) {
  LoopbackReceiver listener(204);
  const std::string port_number = std::to_string(listener.port());
  for (const char* host : {"127.0.0.1",
                           "127.1",
                           "0x7f000001",
                           "2130706433",
                           "0177.0.0.1",
                           "[::ffff:127.0.0.1]",
                           "[::ffff:7f00:1]",
                           "0.0.0.0",
                           "0",
                           "[::]",
                           "[::1]",
                           "localhost",
                           "169.254.169.254",
                           "10.0.0.1",
                           "172.16.0.1",
                           "192.168.0.1",
                           "100.64.0.1",
                           "[fe80::1]",
                           "[fc00::1]",
                           "[fd00::1]",
                           "[ff02::1]",
                           "[64:ff9b::7f00:1]",
                           "224.0.0.1",
                           "255.255.255.255"}) {
    const std::string url = std::string("http://") + host + ":" + port_number + "/hook";
    const auto r =
        post_webhook(*parse_webhook_url(url), "{}", {}, std::chrono::seconds(2), ReceiverPolicy());
    EXPECT_FALSE(r.ok()) << url;
    EXPECT_EQ(r.status, 0) << url;
    EXPECT_TRUE(r.error.starts_with("refused: ")) << url << ": " << r.error;
  }
  EXPECT_TRUE(listener.requests().empty()) << "nothing reached the loopback listener";
  // What the check stops: the decimal alias does reach loopback when it is allowed.
  const auto allowed = post_webhook(*parse_webhook_url("http://2130706433:" + port_number + "/"),
                                    "{}", {}, std::chrono::seconds(5), loopback_allowed());
  EXPECT_EQ(allowed.status, 204) << allowed.error;
  EXPECT_EQ(listener.requests().size(), 1u);
}

TEST(QuotaAlerts, ABlackHoleReceiverHoldsOnlyItsOwnAlerts) {
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 11, 20, 12, 0, 0));
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t hole_key = *store->create_key(new_key("tc_live_HOLE", 'h', "pro"));
  const int64_t b_key = *store->create_key(new_key("tc_live_BBBB", 'b', "pro"));
  const int64_t c_key = *store->create_key(new_key("tc_live_CCCC", 'c', "pro"));
  BlackHole hole;
  LoopbackReceiver b(204), c(204);
  std::mutex mu;
  std::map<int64_t, int64_t> used = {{hole_key, 10}, {b_key, 0}, {c_key, 0}};
  AlertOptions options = test_options();
  options.timeout = std::chrono::seconds(30);  // each delivery to the hole takes all of it
  QuotaAlerts alerts(
      *store, clock,
      [&] {
        return std::vector<AlertWatch>{{hole_key, "tc_live_HOLE", "", hole.url(), "whsec_h", 10},
                                       {b_key, "tc_live_BBBB", "", b.url(), "whsec_b", 10},
                                       {c_key, "tc_live_CCCC", "", c.url(), "whsec_c", 10}};
      },
      [&](int64_t key, const std::string&) {
        std::lock_guard lock(mu);
        return used[key];
      },
      options);
  // The hole's three thresholds are raised and its deliveries start (and hang).
  const auto t0 = std::chrono::steady_clock::now();
  alerts.run_once();
  {
    std::lock_guard lock(mu);
    used[b_key] = 8;
    used[c_key] = 9;
  }
  clock.advance_ms(1000);
  alerts.run_once();
  // A generous bound, a third of one hanging delivery's timeout: before, each round waited
  // for the hole's deliveries one after another (3 × 30 s) before detecting anything else.
  const auto bound = std::chrono::seconds(10);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, bound) << "a round never waits for a delivery";
  EXPECT_TRUE(within(bound, [&] { return b.requests().size() == 1 && c.requests().size() == 2; }))
      << b.requests().size() << " " << c.requests().size();
  EXPECT_NE(body_of(request_for(b.requests(), 80)).find(R"("key_prefix":"tc_live_BBBB")"),
            std::string::npos);
  request_for(c.requests(), 80);
  request_for(c.requests(), 90);
  // Later thresholds of the others are raised and sent while the hole still hangs.
  {
    std::lock_guard lock(mu);
    used[b_key] = 10;
  }
  clock.advance_ms(1000);
  alerts.run_once();
  EXPECT_TRUE(within(bound, [&] { return b.requests().size() == 3; })) << b.requests().size();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, options.timeout);
  hole.close();  // its deliveries fail now; stop() then returns at once
  alerts.stop();
}

namespace {

// A name server for the tests (host_resolver.hpp's set_name_lookup): a name that starts
// "hang" gets no answer until release(), as from a name server that drops every query;
// every name answers 127.0.0.1 otherwise. It counts the lookups of each name.
class FakeNameServer {
 public:
  FakeNameServer() {
    set_name_lookup([this](const std::string& host) { return lookup(host); });
  }
  ~FakeNameServer() {
    release();
    set_name_lookup({});
    // The lookup threads use this object until they return.
    EXPECT_TRUE(within(std::chrono::seconds(10), [] { return name_lookups_under_way() == 0; }));
  }
  void release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  int lookups(const std::string& host) {
    std::lock_guard lock(mu_);
    return lookups_[host];
  }

 private:
  NameLookupResult lookup(const std::string& host) {
    std::unique_lock lock(mu_);
    ++lookups_[host];
    if (host.starts_with("hang")) cv_.wait(lock, [this] { return released_; });
    ResolvedAddress a;
    auto& in = reinterpret_cast<sockaddr_in&>(a.addr);
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.len = sizeof in;
    a.socktype = SOCK_STREAM;
    a.protocol = IPPROTO_TCP;
    return {{a}, ""};
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool released_ = false;
  std::map<std::string, int> lookups_;
};

std::chrono::steady_clock::time_point in_ms(int ms) {
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
}

}  // namespace

// A name whose name server never answers keeps one lookup under way, however many
// deliveries ask for it (in any case) and give up at their deadlines: the other names
// still find a lookup slot.
TEST(HostResolver, OneLookupPerNameAndOtherNamesStillResolve) {
  FakeNameServer dns;
  for (int i = 0; i < 2 * static_cast<int>(kMaxResolutionsUnderWay); ++i) {
    std::string error;
    bool postponed = true;
    EXPECT_TRUE(
        resolve_host(i % 2 ? "hang.example" : "HANG.example", 80, in_ms(10), error, &postponed)
            .empty());
    EXPECT_EQ(error, "cannot resolve the host: timed out");
    EXPECT_FALSE(postponed);
  }
  EXPECT_EQ(dns.lookups("hang.example"), 1);
  std::string error;
  bool postponed = true;
  const auto good = resolve_host("good.example", 8443, in_ms(5000), error, &postponed);
  ASSERT_EQ(good.size(), 1u) << error;
  EXPECT_FALSE(postponed);
  const auto& in = reinterpret_cast<const sockaddr_in&>(good[0].addr);
  EXPECT_EQ(ntohs(in.sin_port), 8443) << "the port is the caller's";
  EXPECT_EQ(ntohl(in.sin_addr.s_addr), INADDR_LOOPBACK);
}

// Every slot held by names that never answer: the next name is postponed, not failed.
TEST(HostResolver, NoFreeSlotPostponesTheLookup) {
  FakeNameServer dns;
  for (size_t i = 0; i < kMaxResolutionsUnderWay; ++i) {
    std::string error;
    resolve_host("hang" + std::to_string(i) + ".example", 80, in_ms(1), error);
    EXPECT_EQ(error, "cannot resolve the host: timed out");
  }
  std::string error;
  bool postponed = false;
  EXPECT_TRUE(resolve_host("good.example", 80, in_ms(5000), error, &postponed).empty());
  EXPECT_TRUE(postponed) << error;
  EXPECT_EQ(dns.lookups("good.example"), 0);
}

// A receiver whose domain resolves through a name server that never answers: its
// deliveries fail (timed out) and are retried, round after round, while another key's
// receiver is still resolved and delivered to in the same round as its alert is raised.
TEST(QuotaAlerts, AHangingNameServerHoldsOnlyItsOwnReceiver) {
  FakeNameServer dns;
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 11, 20, 12, 0, 0));
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t hang_key = *store->create_key(new_key("tc_live_HANG", 'h', "pro"));
  const int64_t good_key = *store->create_key(new_key("tc_live_GOOD", 'g', "pro"));
  LoopbackReceiver good(204);
  const std::string good_url = "http://good.example:" + std::to_string(good.port()) + "/hook";
  std::atomic<int64_t> good_used{0};
  AlertOptions options = test_options();
  options.timeout = std::chrono::milliseconds(200);
  options.retry_initial = options.retry_max = std::chrono::seconds(1);
  QuotaAlerts alerts(
      *store, clock,
      [&] {
        return std::vector<AlertWatch>{
            {hang_key, "tc_live_HANG", "", "http://hang.example:9/h", "whsec_h", 10},
            {good_key, "tc_live_GOOD", "", good_url, "whsec_g", 10}};
      },
      [&](int64_t key, const std::string&) {
        return key == hang_key ? int64_t{10} : good_used.load();
      },
      options);
  // Three alerts per round, each a delivery that gives up at its deadline: more than
  // kMaxResolutionsUnderWay in all.
  for (int round = 0; round < 8; ++round) {
    round_of(alerts);
    clock.advance_ms(1000);
  }
  EXPECT_EQ(dns.lookups("hang.example"), 1) << "one lookup under way for the name";
  good_used = 8;
  round_of(alerts);
  ASSERT_EQ(good.requests().size(), 1u);
  EXPECT_NE(body_of(good.requests()[0]).find(R"("key_prefix":"tc_live_GOOD")"), std::string::npos);
  EXPECT_EQ(dns.lookups("good.example"), 1);
}

// No lookup slot free: the delivery is postponed and no attempt is counted. With
// give_up_after 0 a counted failed attempt would abandon the alert at once; postponed, it
// is delivered once a slot is free and its lease has ended.
TEST(QuotaAlerts, NoLookupSlotPostponesWithoutCountingAnAttempt) {
  FakeNameServer dns;
  for (size_t i = 0; i < kMaxResolutionsUnderWay; ++i) {
    std::string error;
    resolve_host("hang" + std::to_string(i) + ".example", 80, in_ms(1), error);
  }
  TempDir tmp;
  ManualClock clock(utc_ms(2026, 11, 20, 12, 0, 0));
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t id = *store->create_key(new_key("tc_live_GOOD", 'g', "pro"));
  LoopbackReceiver good(204);
  const std::string url = "http://good.example:" + std::to_string(good.port()) + "/hook";
  AlertOptions options = test_options();
  options.timeout = std::chrono::seconds(2);
  options.give_up_after = std::chrono::seconds(0);
  QuotaAlerts alerts(
      *store, clock,
      [&] {
        return std::vector<AlertWatch>{{id, "tc_live_GOOD", "", url, "whsec_g", 10}};
      },
      [](int64_t, const std::string&) { return int64_t{8}; }, options);
  round_of(alerts);
  EXPECT_TRUE(good.requests().empty());
  EXPECT_EQ(dns.lookups("good.example"), 0);

  dns.release();
  ASSERT_TRUE(within(std::chrono::seconds(10), [] { return name_lookups_under_way() == 0; }));
  clock.advance_ms(60'000);  // past the lease (2 × timeout + 30 s)
  round_of(alerts);
  ASSERT_EQ(good.requests().size(), 1u) << "postponed, not abandoned";
  clock.advance_ms(3'600'000);
  round_of(alerts);
  EXPECT_EQ(good.requests().size(), 1u) << "delivered once";
}

namespace {

// A clock whose first reading on a thread other than the test's throws an int: something
// that is no std::exception escaping a delivery.
class ThrowsOnADeliveryThread final : public Clock {
 public:
  explicit ThrowsOnADeliveryThread(int64_t ms) : ms_(ms) {}
  int64_t now_ms() const override {
    if (std::this_thread::get_id() != owner_ && armed_.exchange(false)) throw 42;
    return ms_.load();
  }
  void advance_ms(int64_t delta) { ms_.fetch_add(delta); }

 private:
  std::atomic<int64_t> ms_;
  mutable std::atomic<bool> armed_{true};
  const std::thread::id owner_ = std::this_thread::get_id();
};

}  // namespace

TEST(QuotaAlerts, ANonStdExceptionInADeliveryIsCaught) {
  TempDir tmp;
  ThrowsOnADeliveryThread clock(utc_ms(2026, 11, 20, 12, 0, 0));
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t id = *store->create_key(new_key("tc_live_AAAA", 'a', "pro"));
  LoopbackReceiver receiver(204);
  AlertOptions options = test_options();
  options.timeout = std::chrono::seconds(2);
  QuotaAlerts alerts(
      *store, clock,
      [&] {
        return std::vector<AlertWatch>{{id, "tc_live_AAAA", "", receiver.url(), "whsec_a", 10}};
      },
      [](int64_t, const std::string&) { return int64_t{8}; }, options);
  round_of(alerts);  // the delivery throws 42: before, std::terminate
  EXPECT_TRUE(receiver.requests().empty());
  clock.advance_ms(60'000);  // past the lease: sent again
  round_of(alerts);
  EXPECT_EQ(receiver.requests().size(), 1u);
}
