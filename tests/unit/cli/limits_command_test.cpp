// `toolcalc limits`: the constants and the settings' defaults and ranges the documents are
// checked against (scripts/check_doc_limits.py), as the code has them.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "api/limits.hpp"
#include "api/sweep_request.hpp"
#include "cli/commands.hpp"
#include "cli/service_config.hpp"

using namespace toolcalc;
namespace json = boost::json;

TEST(LimitsCommand, ListsTheConstantsAndTheBuiltInPlans) {
  const json::object limits = json::parse(cli::limits_json()).as_object();
  EXPECT_EQ(limits.at("kBodyLimitBytes").to_number<int64_t>(),
            static_cast<int64_t>(api::kBodyLimitBytes));
  EXPECT_EQ(limits.at("kMaxPageSize").to_number<int64_t>(), api::kMaxPageSize);
  EXPECT_EQ(limits.at("kSweepMaxPoints").to_number<int64_t>(), api::kSweepMaxPoints);
  EXPECT_EQ(limits.at("kAlertThresholdsPct[2]").to_number<int64_t>(), 100);
  EXPECT_EQ(limits.at("plans.pro.monthly_quota").to_number<int64_t>(), 100'000);
  EXPECT_FALSE(limits.contains("plans.anonymous.monthly_quota"));
}

// Every setting the config accepts has a row: its default as the loaded config has it, and
// an integer's range as the parser enforces it.
TEST(LimitsCommand, EverySettingWithItsDefaultAndRange) {
  const json::object limits = json::parse(cli::limits_json()).as_object();
  const auto facts = cli::setting_facts();
  EXPECT_EQ(facts.size(), 34u);
  for (const auto& f : facts) {
    ASSERT_TRUE(limits.contains(f.name)) << f.name;
    EXPECT_EQ(limits.at(f.name), json::parse(f.default_json)) << f.name;
    EXPECT_EQ(limits.contains(f.name + ".max"), f.max.has_value()) << f.name;
  }
  const cli::ServiceConfig defaults = cli::load_service_config(std::nullopt, {});
  EXPECT_EQ(limits.at("store.key_refresh_ms").to_number<int64_t>(),
            defaults.key_refresh_interval_ms);
  EXPECT_EQ(limits.at("store.key_refresh_ms.min").to_number<int64_t>(), 100);
  EXPECT_EQ(limits.at("store.key_refresh_ms.max").to_number<int64_t>(), 2000);
  EXPECT_EQ(limits.at("server.listen").as_string(), "0.0.0.0:8080");
  EXPECT_EQ(limits.at("store.acknowledge_after_commit").as_bool(), true);
  EXPECT_EQ(limits.at("server.mcp_allowed_origins").as_array().size(), 0u);
  EXPECT_EQ(limits.at("alerts.retry_max_ms").to_number<int64_t>(), defaults.alerts_retry_max_ms);
  // The range the parser refuses outside of is the row's.
  EXPECT_THROW(cli::load_service_config(std::nullopt, {{"TOOLCALC_STORE_KEY_REFRESH_MS", "2001"}}),
               std::runtime_error);
  EXPECT_EQ(cli::load_service_config(std::nullopt, {{"TOOLCALC_STORE_KEY_REFRESH_MS", "2000"}})
                .key_refresh_interval_ms,
            2000);
}
