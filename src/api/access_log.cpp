#include "api/access_log.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>
#include <string>

#include "core/json_writer.hpp"

namespace toolcalc::api {

void AccessLog::write(const AccessLogEntry& e) const {
  if (!sink_) return;
  const std::time_t seconds = static_cast<std::time_t>(e.time_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char time_text[64];
  std::snprintf(time_text, sizeof time_text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(e.time_ms % 1000));
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

  std::string line;
  line.reserve(256);
  JsonWriter w(line);
  w.begin_object().field("time", std::string_view(time_text)).field("request_id", e.request_id);
  w.field("key_prefix", e.key_prefix).field("method", e.method.substr(0, 16));
  w.field("path", path).field("status", e.status).field("latency_us", e.latency_us);
  w.end_object();
  line += '\n';
  sink_->write(line);
}

}  // namespace toolcalc::api
