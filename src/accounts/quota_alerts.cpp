#include "accounts/quota_alerts.hpp"

#include <algorithm>
#include <exception>
#include <map>

#include "accounts/utc_month.hpp"
#include "accounts/webhook_client.hpp"
#include "core/json_writer.hpp"
#include "core/log.hpp"
#include "core/text.hpp"

namespace toolcalc::accounts {
namespace {

// Alerts leased per round at most (fewer when the delivery pool has less room).
constexpr size_t kLeasesPerRound = 32;

// Deliveries are limited per host and port: the URL's, as written (a host name in any case).
std::string receiver_of(const std::optional<WebhookUrl>& url) {
  if (!url) return std::string();
  return ascii_lowercase(url->host) + "|" + std::to_string(url->port);
}

std::string pct_text(int32_t pct) {
  return std::to_string(pct);
}

}  // namespace

QuotaAlerts::QuotaAlerts(store::AccountStore& store, const Clock& clock, Watches watches,
                         UsageOf usage, AlertOptions options)
    : store_(store),
      clock_(clock),
      watches_(std::move(watches)),
      usage_(std::move(usage)),
      options_(std::move(options)),
      deliveries_(options_.delivery_threads, options_.per_receiver) {}

QuotaAlerts::~QuotaAlerts() {
  stop();
}

void QuotaAlerts::start() {
  background_.start(std::chrono::steady_clock::now() + options_.check_interval, [this] {
    run_once();
    return std::chrono::steady_clock::now() + options_.check_interval;
  });
}

void QuotaAlerts::stop() {
  background_.stop();
  deliveries_.stop();
}

void QuotaAlerts::wait_for_deliveries() {
  deliveries_.wait_idle();
}

void QuotaAlerts::run_once() {
  const int64_t now_s = clock_.now_s();
  // A store outage is reported when it starts and when it ends, not every round.
  try {
    detect(now_s);
    dispatch(now_s);
    if (store_failing_) log::info("quota alerts: the store answers again");
    store_failing_ = false;
  } catch (const std::exception& e) {
    if (!store_failing_)
      log::warn("quota alerts: the store cannot be read (retrying every round)",
                {{"error", e.what()}});
    store_failing_ = true;
  }
}

void QuotaAlerts::detect(int64_t now_s) {
  const std::string period = utc_month_of(now_s).period();
  if (period != known_period_) {
    known_.clear();
    known_period_ = period;
  }
  for (const AlertWatch& w : watches_()) {
    // A quota of 0 refuses every execution from the start: there is nothing to warn of.
    if (w.monthly_quota <= 0) continue;
    int64_t used = -1;
    for (const int32_t pct : kAlertThresholdsPct) {
      if (known_.count({w.key_id, pct})) continue;
      if (used < 0) used = usage_(w.key_id, period);
      // used/quota ≥ pct/100, in integers.
      if (used * 100 < int64_t{pct} * w.monthly_quota) break;
      store::QuotaAlert a;
      a.key_id = w.key_id;
      a.period = period;
      a.threshold_pct = pct;
      a.used = used;
      a.monthly_quota = w.monthly_quota;
      a.created_epoch_s = now_s;
      if (store_.create_alert(a))
        log::info("quota alert raised",
                  {{"key_prefix", w.prefix}, {"period", period}, {"threshold_pct", pct_text(pct)}});
      known_.insert({w.key_id, pct});
    }
  }
}

std::string QuotaAlerts::event_id(const store::QuotaAlert& a) {
  return "evt_quota_" + std::to_string(a.key_id) + "_" + a.period + "_" + pct_text(a.threshold_pct);
}

std::string QuotaAlerts::event_body(const store::QuotaAlert& a, const AlertWatch& key) {
  std::string body;
  JsonWriter w(body);
  w.begin_object().field("id", event_id(a)).field("type", "quota.threshold_reached");
  w.field("created", a.created_epoch_s);
  w.key("data").begin_object();
  w.field("key_prefix", key.prefix).field("label", key.label).field("period", a.period);
  w.field("threshold_pct", int64_t{a.threshold_pct});
  w.field("monthly_quota", a.monthly_quota).field("used", a.used);
  w.field("resets_at", iso8601_utc(utc_month_of(a.created_epoch_s).end_s));
  w.end_object().end_object();
  return body;
}

void QuotaAlerts::dispatch(int64_t now_s) {
  const size_t room = std::min(deliveries_.room(), kLeasesPerRound);
  if (room == 0) return;
  // Held for a wait behind a receiver's deliveries under way, one attempt and a margin:
  // a server that dies meanwhile leaves the alert to the next lease after that.
  const int64_t lease_s =
      2 * std::chrono::duration_cast<std::chrono::seconds>(options_.timeout).count() + 30;
  const int64_t t = clock_.now_s();
  const auto due = store_.lease_due_alerts(std::max(now_s, t), t + lease_s, room);
  if (due.empty()) return;
  std::map<int64_t, AlertWatch> by_key;
  for (auto& w : watches_()) by_key.emplace(w.key_id, std::move(w));
  for (const store::QuotaAlert& a : due) {
    auto it = by_key.find(a.key_id);
    // The key was revoked or lost its webhook before the event went out: nobody to tell.
    if (it == by_key.end()) {
      store_.finish_alert(a, store::AlertOutcome::Abandoned, clock_.now_s());
      log::warn("quota alert dropped: the key has no webhook any more",
                {{"period", a.period}, {"threshold_pct", pct_text(a.threshold_pct)}});
      continue;
    }
    const AlertWatch& key = it->second;
    auto url = parse_webhook_url(key.url);
    const std::string receiver = receiver_of(url);
    // A receiver with its share of deliveries under way: the alert stays leased, and is
    // due again when the lease ends (no attempt counted).
    if (!deliveries_.submit(receiver,
                            [this, a, key, url = std::move(url)] { deliver(a, key, url); }))
      log::debug("quota alert postponed: its receiver has deliveries under way",
                 {{"key_prefix", key.prefix},
                  {"period", a.period},
                  {"threshold_pct", pct_text(a.threshold_pct)}});
  }
}

void QuotaAlerts::deliver(const store::QuotaAlert& a, const AlertWatch& key,
                          const std::optional<WebhookUrl>& url) {
  WebhookResponse r;
  try {
    const std::string body = event_body(a, key);
    if (url)
      r = post_webhook(*url, body,
                       {{"Toolcalc-Signature", webhook_signature(key.secret, clock_.now_s(), body)},
                        {"Toolcalc-Event-Id", event_id(a)}},
                       options_.timeout, options_.receivers);
    else
      r.error = "the webhook URL is not valid";
    // Like a receiver's share refused in dispatch: the alert stays leased and is due again
    // when the lease ends, with no attempt counted.
    if (r.postponed) {
      log::debug("quota alert postponed: no name lookup could start",
                 {{"key_prefix", key.prefix},
                  {"period", a.period},
                  {"threshold_pct", pct_text(a.threshold_pct)},
                  {"error", r.error}});
      return;
    }
    record_outcome(a, key, r);
  } catch (const std::exception& e) {
    // The lease ends and the alert is sent again: the receiver drops a duplicate by its id.
    log::warn("quota alert: the delivery could not be recorded (the store failed)",
              {{"key_prefix", key.prefix}, {"period", a.period}, {"error", e.what()}});
  } catch (...) {
    // Anything else escaping a pool thread would end the process (std::terminate).
    log::warn("quota alert: the delivery failed with an unknown exception",
              {{"key_prefix", key.prefix}, {"period", a.period}});
  }
}

void QuotaAlerts::record_outcome(const store::QuotaAlert& a, const AlertWatch& key,
                                 const WebhookResponse& r) {
  const int32_t attempt = a.attempts + 1;
  if (r.ok()) {
    store_.finish_alert(a, store::AlertOutcome::Delivered, clock_.now_s());
    log::info("quota alert delivered", {{"key_prefix", key.prefix},
                                        {"period", a.period},
                                        {"threshold_pct", pct_text(a.threshold_pct)},
                                        {"attempt", std::to_string(attempt)}});
    return;
  }
  const std::string why = r.status ? "HTTP " + std::to_string(r.status) : r.error;
  if (clock_.now_s() - a.created_epoch_s >= options_.give_up_after.count()) {
    store_.finish_alert(a, store::AlertOutcome::Abandoned, clock_.now_s());
    log::error("quota alert abandoned after retrying",
               {{"key_prefix", key.prefix},
                {"period", a.period},
                {"threshold_pct", pct_text(a.threshold_pct)},
                {"attempts", std::to_string(attempt)},
                {"error", why}});
    return;
  }
  // retry_initial · 2^(attempt-1), at most retry_max.
  int64_t delay_ms = options_.retry_initial.count();
  for (int32_t i = 1; i < attempt && delay_ms < options_.retry_max.count(); ++i) delay_ms *= 2;
  delay_ms = std::min<int64_t>(delay_ms, options_.retry_max.count());
  store_.finish_alert(a, store::AlertOutcome::Retry, clock_.now_s() + (delay_ms + 999) / 1000);
  log::warn("quota alert delivery failed (will retry)",
            {{"key_prefix", key.prefix},
             {"period", a.period},
             {"threshold_pct", pct_text(a.threshold_pct)},
             {"attempt", std::to_string(attempt)},
             {"retry_in_ms", std::to_string(delay_ms)},
             {"error", why}});
}

}  // namespace toolcalc::accounts
