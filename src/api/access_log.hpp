#pragma once
// One JSON line per response: time, request id, key prefix, method, path, status,
// latency. Never a key, a hash, a query string or a body. Lines go to a LineBuffer
// (core/line_buffer.hpp), which writes them in batches: a line costs a copy into memory,
// not a system call (docs/performance.md, "The access log's cost").
#include <cstdint>
#include <string_view>

#include "core/line_buffer.hpp"

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

// The buffer's batches go out whole with one write(2), or their lines are dropped whole
// and counted when the log's disk is full (the serve command writes them through
// core/line_writer.hpp).
class AccessLog {
 public:
  explicit AccessLog(LineBuffer* sink) : sink_(sink) {}  // nullptr: disabled
  void write(const AccessLogEntry& entry) const;
  bool enabled() const { return sink_ != nullptr; }

 private:
  LineBuffer* sink_;
};

}  // namespace toolcalc::api
