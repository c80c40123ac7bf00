#pragma once
// The script that decides rate steps in Redis (kTakeRateSteps) and how a call of it is
// built and its reply read: what redis_counters.cpp sends for the steps of a turn, and the
// blocking calls for one step.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/redis_client.hpp"
#include "store/shared_counters.hpp"

namespace toolcalc::store {

// A window's counter lives two windows: long enough for instances whose clocks differ by
// a few seconds to still share it, short enough that memory holds about one minute of
// subjects.
inline constexpr int64_t kRateKeyTtlS = 120;

// A month's granted counter outlives its month (a UTC month is at most 31 days).
inline constexpr int64_t kGrantedKeyTtlS = 40 * 86400;

extern const RedisScript kTakeRateSteps;

// The keys and arguments of a kTakeRateSteps call. A step identical to the one before it
// (same window, quota counter, mode and limits: at many connections of one key, nearly
// every step of a turn) adds a unit to that one instead: the script decides it exactly as
// the next step in a row, so the replies are what separate steps would get. A lease
// asked by either goes with the merged step (its units first, then the lease).
struct RateSteps {
  std::vector<std::string> keys;  // 4 per step
  // The holder and the granted counters' ttl, then 7 per step.
  std::vector<std::string> args{std::string(), std::to_string(kGrantedKeyTtlS)};
  std::vector<int64_t> units;

  // Where a step's reply is read: the step of the call, and the unit within it.
  struct Place {
    size_t step = 0;
    int64_t unit = 0;
  };

  // A step; `lease_window` and `month_lease_cap` (> 0) ask for leases (counter_leases.hpp).
  Place add(std::string_view subject, int64_t window_start_s, int64_t rate_limit, int64_t key_id,
            std::string_view period, std::optional<int64_t> quota_limit, bool reserve = true,
            bool lease_window = false, int64_t month_lease_cap = 0);

  // Writes the holder and each step's units into the arguments, before the call is sent.
  void finish(const std::string& holder = {});
};

// The figures of step `step` of a kTakeRateSteps reply (seven per step).
struct StepFigures {
  int64_t rate_granted, rate_before, window_lease, quota_granted, quota_before, month_granted,
      month_lease;
};

StepFigures step_figures(const RedisValue& v, size_t step);

// Unit `at.unit` of step `at.step` of a kTakeRateSteps reply (the quota's half left empty
// without a quota): the units of a step are decided in order, so unit j is granted while
// j < the units granted, and its count is the count before plus j + 1. A refused unit
// reports the count that refused it: the window's, or the month's granted units.
RateAndQuotaStep merged_step_result(const RedisValue& v, RateSteps::Place at, bool with_quota);

}  // namespace toolcalc::store
