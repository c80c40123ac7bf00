#pragma once
// Calendar months in UTC: the period a quota unit is counted in and when it resets.
#include <cstdint>
#include <string>

namespace toolcalc::accounts {

struct UtcMonth {
  int year = 1970;
  unsigned month = 1;   // 1..12
  int64_t start_s = 0;  // 00:00:00 UTC on the 1st
  int64_t end_s = 0;    // 00:00:00 UTC on the 1st of the next month

  std::string period() const;  // "YYYY-MM"
  // A number that orders months and is cheap to compare: year·12 + month − 1.
  int64_t index() const { return int64_t{year} * 12 + month - 1; }
};

UtcMonth utc_month_of(int64_t epoch_s);

// The month of `epoch_s` with its texts, from a per-thread cache that is recomputed only
// when the month changes (formatting dates on every request costs more than the limiter).
struct UtcMonthText {
  UtcMonth month;
  std::string period;     // "YYYY-MM"
  std::string resets_at;  // ISO-8601 of month.end_s
};
const UtcMonthText& utc_month_text(int64_t epoch_s);

// "2026-12-01T00:00:00Z"
std::string iso8601_utc(int64_t epoch_s);

}  // namespace toolcalc::accounts
