#pragma once
// A small blocking HTTP/1.1 client for webhook deliveries (quota_alerts.hpp): one POST per
// connection (Connection: close), http:// or https:// (OpenSSL, the system's CA store,
// the host name checked against the certificate), every step under one deadline. Only the
// status line of the answer is read: a delivery succeeds on any 2xx. Runs on the alert
// sender's thread, never on a request's.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accounts/webhook_address.hpp"

namespace toolcalc::accounts {

struct WebhookUrl {
  bool tls = false;
  std::string host;    // a name or an IPv4 address; [IPv6] without the brackets
  int port = 0;        // 80 / 443 unless given
  std::string target;  // the path and query, "/" when empty
};

// http[s]://HOST[:PORT][/PATH[?QUERY]], no user info, no fragment, at most 2,000 bytes,
// no control characters or spaces. nullopt with `why` set when the URL is not one.
std::optional<WebhookUrl> parse_webhook_url(std::string_view url, std::string* why = nullptr);

struct WebhookResponse {
  int status = 0;     // the HTTP status; 0 when no answer arrived
  std::string error;  // why there was no answer (connect, TLS, timeout, …)
  // Nothing was tried: no name lookup could start (host_resolver.hpp). Not the receiver's
  // failure: the caller tries again later and counts no attempt.
  bool postponed = false;
  bool ok() const { return status >= 200 && status < 300; }
};

// POSTs `body` as application/json with `headers` (names and values without CR/LF). The
// host is resolved within `timeout` too, and only an address `policy` accepts is
// connected to (webhook_address.hpp); when it accepts none, `error` starts "refused: ".
WebhookResponse post_webhook(const WebhookUrl& url, std::string_view body,
                             const std::vector<std::pair<std::string, std::string>>& headers,
                             std::chrono::milliseconds timeout, const ReceiverPolicy& policy);

// "t=<timestamp>,v1=<hex HMAC-SHA256 of '<timestamp>.<body>' with `secret`>": the value of
// the Toolcalc-Signature header, as Stripe signs its webhooks (Stripe-Signature).
std::string webhook_signature(std::string_view secret, int64_t timestamp_s, std::string_view body);

}  // namespace toolcalc::accounts
