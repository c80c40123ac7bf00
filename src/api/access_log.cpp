#include "api/access_log.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <ctime>
#include <string>

#include "core/json_writer.hpp"

namespace toolcalc::api {
namespace {

// Writes `value` as `width` decimal digits at `out`.
void put_digits(char* out, int value, int width) {
  for (int i = width - 1; i >= 0; --i, value /= 10) out[i] = static_cast<char>('0' + value % 10);
}

// "YYYY-MM-DDTHH:MM:SS.mmmZ" (RFC 3339, UTC, milliseconds). The date and time are worked
// out once per second per thread: gmtime_r per line costs more than the rest of the line.
std::string_view time_text(int64_t time_ms) {
  struct Cache {
    int64_t second = INT64_MIN;
    char text[24] = {'0', '0', '0', '0', '-', '0', '0', '-', '0', '0', 'T', '0',
                     '0', ':', '0', '0', ':', '0', '0', '.', '0', '0', '0', 'Z'};
  };
  thread_local Cache cache;
  const int64_t second = time_ms >= 0 ? time_ms / 1000 : (time_ms - 999) / 1000;
  if (second != cache.second) {
    const std::time_t seconds = static_cast<std::time_t>(second);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    put_digits(cache.text, std::clamp(tm.tm_year + 1900, 0, 9999), 4);
    put_digits(cache.text + 5, tm.tm_mon + 1, 2);
    put_digits(cache.text + 8, tm.tm_mday, 2);
    put_digits(cache.text + 11, tm.tm_hour, 2);
    put_digits(cache.text + 14, tm.tm_min, 2);
    put_digits(cache.text + 17, tm.tm_sec, 2);
    cache.second = second;
  }
  put_digits(cache.text + 20, static_cast<int>(time_ms - second * 1000), 3);
  return std::string_view(cache.text, sizeof cache.text);
}

}  // namespace

void AccessLog::write(const AccessLogEntry& e) const {
  if (!sink_) return;
  // The path only: a query string could carry anything a client typed.
  std::string_view path = e.target.substr(0, e.target.find('?'));
  if (path.size() > 256) path = path.substr(0, 256);

  // A client that pastes its key into a URL must not have it logged: keep the 12-character
  // prefix (what `keys list` shows) and redact the rest.
  std::string redacted;
  for (std::string_view marker : {"tc_live_", "tc_test_"}) {
    for (size_t at = path.find(marker); at != std::string_view::npos;
         at = path.find(marker, at + 1)) {
      if (redacted.empty()) redacted.assign(path);
      size_t end = at + marker.size();
      while (end < redacted.size() && std::isalnum(static_cast<unsigned char>(redacted[end])))
        ++end;
      if (end > at + 12) redacted.replace(at + 12, end - (at + 12), "[redacted]");
      path = redacted;
    }
  }

  thread_local std::string line;  // its capacity is reused: no allocation per line
  line.clear();
  JsonWriter w(line);
  w.begin_object().field("time", time_text(e.time_ms)).field("request_id", e.request_id);
  w.field("key_prefix", e.key_prefix).field("method", e.method.substr(0, 16));
  w.field("path", path).field("status", e.status).field("latency_us", e.latency_us);
  w.end_object();
  line += '\n';
  sink_->append(line);  // the one place a line leaves: whole, never interleaved
}

}  // namespace toolcalc::api
