#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolcalc::api {

struct Response {
  Response() { headers.reserve(12); }  // one allocation for every header a response has

  int status = 200;
  // Header names are string literals (static storage): no allocation per name.
  std::vector<std::pair<std::string_view, std::string>> headers;
  std::string body;  // JSON (the playground's files: see content_type); empty for 204, 304
  std::string_view content_type = "application/json; charset=utf-8";  // static storage
  // For the access log (never a key, a hash or a body).
  std::string request_id;
  std::string key_prefix;

  void set_header(std::string_view name, std::string value) {
    headers.emplace_back(name, std::move(value));
  }
  const std::string* header(std::string_view name) const {
    for (const auto& [n, v] : headers)
      if (n == name) return &v;
    return nullptr;
  }
};

}  // namespace toolcalc::api
