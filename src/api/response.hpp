#pragma once
#include <string>
#include <utility>
#include <vector>

namespace toolcalc::api {

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // JSON; empty for 204
  // For the access log (never a key, a hash or a body).
  std::string request_id;
  std::string key_prefix;

  void set_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
  const std::string* header(std::string_view name) const {
    for (const auto& [n, v] : headers)
      if (n == name) return &v;
    return nullptr;
  }
};

}  // namespace toolcalc::api
