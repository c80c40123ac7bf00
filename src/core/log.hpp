#pragma once
// Operational log lines: one JSON object per line on stderr, {"time","level","msg",…},
// the same shape as the access log, written with one write(2) each so that lines from
// different threads never interleave. Never pass a key, a key hash or a request body.
#include <initializer_list>
#include <optional>
#include <string_view>

namespace toolcalc::log {

enum class Level { Debug, Info, Warn, Error };

struct Field {
  std::string_view key;
  std::string_view value;
};

// Lines below `level` are not written (default Info).
void set_min_level(Level level);
bool enabled(Level level);
// "debug", "info", "warn", "error" (--log-level, server.log_level); nullopt otherwise.
std::optional<Level> parse_level(std::string_view name);

// False when the line could not be written (dropped whole: core/line_writer.hpp); true
// when written or below the minimum level.
bool write(Level level, std::string_view msg, std::initializer_list<Field> fields = {});

inline void error(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::Error, msg, fields);
}
inline void warn(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::Warn, msg, fields);
}
inline void info(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::Info, msg, fields);
}
inline void debug(std::string_view msg, std::initializer_list<Field> fields = {}) {
  write(Level::Debug, msg, fields);
}

}  // namespace toolcalc::log
