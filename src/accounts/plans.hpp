#pragma once
// Plans: built-in defaults, overridden or extended by `[plans.NAME]`
// tables of the config file.
#include <cstdint>
#include <string_view>
#include <vector>

#include "accounts/access_control.hpp"

namespace toml {
inline namespace v3 {
class table;
}
}  // namespace toml

namespace toolcalc::accounts {

inline constexpr std::string_view kAnonymousPlan = "anonymous";
// The highest rate_per_minute of a plan ([plans.NAME]) or of a key's own limit.
inline constexpr int64_t kMaxRatePerMinute = 100'000'000;

// free 60/min 1,000/month; pro 600/min 100,000/month; business 6,000/min 5,000,000/month;
// anonymous 60/min per client IP, no monthly quota.
std::vector<Plan> builtin_plans();

// Applies `[plans.NAME]` tables (rate_per_minute, monthly_quota) of `root` on top of the
// built-in plans. Throws std::runtime_error naming the plan and field on a bad value.
std::vector<Plan> plans_from_config(const toml::table& root);

const Plan* find_plan(const std::vector<Plan>& plans, std::string_view name);
std::string plan_names(const std::vector<Plan>& plans);  // "free, pro, business, anonymous"

}  // namespace toolcalc::accounts
