#include "core/secret_redaction.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace toolcalc {
namespace {

constexpr std::string_view kMarkers[] = {"tc_live_", "tc_test_"};
constexpr size_t kMarkerLength = 8;
constexpr size_t kKeptLength = 12;  // accounts::kKeyPrefixLength
constexpr std::string_view kRedacted = "[redacted]";

bool is_base62(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One character of a decoding layer and the bytes of the original text it came from.
struct Spelled {
  char c;
  size_t begin;
  size_t end;
};

// The ranges of the original text to redact for each key in `layer`: from the character
// after its prefix to the end of its base62 run.
void find_keys(const std::vector<Spelled>& layer, std::vector<std::pair<size_t, size_t>>& ranges) {
  const size_t n = layer.size();
  for (size_t at = 0; at + kMarkerLength < n; ++at) {
    if (layer[at].c != 't') continue;
    bool marked = false;
    for (std::string_view m : kMarkers) {
      size_t i = 0;
      while (i < kMarkerLength && layer[at + i].c == m[i]) ++i;
      marked = marked || i == kMarkerLength;
    }
    if (!marked) continue;
    size_t end = at + kMarkerLength;
    while (end < n && is_base62(layer[end].c)) ++end;
    if (end > at + kKeptLength)
      ranges.emplace_back(layer[at + kKeptLength].begin, layer[end - 1].end);
    at = end - 1;
  }
}

// The next layer: each %XX of `layer` decoded into one character spelled by its three.
// False when `layer` has no %XX.
bool decode_layer(const std::vector<Spelled>& layer, std::vector<Spelled>& next) {
  next.clear();
  bool decoded = false;
  for (size_t i = 0; i < layer.size(); ++i) {
    if (layer[i].c == '%' && i + 2 < layer.size()) {
      const int hi = hex_value(layer[i + 1].c), lo = hex_value(layer[i + 2].c);
      if (hi >= 0 && lo >= 0) {
        next.push_back({static_cast<char>(hi * 16 + lo), layer[i].begin, layer[i + 2].end});
        i += 2;
        decoded = true;
        continue;
      }
    }
    next.push_back(layer[i]);
  }
  return decoded;
}

}  // namespace

bool redact_keys(std::string_view text, std::string& out) {
  const bool encoded = text.find('%') != std::string_view::npos;
  if (!encoded && text.find("tc_") == std::string_view::npos) return false;

  std::vector<Spelled> layer, next;
  layer.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) layer.push_back({text[i], i, i + 1});
  std::vector<std::pair<size_t, size_t>> ranges;
  find_keys(layer, ranges);
  for (int depth = 0; encoded && depth < kMaxPercentLayers && decode_layer(layer, next); ++depth) {
    layer.swap(next);
    find_keys(layer, ranges);
  }
  if (ranges.empty()) return false;

  // The ranges of every layer, merged, each replaced once.
  std::sort(ranges.begin(), ranges.end());
  out.clear();
  size_t written = 0;
  for (size_t i = 0; i < ranges.size();) {
    const size_t begin = ranges[i].first;
    size_t end = ranges[i].second;
    for (++i; i < ranges.size() && ranges[i].first <= end; ++i)
      end = std::max(end, ranges[i].second);
    out.append(text.substr(written, begin - written));
    out.append(kRedacted);
    written = end;
  }
  out.append(text.substr(written));
  return true;
}

}  // namespace toolcalc
