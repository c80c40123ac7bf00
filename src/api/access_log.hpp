#pragma once
// One JSON line per response: time, request id, key prefix, method, path, status,
// latency. Never a key, a hash, a query string or a body.
#include <cstdint>
#include <string_view>

#include "core/line_writer.hpp"

namespace toolcalc::api {

struct AccessLogEntry {
  int64_t time_ms = 0;  // Unix epoch ms, UTC
  std::string_view request_id;
  std::string_view key_prefix;  // "" when anonymous
  std::string_view method;
  std::string_view target;  // the query string is dropped before writing
  int status = 0;
  int64_t latency_us = 0;
};

// Each line goes out whole with one write(2), or is dropped whole and counted when the
// log's disk is full (core/line_writer.hpp).
class AccessLog {
 public:
  explicit AccessLog(LineWriter* sink) : sink_(sink) {}  // nullptr: disabled
  void write(const AccessLogEntry& entry) const;
  bool enabled() const { return sink_ != nullptr; }

 private:
  LineWriter* sink_;
};

}  // namespace toolcalc::api
