#include "api/static_assets.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "api/embedded_files.hpp"
#include "core/text.hpp"
#include "core/wrapping.hpp"

namespace toolcalc::api {
namespace {

std::string_view content_type_of(std::string_view name) {
  const auto ends_with = [&](std::string_view ext) {
    return name.size() >= ext.size() && name.substr(name.size() - ext.size()) == ext;
  };
  if (ends_with(".html")) return "text/html; charset=utf-8";
  if (ends_with(".js") || ends_with(".mjs")) return "text/javascript; charset=utf-8";
  if (ends_with(".css")) return "text/css; charset=utf-8";
  if (ends_with(".svg")) return "image/svg+xml";
  if (ends_with(".png")) return "image/png";
  if (ends_with(".json")) return "application/json; charset=utf-8";
  if (ends_with(".txt") || ends_with(".md")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// FNV-1a, 64 bits: the tag only has to change when the bytes do (a cache validator, not a
// security measure), and it is computed once per file at start-up.
TOOLCALC_WRAPPING std::string etag_of(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
  return buf;
}

std::string html_attribute(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void replace_placeholder(std::string& html, std::string_view placeholder, std::string_view value) {
  const size_t at = html.find(placeholder);
  if (at == std::string::npos)
    throw std::logic_error("web/index.html has no " + std::string(placeholder));
  html.replace(at, placeholder.size(), html_attribute(value));
}

}  // namespace

bool is_embedded_file(std::string_view name) {
  for (const auto& f : embedded_files())
    if (f.name == name) return true;
  return false;
}

StaticAssets::StaticAssets(std::string_view api_base, std::string_view dev_key) {
  for (const auto& f : embedded_files()) {
    StaticAsset a;
    a.name = f.name;
    a.content_type = content_type_of(f.name);
    a.body = f.bytes;
    if (f.name == "index.html") {
      replace_placeholder(a.body, "{{API_BASE}}", api_base);
      replace_placeholder(a.body, "{{DEV_KEY}}", dev_key);
    }
    a.etag = etag_of(a.body);
    assets_.push_back(std::move(a));
  }
}

const StaticAsset* StaticAssets::find(std::string_view name) const {
  if (name.empty()) name = "index.html";
  for (const auto& a : assets_)
    if (a.name == name) return &a;
  return nullptr;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    const size_t comma = if_none_match.find(',');
    std::string_view tag = trim(if_none_match.substr(0, comma));
    if (tag == "*") return true;
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
    if (comma == std::string_view::npos) break;
    if_none_match.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace toolcalc::api
