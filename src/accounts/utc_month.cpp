#include "accounts/utc_month.hpp"

#include <chrono>
#include <cstdio>

namespace toolcalc::accounts {
namespace {

using namespace std::chrono;

int64_t epoch_s_of(const year_month_day& ymd) {
  return sys_seconds(sys_days(ymd)).time_since_epoch().count();
}

}  // namespace

std::string UtcMonth::period() const {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u", year, month);
  return buf;
}

UtcMonth utc_month_of(int64_t epoch_s) {
  const auto day = floor<days>(sys_seconds(seconds(epoch_s)));
  const year_month_day ymd(day);
  const year_month first = ymd.year() / ymd.month();
  const year_month next = first + months(1);
  UtcMonth m;
  m.year = static_cast<int>(ymd.year());
  m.month = static_cast<unsigned>(ymd.month());
  m.start_s = epoch_s_of(first / 1);
  m.end_s = epoch_s_of(next / 1);
  return m;
}

const UtcMonthText& utc_month_text(int64_t epoch_s) {
  thread_local UtcMonthText cached{UtcMonth{}, {}, {}};
  thread_local bool valid = false;
  if (!valid || epoch_s < cached.month.start_s || epoch_s >= cached.month.end_s) {
    cached.month = utc_month_of(epoch_s);
    cached.period = cached.month.period();
    cached.resets_at = iso8601_utc(cached.month.end_s);
    valid = true;
  }
  return cached;
}

std::string iso8601_utc(int64_t epoch_s) {
  const sys_seconds t{seconds(epoch_s)};
  const auto day = floor<days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss hms(t - day);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  return buf;
}

}  // namespace toolcalc::accounts
