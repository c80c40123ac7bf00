// `toolcalc limits` (not listed in --help): the limits the service enforces and the
// settings' defaults and ranges, as one JSON object of name → value, read from the
// constants themselves. scripts/check_doc_limits.py (the ctest test `doc_limits`) holds
// every limit the documents state to it.
#include <iostream>
#include <iterator>
#include <string>

#include "accounts/api_key.hpp"
#include "accounts/group_commit.hpp"
#include "accounts/host_resolver.hpp"
#include "accounts/key_admin.hpp"
#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "accounts/quota_alerts.hpp"
#include "accounts/rate_window.hpp"
#include "analysis/solve.hpp"
#include "analysis/statistics.hpp"
#include "analysis/tolerance.hpp"
#include "api/admin_guard.hpp"
#include "api/limits.hpp"
#include "api/sweep_request.hpp"
#include "catalog/analysis_costs.hpp"
#include "catalog/json_body.hpp"
#include "cli/admin_token.hpp"
#include "cli/commands.hpp"
#include "cli/service_config.hpp"
#include "core/json_writer.hpp"
#include "core/secret_redaction.hpp"
#include "store/account_store.hpp"
#include "store/counter_leases.hpp"

namespace toolcalc::cli {

std::string limits_json() {
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  const auto constant = [&w](std::string_view name, int64_t value) { w.key(name).integer(value); };
  // api/limits.hpp
  constant("kHeaderLimitBytes", static_cast<int64_t>(api::kHeaderLimitBytes));
  constant("kBodyLimitBytes", static_cast<int64_t>(api::kBodyLimitBytes));
  constant("kDefaultPageSize", api::kDefaultPageSize);
  constant("kMaxPageSize", api::kMaxPageSize);
  constant("kMaxPage", api::kMaxPage);
  constant("kEvaluationsPerQuotaUnit", api::kEvaluationsPerQuotaUnit);
  constant("kAnalysisQueuePerThread", api::kAnalysisQueuePerThread);
  constant("kMaxNameLength", static_cast<int64_t>(api::kMaxNameLength));
  // api/sweep_request.hpp, api/admin_guard.hpp
  constant("kSweepMinPoints", api::kSweepMinPoints);
  constant("kSweepMaxPoints", api::kSweepMaxPoints);
  constant("kSweepSignificantDigits", api::kSweepSignificantDigits);
  constant("AdminGuard::kMaxFailures", api::AdminGuard::kMaxFailures);
  constant("AdminGuard::kWindowSeconds", api::AdminGuard::kWindowSeconds);
  constant("AdminGuard::kMaxAddresses", static_cast<int64_t>(api::AdminGuard::kMaxAddresses));
  // analysis/
  constant("kMaxToleranced", analysis::kMaxToleranced);
  constant("kMinSamples", analysis::kMinSamples);
  constant("kMaxSamples", analysis::kMaxSamples);
  constant("kDefaultSamples", analysis::kDefaultSamples);
  constant("kMaxSeed", static_cast<int64_t>(analysis::kMaxSeed));
  constant("kSolveEvaluationBudget", analysis::kSolveEvaluationBudget);
  constant("kMaxSolutions", static_cast<int64_t>(analysis::kMaxSolutions));
  constant("kMaxHistogramBins", analysis::kMaxHistogramBins);
  // catalog/, store/, core/
  constant("kMaxAnalysisCostClass", catalog::kMaxAnalysisCostClass);
  constant("kMaxJsonDepth", catalog::kMaxJsonDepth);
  constant("kMaxMemberNameBytes", static_cast<int64_t>(catalog::kMaxMemberNameBytes));
  constant("kHistoryMonths", store::kHistoryMonths);
  constant("kMinLeasedLimit", store::kMinLeasedLimit);
  constant("kMaxPercentLayers", kMaxPercentLayers);
  // accounts/
  constant("kKeyLength", static_cast<int64_t>(accounts::kKeyLength));
  constant("kKeyRandomChars", static_cast<int64_t>(accounts::kKeyRandomChars));
  constant("kKeyPrefixLength", static_cast<int64_t>(accounts::kKeyPrefixLength));
  constant("kWebhookSecretRandomChars", static_cast<int64_t>(accounts::kWebhookSecretRandomChars));
  constant("kMaxLabelLength", static_cast<int64_t>(accounts::kMaxLabelLength));
  constant("kMaxRatePerMinute", accounts::kMaxRatePerMinute);
  constant("kMaxMonthlyQuota", accounts::kMaxMonthlyQuota);
  constant("kDefaultRotationGraceS", accounts::kDefaultRotationGraceS);
  constant("kMaxRotationGraceS", accounts::kMaxRotationGraceS);
  constant("kRateWindowSeconds", accounts::kRateWindowSeconds);
  constant("kGroupCommitGatherUs", accounts::kGroupCommitGather.count());
  for (size_t i = 0; i < std::size(accounts::kAlertThresholdsPct); ++i)
    constant("kAlertThresholdsPct[" + std::to_string(i) + "]", accounts::kAlertThresholdsPct[i]);
  // cli/
  constant("kMinAdminTokenLength", static_cast<int64_t>(kMinAdminTokenLength));
  constant("kMaxResolutionsUnderWay", static_cast<int64_t>(accounts::kMaxResolutionsUnderWay));
  // The built-in plans: plans.NAME.rate_per_minute, plans.NAME.monthly_quota.
  for (const auto& plan : accounts::builtin_plans()) {
    constant("plans." + plan.name + ".rate_per_minute", plan.rate_per_minute);
    if (plan.monthly_quota) constant("plans." + plan.name + ".monthly_quota", *plan.monthly_quota);
  }
  // Settings: section.key (the default), section.key.min and section.key.max.
  for (const auto& s : setting_facts()) {
    w.key(s.name).raw(s.default_json);
    if (s.min) constant(s.name + ".min", *s.min);
    if (s.max) constant(s.name + ".max", *s.max);
  }
  w.end_object();
  out += '\n';
  return out;
}

void add_limits_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "limits", "Print the limits and the settings' defaults the documents state (JSON)");
  cmd->group("");  // for scripts/check_doc_limits.py, not for operators
  cmd->callback([] { std::cout << limits_json() << std::flush; });
}

}  // namespace toolcalc::cli
