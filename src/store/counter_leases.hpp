#pragma once
// Units of a shared counter that Redis granted to one server thread ahead of need (a
// lease, in the manner of Google's Doorman), served on that thread without running the
// counter's script. One book per thread and Redis client (redis_counters.cpp). Why the
// limits stay exact and what the leases trade: docs/deploy.md, "Leases".
#include <cstdint>
#include <string>
#include <unordered_map>

namespace toolcalc::store {

// Limits below this are counted unit by unit in Redis. A lease is at most a tenth of a
// limit, so below 1,000 it saves few calls, and a key refused up to 10 % early shows at
// such limits (a key of 30 a minute refused at 27).
inline constexpr int64_t kMinLeasedLimit = 1000;

struct Lease {
  int64_t limit = 0;  // the limit its units were granted under
  int64_t left = 0;   // granted, not served yet
  int64_t count = 0;  // the counter after the last grant: "used" is count - left
  int64_t epoch = 0;  // the window's start (s) or the month's index
  bool month = false;
  bool refilling = false;  // a grant is on its way: no second one before it is back
  // Units abandoned under an older limit stay recorded as this holder's in the window's
  // hash; a new grant would replace that record, so the window is served unit by unit.
  bool no_refill = false;
};

class LeaseBook {
 public:
  // The lease of `counter` (a window's or a month's key) under `limit`. A lease granted
  // under another limit is given up: its units are not served under a limit they were
  // not granted under.
  Lease& at(const std::string& counter, int64_t limit, int64_t epoch, bool month) {
    auto [it, added] = leases_.try_emplace(counter);
    Lease& l = it->second;
    if (added) {
      ++version_;
      l.limit = limit;
      l.epoch = epoch;
      l.month = month;
      int64_t& newest = month ? newest_month_ : newest_window_;
      if (epoch > newest) {
        newest = epoch;
        drop_older_than(epoch, month);
      }
    } else if (l.limit != limit) {
      if (l.left > 0 && !month) l.no_refill = true;
      l.left = 0;
      l.limit = limit;
    }
    return l;
  }

  // The lease of `counter` when the book still holds it (a grant's reply may come back
  // after its window was dropped).
  Lease* find(const std::string& counter) {
    auto it = leases_.find(counter);
    return it == leases_.end() ? nullptr : &it->second;
  }

  size_t size() const { return leases_.size(); }
  // Moves whenever a lease is added or dropped: a Lease* (or its absence) found under one
  // version holds while the version does.
  uint64_t version() const { return version_; }

 private:
  // Windows before `epoch` (or months, for a month lease) are over: their units can no
  // longer be served. Run once per new window or month, so the book holds about one
  // window and one month per subject this thread serves.
  void drop_older_than(int64_t epoch, bool month) {
    for (auto it = leases_.begin(); it != leases_.end();) {
      if (it->second.month == month && it->second.epoch < epoch)
        it = leases_.erase(it);
      else
        ++it;
    }
    ++version_;
  }

  std::unordered_map<std::string, Lease> leases_;
  uint64_t version_ = 0;
  int64_t newest_window_ = 0, newest_month_ = 0;
};

}  // namespace toolcalc::store
