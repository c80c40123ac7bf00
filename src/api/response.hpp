#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/decimal.hpp"

namespace toolcalc::api {

using Header = std::pair<std::string_view, std::string>;  // names: string literals

// Headers that many responses carry with the same values (CORS, Cache-Control), owned by
// the Service and rendered once as HTTP header lines: a response points at the block
// instead of building the headers again.
struct HeaderBlock {
  explicit HeaderBlock(std::vector<Header> h) : headers(std::move(h)) {
    for (const auto& [name, value] : headers) {
      lines += name;
      lines += ": ";
      lines += value;
      lines += "\r\n";
    }
  }
  std::vector<Header> headers;
  std::string lines;  // "Name: value\r\n" for each, in order
};

// The X-RateLimit-* values of a response, and the policies of the RateLimit-Policy and
// RateLimit fields (draft-ietf-httpapi-ratelimit-headers-09; docs/api.md, "Headers"): the
// per-minute window and, for a caller with a monthly quota, the month.
struct RateLimitHeaders {
  int64_t limit = 0;
  int64_t remaining = 0;  // never negative
  int64_t reset_epoch_s = 0;
  int64_t now_s = 0;  // the instant the window's `t` counts from
  struct Month {
    int64_t quota = 0;
    int64_t remaining = 0;  // never negative
    int64_t window_s = 0;   // the current month's length
    int64_t reset_s = 0;    // seconds until it ends
  };
  std::optional<Month> month;
};

struct Response {
  Response() { headers.reserve(8); }  // one allocation for every header a response has

  int status = 200;
  // The headers every API response starts with, "Name: value\r\n" each, in this order:
  // X-Request-ID, X-Tool-Version, then X-RateLimit-Limit/-Remaining/-Reset, RateLimit-Policy
  // and RateLimit when the caller's window is known (write_lead_headers). The transport
  // sends them first, as they are.
  std::string lead_headers;
  // Header names are string literals (static storage): no allocation per name. Sent after
  // lead_headers, in order, then common_headers.
  std::vector<Header> headers;
  const HeaderBlock* common_headers = nullptr;  // lives as long as the Service
  // The body is body_prefix followed by body. body_prefix views bytes that live as long
  // as the Service and never change (a discovery envelope up to its request id, a
  // playground file): the transport sends them from where they are, without a copy.
  // Empty for 204 and 304.
  std::string_view body_prefix;
  std::string body;
  std::string_view content_type = "application/json; charset=utf-8";  // static storage
  // The request id of meta.request_id and X-Request-ID, written to the access log.
  std::string request_id;
  std::string key_prefix;  // for the access log (never a key, a hash or a body)
  // Answered without a caller's rate window (Service::answer_uncounted: CORS preflight,
  // health, readiness, metrics, the playground's files, /llms.txt; the admin API). The
  // transport lets such requests keep a connection open only within the keep-alive wait
  // the last counted one began (docs/api.md, "HTTP transport").
  bool uncounted = false;

  // Back to a fresh response, keeping the capacity of its strings and header list: a
  // connection reuses one Response for all its requests.
  void clear() {
    status = 200;
    lead_headers.clear();
    headers.clear();
    common_headers = nullptr;
    body_prefix = {};
    body.clear();
    content_type = "application/json; charset=utf-8";
    request_id.clear();
    key_prefix.clear();
    uncounted = false;
  }

  std::size_t body_size() const { return body_prefix.size() + body.size(); }
  std::string full_body() const {
    std::string all;
    all.reserve(body_size());
    all += body_prefix;
    all += body;
    return all;
  }

  void set_header(std::string_view name, std::string value) {
    headers.emplace_back(name, std::move(value));
  }
  // The value of header `name` as it is sent (for tests and in-process callers).
  std::optional<std::string> header(std::string_view name) const {
    for (std::string_view lines = lead_headers; !lines.empty();) {
      const size_t end = lines.find("\r\n");
      const std::string_view line = lines.substr(0, end);
      lines.remove_prefix(end == std::string_view::npos ? lines.size() : end + 2);
      if (line.size() > name.size() + 1 && line.starts_with(name) && line[name.size()] == ':')
        return std::string(line.substr(name.size() + 2));
    }
    for (const auto& [n, v] : headers)
      if (n == name) return v;
    if (common_headers)
      for (const auto& [n, v] : common_headers->headers)
        if (n == name) return v;
    return std::nullopt;
  }
};

// Renders `response.lead_headers` from its request id, the version of the tool it is about
// (or the service's) and, when known, the caller's rate window.
void write_lead_headers(Response& response, std::string_view tool_version,
                        const std::optional<RateLimitHeaders>& rate);

}  // namespace toolcalc::api
