#pragma once
// The playground's files (docs/playground.md), prepared once at start-up from the files
// embedded in the binary: content type, strong ETag, and index.html with the values the
// page reads from its <meta> tags (the API base path; the dev key under `serve --dev`).
#include <string>
#include <string_view>
#include <vector>

namespace toolcalc::api {

struct StaticAsset {
  std::string name;  // "index.html", "app.js", "vendor/uPlot.min.css", …
  std::string_view content_type;
  std::string body;
  std::string etag;  // strong: "\"<16 hex digits>\"" from the bytes served
};

// True when `name` is an embedded file (routing: the page's paths are exactly these).
bool is_embedded_file(std::string_view name);

class StaticAssets {
 public:
  // `dev_key` is "" unless the page may pre-fill the key (serve --dev on loopback).
  StaticAssets(std::string_view api_base, std::string_view dev_key);
  // `name` as routed; "" is the page itself (index.html). nullptr when unknown.
  const StaticAsset* find(std::string_view name) const;

 private:
  std::vector<StaticAsset> assets_;
};

// Content-Security-Policy of every playground file: nothing but this origin.
inline constexpr std::string_view kPlaygroundCsp =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'";

// If-None-Match (RFC 9110 §13.1.2): "*" or a list of entity tags, compared weakly.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace toolcalc::api
