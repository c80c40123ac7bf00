#pragma once
// Quota alerts: when a key with a webhook URL reaches 80 %, 90 % and 100 % of its monthly
// quota, one signed JSON event per threshold and month is POSTed to that URL.
//
// A background thread, never a request, does the first two, once per check interval:
//   1. detect: for each key with a webhook, its month-to-date usage against its quota;
//      a threshold reached is recorded in the store with create_alert, which succeeds for
//      exactly one caller per (key, month, threshold) whatever the number of servers or
//      restarts (an INSERT on SQLite, one Lua script on Redis);
//   2. dispatch: the undelivered alerts that are due are leased (no other server sends
//      them meanwhile), as many as the delivery pool has room for, and handed to it;
//   3. deliver, on the pool's threads (delivery_pool.hpp: a few per receiver at most): the
//      event is POSTed with a Toolcalc-Signature header, only to an address the receiver
//      policy accepts (webhook_address.hpp), and marked delivered on a 2xx; otherwise
//      retried with exponential back-off until `give_up_after`.
// So a receiver that never answers holds its own deliveries and never the detection or
// delivery of other keys' alerts.
// An event's id is derived from (key, month, threshold), so a receiver can drop the rare
// duplicate (a server that dies after the receiver answered but before it recorded that).
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "accounts/background_loop.hpp"
#include "accounts/delivery_pool.hpp"
#include "accounts/webhook_address.hpp"
#include "accounts/webhook_client.hpp"
#include "core/clock.hpp"
#include "store/account_store.hpp"

namespace toolcalc::accounts {

inline constexpr int32_t kAlertThresholdsPct[] = {80, 90, 100};

struct AlertOptions {
  std::chrono::milliseconds check_interval{1000};
  std::chrono::milliseconds retry_initial{5000};  // doubled after each failed attempt
  std::chrono::milliseconds retry_max{3'600'000};
  std::chrono::seconds give_up_after{3 * 86'400};
  std::chrono::milliseconds timeout{10'000};  // one delivery: resolve, connect, TLS, answer
  size_t delivery_threads = 4;
  size_t per_receiver = 2;   // deliveries to one host and port at once
  ReceiverPolicy receivers;  // the addresses deliveries may connect to
};

// A key whose quota is watched: what the monitor and the sender need of it.
struct AlertWatch {
  int64_t key_id = 0;
  std::string prefix, label;
  std::string url, secret;
  int64_t monthly_quota = 0;
};

class QuotaAlerts {
 public:
  // The keys with a webhook (active keys only), and their usage in a month.
  using Watches = std::function<std::vector<AlertWatch>()>;
  using UsageOf = std::function<int64_t(int64_t key_id, const std::string& period)>;

  // `store` and `clock` must outlive this object.
  QuotaAlerts(store::AccountStore& store, const Clock& clock, Watches watches, UsageOf usage,
              AlertOptions options = {});
  ~QuotaAlerts();  // stop()
  QuotaAlerts(const QuotaAlerts&) = delete;
  QuotaAlerts& operator=(const QuotaAlerts&) = delete;

  void start();
  void stop();  // waits for the deliveries under way (at most `timeout`)

  // One round of the thread (tests call it directly): detect, then hand what is due to
  // the delivery threads. It does not wait for the deliveries: wait_for_deliveries() does.
  void run_once();
  void wait_for_deliveries();

  // The JSON body of an alert's event, and its id ("evt_quota_<key>_<YYYY-MM>_<pct>").
  static std::string event_body(const store::QuotaAlert& alert, const AlertWatch& key);
  static std::string event_id(const store::QuotaAlert& alert);

 private:
  void detect(int64_t now_s);
  void dispatch(int64_t now_s);
  // On a delivery thread: one attempt to `url` (key.url parsed; nullopt when it is not
  // valid), and its outcome recorded.
  void deliver(const store::QuotaAlert& alert, const AlertWatch& key,
               const std::optional<WebhookUrl>& url);
  void record_outcome(const store::QuotaAlert& alert, const AlertWatch& key,
                      const WebhookResponse& response);

  store::AccountStore& store_;
  const Clock& clock_;
  Watches watches_;
  UsageOf usage_;
  AlertOptions options_;
  // (key, threshold) recorded this month by this process: not asked of the store again.
  std::string known_period_;
  std::set<std::pair<int64_t, int32_t>> known_;
  bool store_failing_ = false;  // the thread's own
  DeliveryPool deliveries_;     // stopped before the members its jobs use go
  BackgroundLoop background_;   // last: stopped before the members it uses go
};

}  // namespace toolcalc::accounts
