#include "api/response.hpp"

#include <cstring>

#include "accounts/rate_window.hpp"
#include "core/decimal.hpp"

namespace toolcalc::api {
namespace {

// Appends pieces into a buffer sized beforehand: each one a memcpy, the numbers written in
// place (every response has these headers, so they cost no allocation once the buffer
// has grown).
class LineWriter {
 public:
  LineWriter(std::string& out, size_t bound) : out_(out) {
    out_.resize(bound);
    p_ = out_.data();
  }
  LineWriter& operator<<(std::string_view text) {
    std::memcpy(p_, text.data(), text.size());
    p_ += text.size();
    return *this;
  }
  LineWriter& operator<<(int64_t v) {
    number(v);
    return *this;
  }
  // Writes `v` and returns its digits in the buffer, for a line that repeats them.
  std::string_view number(int64_t v) {
    const char* const start = p_;
    p_ = write_decimal(p_, v);
    return {start, static_cast<size_t>(p_ - start)};
  }
  void finish() { out_.resize(static_cast<size_t>(p_ - out_.data())); }

 private:
  std::string& out_;
  char* p_;
};

// The names, separators and the three numbers of the X-RateLimit-* lines at their longest,
// and the RateLimit-Policy and RateLimit lines with four numbers each.
constexpr size_t kRateLinesBound = 3 * (24 + 20 + 2) + 2 * (64 + 4 * 20);
constexpr size_t kIdAndVersionOverhead = 2 * (16 + 2);

}  // namespace

void write_lead_headers(Response& response, std::string_view tool_version,
                        const std::optional<RateLimitHeaders>& rate) {
  LineWriter w(response.lead_headers, kIdAndVersionOverhead + kRateLinesBound +
                                          response.request_id.size() + tool_version.size());
  if (!response.request_id.empty()) w << "X-Request-ID: " << response.request_id << "\r\n";
  if (!tool_version.empty()) w << "X-Tool-Version: " << tool_version << "\r\n";
  if (rate) {
    // The limit and the remaining units appear twice each: written once, copied once.
    w << "X-RateLimit-Limit: ";
    const std::string_view limit = w.number(rate->limit);
    w << "\r\nX-RateLimit-Remaining: ";
    const std::string_view remaining = w.number(rate->remaining);
    w << "\r\nX-RateLimit-Reset: " << rate->reset_epoch_s << "\r\n";
    // Structured-field lists (RFC 9651): a String item per policy with Integer parameters.
    const int64_t t = rate->reset_epoch_s > rate->now_s ? rate->reset_epoch_s - rate->now_s : 0;
    static_assert(accounts::kRateWindowSeconds == 60, "w= below is the rate window");
    w << "RateLimit-Policy: \"minute\";q=" << limit << ";w=60";
    if (rate->month) w << ", \"month\";q=" << rate->month->quota << ";w=" << rate->month->window_s;
    w << "\r\nRateLimit: \"minute\";r=" << remaining << ";t=" << t;
    if (rate->month)
      w << ", \"month\";r=" << rate->month->remaining << ";t=" << rate->month->reset_s;
    w << "\r\n";
  }
  w.finish();
}

}  // namespace toolcalc::api
