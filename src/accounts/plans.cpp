#include "accounts/plans.hpp"

#include <toml++/toml.h>
#include <stdexcept>
#include <string>

namespace toolcalc::accounts {

std::vector<Plan> builtin_plans() {
  return {
      {"free", 60, 1'000},
      {"pro", 600, 100'000},
      {"business", 6'000, 5'000'000},
      // Unauthenticated discovery calls, counted per client IP; never executes tools.
      {std::string(kAnonymousPlan), 60, std::nullopt},
  };
}

std::vector<Plan> plans_from_config(const toml::table& root) {
  std::vector<Plan> plans = builtin_plans();
  const toml::table* section = root["plans"].as_table();
  if (!section) return plans;
  for (const auto& [name_key, node] : *section) {
    const std::string name(name_key.str());
    const toml::table* t = node.as_table();
    if (!t) throw std::runtime_error("config: [plans." + name + "] must be a table");
    Plan* plan = nullptr;
    for (auto& p : plans)
      if (p.name == name) plan = &p;
    if (!plan) {
      plans.push_back({name, 60, 1'000});
      plan = &plans.back();
    }
    for (const auto& [field_key, value] : *t) {
      const std::string field(field_key.str());
      // value_exact: value<int64_t>() also takes 60.0 and true, and casts an out-of-range
      // float to int64 (undefined behaviour in toml++ 3.3; found by fuzz_config).
      const auto number = value.value_exact<int64_t>();
      if (field == "rate_per_minute") {
        if (!number || *number < 1 || *number > kMaxRatePerMinute)
          throw std::runtime_error("config: plans." + name +
                                   ".rate_per_minute must be an integer from 1 to " +
                                   std::to_string(kMaxRatePerMinute));
        plan->rate_per_minute = *number;
      } else if (field == "monthly_quota") {
        if (!number || *number < 0)
          throw std::runtime_error("config: plans." + name +
                                   ".monthly_quota must be a non-negative integer");
        if (name == kAnonymousPlan)
          throw std::runtime_error("config: the anonymous plan has no monthly quota");
        plan->monthly_quota = *number;
      } else {
        throw std::runtime_error("config: unknown setting plans." + name + "." + field +
                                 " (expected rate_per_minute, monthly_quota)");
      }
    }
  }
  return plans;
}

const Plan* find_plan(const std::vector<Plan>& plans, std::string_view name) {
  for (const auto& p : plans)
    if (p.name == name) return &p;
  return nullptr;
}

std::string plan_names(const std::vector<Plan>& plans) {
  std::string s;
  for (const auto& p : plans) {
    if (!s.empty()) s += ", ";
    s += p.name;
  }
  return s;
}

}  // namespace toolcalc::accounts
