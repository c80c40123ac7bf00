// KeyAdmin (what `toolcalc keys` and the admin API share) over the embedded store, and
// what Accounts makes of its changes: rotation with a grace period on a clock the test
// moves, per-key limits, the usage history and its retention.
#include "accounts/key_admin.hpp"

#include <gtest/gtest.h>

#include "accounts/accounts.hpp"
#include "accounts/api_key.hpp"
#include "accounts/plans.hpp"
#include "accounts/usage_history.hpp"
#include "support/counting_calls.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using namespace toolcalc::accounts;
using accounts::testing::new_key;
using accounts::testing::reserve;
using accounts::testing::take_rate_unit;
using accounts::testing::TempDir;
using accounts::testing::utc_ms;
using std::chrono::milliseconds;

namespace {

const int64_t kNow = utc_ms(2026, 11, 30, 12, 0, 0);

std::vector<Plan> test_plans() {
  auto plans = builtin_plans();
  plans.push_back({"tiny", 3, 2});
  return plans;
}

std::string bearer(const std::string& key) {
  return "Bearer " + key;
}

struct Fixture {
  TempDir tmp;
  ManualClock clock{kNow};
  std::vector<Plan> plans = test_plans();
  std::unique_ptr<store::AccountStore> admin_store = store::open_sqlite_store(tmp.path());
  KeyAdmin admin{*admin_store, plans, clock};
  Accounts accounts{clock,
                    {.store = store::open_sqlite_store(tmp.path()),
                     .plans = plans,
                     .flush_interval = milliseconds(50),
                     .key_refresh_interval = milliseconds(50)}};
};

}  // namespace

TEST(ParseGrace, DurationsAndRefusals) {
  EXPECT_EQ(parse_grace("0"), 0);
  EXPECT_EQ(parse_grace("30s"), 30);
  EXPECT_EQ(parse_grace("90m"), 5400);
  EXPECT_EQ(parse_grace("24h"), 86400);
  EXPECT_EQ(parse_grace("30d"), 30 * 86400);
  for (const char* bad : {"", "24", "1w", "-1h", "31d", "h", "1.5h", "1h30m", " 1h"}) {
    try {
      parse_grace(bad);
      ADD_FAILURE() << bad;
    } catch (const KeyRequestError& e) {
      EXPECT_EQ(e.field(), "grace") << bad;
    }
  }
}

TEST(KeyAdmin, CreateChecksEverySettingBeforeWriting) {
  Fixture f;
  KeySettings s;
  EXPECT_THROW(f.admin.create(s), KeyRequestError);  // no plan
  s.plan = "gold";
  EXPECT_THROW(f.admin.create(s), UnknownPlan);
  s.plan = "pro";
  s.rate_per_minute = LimitSetting{0};
  EXPECT_THROW(f.admin.create(s), KeyRequestError);
  s.rate_per_minute.reset();
  s.monthly_quota = LimitSetting{-1};
  EXPECT_THROW(f.admin.create(s), KeyRequestError);
  s.monthly_quota.reset();
  s.label = std::string(101, 'x');
  EXPECT_THROW(f.admin.create(s), KeyRequestError);
  s.label = "ok";
  s.webhook_url = "ftp://example.com";
  try {
    f.admin.create(s);
    FAIL();
  } catch (const KeyRequestError& e) {
    EXPECT_EQ(e.field(), "webhook_url");
  }
  EXPECT_TRUE(f.admin.list().empty());

  s.webhook_url = "https://hooks.example.com/a";
  s.monthly_quota = LimitSetting{5};
  const CreatedKey c = f.admin.create(s);
  EXPECT_TRUE(is_well_formed_key(c.key));
  EXPECT_EQ(c.webhook_secret.size(), 38u);
  EXPECT_TRUE(c.webhook_secret.starts_with("whsec_"));
  EXPECT_EQ(c.view.prefix, c.key.substr(0, 12));
  EXPECT_EQ(c.view.limits.rate_per_minute, 600);
  EXPECT_FALSE(c.view.limits.rate_from_key);
  EXPECT_EQ(c.view.limits.monthly_quota, 5);
  EXPECT_TRUE(c.view.limits.quota_from_key);
  EXPECT_EQ(c.view.webhook_url, "https://hooks.example.com/a");
  EXPECT_EQ(c.view.period, "2026-11");
}

TEST(KeyAdmin, RotationKeepsUsageAndTheOldSecretEndsWithItsGrace) {
  Fixture f;
  KeySettings s;
  s.plan = "pro";
  s.label = "rotating";
  const CreatedKey c = f.admin.create(s);
  f.accounts.refresh_keys(true);
  AuthResult old_auth = f.accounts.authenticate(bearer(c.key), "1.2.3.4");
  ASSERT_EQ(old_auth.status, AuthStatus::Ok);
  ASSERT_TRUE(reserve(f.accounts, old_auth.caller, 3).allowed);

  const RotatedKey r = f.admin.rotate(c.view.prefix, 60);
  EXPECT_EQ(r.key.substr(0, 12), c.view.prefix);
  EXPECT_NE(r.key, c.key);
  EXPECT_EQ(r.previous_expires_epoch_s, kNow / 1000 + 60);
  EXPECT_EQ(r.view.previous_secret_expires_epoch_s, kNow / 1000 + 60);
  f.accounts.refresh_keys();
  const AuthResult new_auth = f.accounts.authenticate(bearer(r.key), "1.2.3.4");
  ASSERT_EQ(new_auth.status, AuthStatus::Ok);
  EXPECT_EQ(new_auth.caller.key_id, old_auth.caller.key_id);
  EXPECT_EQ(new_auth.caller.label, "rotating");
  EXPECT_EQ(f.accounts.quota_status(new_auth.caller).used, 3);
  EXPECT_EQ(f.accounts.authenticate(bearer(c.key), "1.2.3.4").status, AuthStatus::Ok);

  // The grace ends without a reload: the clock alone refuses the old secret.
  f.clock.advance_ms(59'000);
  EXPECT_EQ(f.accounts.authenticate(bearer(c.key), "1.2.3.4").status, AuthStatus::Ok);
  f.clock.advance_ms(1'000);
  EXPECT_EQ(f.accounts.authenticate(bearer(c.key), "1.2.3.4").status, AuthStatus::Invalid);
  EXPECT_EQ(f.accounts.authenticate(bearer(r.key), "1.2.3.4").status, AuthStatus::Ok);

  EXPECT_THROW(f.admin.rotate("tc_live_ZZZZ", 0), KeyNotFound);
  EXPECT_THROW(f.admin.rotate("nonsense", 0), KeyNotFound);
  EXPECT_THROW(f.admin.rotate(c.view.prefix, 31 * 86400), KeyRequestError);
  ASSERT_EQ(f.admin.revoke(c.view.prefix), store::RevokeOutcome::Revoked);
  EXPECT_THROW(f.admin.rotate(c.view.prefix, 0), KeyRevoked);
}

TEST(KeyAdmin, PerKeyLimitsReachTheCaller) {
  Fixture f;
  KeySettings s;
  s.plan = "tiny";
  const CreatedKey c = f.admin.create(s);
  KeySettings u;
  u.rate_per_minute = LimitSetting{50};
  u.monthly_quota = LimitSetting{1};
  const UpdatedKey updated = f.admin.update(c.view.prefix, u);
  EXPECT_TRUE(updated.webhook_secret.empty());
  EXPECT_EQ(updated.view.limits.rate_per_minute, 50);
  f.accounts.refresh_keys(true);
  const Caller caller = f.accounts.authenticate(bearer(c.key), "1.2.3.4").caller;
  EXPECT_EQ(caller.plan.name, "tiny");
  EXPECT_EQ(caller.plan.rate_per_minute, 50);
  EXPECT_EQ(caller.plan.monthly_quota, 1);
  EXPECT_TRUE(caller.rate_from_key);
  EXPECT_TRUE(caller.quota_from_key);
  EXPECT_EQ(take_rate_unit(f.accounts, caller).limit, 50);
  EXPECT_TRUE(reserve(f.accounts, caller, 1).allowed);
  EXPECT_FALSE(reserve(f.accounts, caller, 1).allowed);

  KeySettings back;
  back.plan = "pro";
  back.rate_per_minute = LimitSetting{};
  EXPECT_EQ(f.admin.update(c.view.prefix, back).view.plan, "pro");
  f.accounts.refresh_keys();
  const Caller after = f.accounts.authenticate(bearer(c.key), "1.2.3.4").caller;
  EXPECT_EQ(after.plan.rate_per_minute, 600);
  EXPECT_FALSE(after.rate_from_key);
  EXPECT_EQ(after.plan.monthly_quota, 1);
  EXPECT_TRUE(after.quota_from_key);

  KeySettings hook;
  hook.webhook_url = "https://hooks.example.com/b";
  const UpdatedKey with_hook = f.admin.update(c.view.prefix, hook);
  EXPECT_TRUE(with_hook.webhook_secret.starts_with("whsec_"));
  f.accounts.refresh_keys();
  const auto watched = f.accounts.webhook_keys();
  ASSERT_EQ(watched.size(), 1u);
  EXPECT_EQ(watched[0].secret, with_hook.webhook_secret);
  EXPECT_EQ(watched[0].monthly_quota, 1);
  EXPECT_THROW(f.admin.update("tc_live_ZZZZ", hook), KeyNotFound);
}

TEST(UsageHistory, CountsPerDayAndFlushesWithTheUsage) {
  Fixture f;
  KeySettings s;
  s.plan = "pro";
  const CreatedKey c = f.admin.create(s);
  f.accounts.refresh_keys(true);
  const Caller caller = f.accounts.authenticate(bearer(c.key), "1.2.3.4").caller;
  f.accounts.record_usage(caller, "iot-mcu", "mcu-deep-sleep-battery", 200, 1);
  f.accounts.record_usage(caller, "iot-mcu", "mcu-deep-sleep-battery", 200, 4);
  f.accounts.record_usage(caller, "iot-mcu", "mcu-deep-sleep-battery", 422, 0);
  f.accounts.record_usage(Caller{}, "iot-mcu", "mcu-deep-sleep-battery", 200, 1);  // anonymous
  const int32_t today = utc_day_of(kNow / 1000);
  auto rows = f.accounts.usage_history(caller, today, today + 1);  // pending, not flushed
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].metric, store::kHistoryExecutions);
  EXPECT_EQ(rows[0].count, 2);
  EXPECT_EQ(rows[1].metric, store::kHistoryUnits);
  EXPECT_EQ(rows[1].count, 5);
  EXPECT_EQ(rows[2].metric, 422);
  f.accounts.flush_usage();
  EXPECT_EQ(
      store::open_sqlite_store(f.tmp.path())->load_history(caller.key_id, today, today + 1).size(),
      3u);
  f.accounts.record_usage(caller, "iot-mcu", "mcu-deep-sleep-battery", 200, 1);
  rows = f.accounts.usage_history(caller, today, today + 1);  // stored + pending, summed
  EXPECT_EQ(rows[0].count, 3);
  EXPECT_EQ(rows[1].count, 6);
}

TEST(UsageHistory, ThirteenMonthsAreKept) {
  TempDir tmp;
  ManualClock clock(utc_ms(2025, 11, 15, 0, 0, 0));
  const auto plans = test_plans();
  auto store = store::open_sqlite_store(tmp.path());
  const int64_t id = *store->create_key(new_key("tc_live_AAAA", 'a', "pro"));
  const int32_t nov_2025 = utc_day_of(clock.now_s());
  store->add_usage({}, {{id, nov_2025, "a/b", store::kHistoryExecutions, 1}});
  {
    // A start-up in 2026-11 keeps 2025-11 (the 13th month back) …
    clock.set_ms(utc_ms(2026, 11, 30, 0, 0, 0));
    Accounts acc(clock, {.store = store::open_sqlite_store(tmp.path()),
                         .plans = plans,
                         .flush_interval = milliseconds(50),
                         .key_refresh_interval = milliseconds(50)});
    EXPECT_EQ(store->load_history(id, nov_2025, nov_2025 + 1).size(), 1u);
  }
  // … one in 2026-12 drops it.
  clock.set_ms(utc_ms(2026, 12, 1, 0, 0, 0));
  Accounts acc(clock, {.store = store::open_sqlite_store(tmp.path()),
                       .plans = plans,
                       .flush_interval = milliseconds(50),
                       .key_refresh_interval = milliseconds(50)});
  EXPECT_TRUE(store->load_history(id, nov_2025, nov_2025 + 1).empty());
}

TEST(KeyAdmin, AWebhookURLOnASpecialPurposeAddressIsRefusedUnlessAllowListed) {
  Fixture f;
  KeySettings s;
  s.plan = "pro";
  for (const char* url :
       {"http://127.0.0.1:8080/h", "http://127.1/h", "http://0x7f000001/h", "http://2130706433/h",
        "http://0.0.0.0/h", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/h",
        "http://172.16.0.1/h", "http://192.168.1.1/h", "http://[::1]/h", "http://[::]/h",
        "http://[fe80::1]/h", "http://[fd00::1]/h", "http://[::ffff:127.0.0.1]/h",
        "http://[::ffff:169.254.169.254]/h", "https://localhost/h", "https://x.localhost/h"}) {
    s.webhook_url = url;
    try {
      f.admin.create(s);
      ADD_FAILURE() << url;
    } catch (const KeyRequestError& e) {
      EXPECT_EQ(e.field(), "webhook_url") << url;
      EXPECT_TRUE(std::string(e.what()).starts_with("the receiver is refused: ")) << e.what();
    }
  }
  EXPECT_TRUE(f.admin.list().empty());
  s.webhook_url = "https://hooks.example.com/a";
  const CreatedKey c = f.admin.create(s);
  KeySettings change;
  change.webhook_url = "http://2130706433/h";
  EXPECT_THROW(f.admin.update(c.view.prefix, change), KeyRequestError);

  KeyAdmin allowing{*f.admin_store, f.plans, f.clock,
                    ReceiverPolicy({*parse_ip_range("127.0.0.0/8")})};
  EXPECT_FALSE(allowing.update(c.view.prefix, change).webhook_secret.empty());
  change.webhook_url = "http://169.254.169.254/";
  EXPECT_THROW(allowing.update(c.view.prefix, change), KeyRequestError);
}
