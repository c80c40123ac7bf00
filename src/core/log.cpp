#include "core/log.hpp"

#include <atomic>
#include <chrono>
#include <ctime>
#include <string>

#include "core/json_writer.hpp"
#include "core/line_writer.hpp"
#include "core/secret_redaction.hpp"

namespace toolcalc::log {
namespace {

std::atomic<int> min_level{static_cast<int>(Level::Info)};

std::string_view level_name(Level level) {
  switch (level) {
    case Level::Debug:
      return "debug";
    case Level::Info:
      return "info";
    case Level::Warn:
      return "warn";
    case Level::Error:
      return "error";
  }
  return "info";
}

// RFC 3339 UTC with milliseconds, as the access log writes it.
std::string now_text() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t s = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[32];
  const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out(buf, n);
  char frac[8];
  std::snprintf(frac, sizeof frac, ".%03dZ", static_cast<int>(ms % 1000));
  out += frac;
  return out;
}

}  // namespace

void set_min_level(Level level) {
  min_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

std::optional<Level> parse_level(std::string_view name) {
  for (Level l : {Level::Debug, Level::Info, Level::Warn, Level::Error})
    if (level_name(l) == name) return l;
  return std::nullopt;
}

bool enabled(Level level) {
  return static_cast<int>(level) >= min_level.load(std::memory_order_relaxed);
}

bool write(Level level, std::string_view msg, std::initializer_list<Field> fields) {
  if (!enabled(level)) return true;
  std::string line;
  line.reserve(128 + msg.size());
  JsonWriter w(line);
  w.begin_object().field("time", now_text()).field("level", level_name(level));
  // Callers never pass a key, but a message or value may quote what a client sent (a path,
  // a member, an error's text): any key in it keeps only its prefix.
  std::string scratch;
  w.field("msg", without_keys(msg, scratch));
  for (const auto& f : fields) w.field(f.key, without_keys(f.value, scratch));
  w.end_object();
  line += '\n';
  // One write(2) per line: whole lines, never interleaved with another thread's, dropped
  // whole when stderr's disk is full (core/line_writer.hpp).
  return stderr_lines().write(line);
}

}  // namespace toolcalc::log
