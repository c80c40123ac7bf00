#include "api/access_log.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <string>

#include "core/json_writer.hpp"
#include "core/secret_redaction.hpp"

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

// Writes a line into a fixed buffer: each piece a memcpy, no std::string growth checks
// (a JsonWriter's key and string calls cost about 250 instructions each; a line has 12).
class LineWriter {
  // Bytes written another way than as they are: controls, DEL, the quote, the backslash,
  // and every byte of UTF-8 (append_json_string decides what each becomes).
  static constexpr std::array<unsigned char, 256> kNeedsEscape = [] {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c) t[c] = c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
    return t;
  }();

 public:
  explicit LineWriter(char* out) : start_(out), p_(out) {}

  void literal(std::string_view s) {
    // An empty view may hold a null pointer, which memcpy may not be given even for 0 bytes.
    if (s.empty()) return;
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  // A JSON string's content (no quotes): printable ASCII as it is; anything that needs an
  // escape, or any other byte, through append_json_string (identical output, rarely used).
  void string(std::string_view s) {
    // One table load per byte, OR-ed without a branch: a line's strings are about 90 bytes,
    // and four comparisons and a branch for each cost about 400 instructions more per line
    // (session 14 in docs/history/performance-and-reliability-log.md).
    unsigned char needs = 0;
    for (const char c : s) needs |= kNeedsEscape[static_cast<unsigned char>(c)];
    if (needs) return escaped(s);
    literal(s);
  }
  void integer(int64_t v) { p_ = std::to_chars(p_, p_ + 24, v).ptr; }
  std::string_view text() const { return {start_, static_cast<size_t>(p_ - start_)}; }

  // The most bytes string(s) can write: append_json_string's longest escape is 6 bytes
  // ("\u00XX") per input byte.
  static size_t bound(std::string_view s) { return 6 * s.size() + 2; }

 private:
  void escaped(std::string_view s) {
    thread_local std::string scratch;
    scratch.clear();
    append_json_string(scratch, s);  // with its quotes
    literal(std::string_view(scratch).substr(1, scratch.size() - 2));
  }

  char* start_;
  char* p_;
};

}  // namespace

void AccessLog::write(const AccessLogEntry& e) const {
  if (!sink_) return;
  // The path only: a query string could carry anything a client typed.
  std::string_view path = e.target.substr(0, e.target.find('?'));
  if (path.size() > 256) path = path.substr(0, 256);

  // A client that pastes its key into a URL must not have it logged, however it is
  // spelled (core/secret_redaction.hpp): the 12-character prefix is kept.
  std::string redacted;
  path = without_keys(path, redacted);
  const std::string_view method = e.method.substr(0, 16);

  // The fields in a fixed order, each string escaped as JSON.
  thread_local std::string line;  // its capacity is reused: no allocation per line
  const size_t bound = 160 + LineWriter::bound(e.request_id) + LineWriter::bound(e.key_prefix) +
                       LineWriter::bound(method) + LineWriter::bound(path);
  if (line.size() < bound) line.resize(std::max<size_t>(bound, 1024));
  LineWriter w(line.data());
  w.literal(R"({"time":")");
  w.literal(time_text(e.time_ms));
  w.literal(R"(","request_id":")");
  w.string(e.request_id);
  w.literal(R"(","key_prefix":")");
  w.string(e.key_prefix);
  w.literal(R"(","method":")");
  w.string(method);
  w.literal(R"(","path":")");
  w.string(path);
  w.literal(R"(","status":)");
  w.integer(e.status);
  w.literal(R"(,"latency_us":)");
  w.integer(e.latency_us);
  w.literal("}\n");
  sink_->append(w.text());  // the one place a line leaves: whole, never interleaved
}

}  // namespace toolcalc::api
