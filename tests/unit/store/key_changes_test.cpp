// What the stores hold for key rotation, per-key limits, webhooks, the usage history and
// quota alerts: the same tests against the embedded SQLite store and a real redis-server.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "store/account_store.hpp"
#include "store/redis_client.hpp"
#include "store/redis_keys.hpp"
#include "store/redis_store.hpp"
#include "support/redis_process.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using accounts::testing::new_key;
using accounts::testing::RedisProcess;
using accounts::testing::TempDir;

namespace {

const store::KeyRecord& only_key(const store::KeySet& set) {
  EXPECT_EQ(set.keys.size(), 1u);
  return set.keys.at(0);
}

enum class Backend { Sqlite, Redis };

// One redis-server for the binary's Redis cases, stopped at exit (a static's destructor);
// each test gets a database of its own.
RedisProcess* redis_server() {
  static RedisProcess server;
  static const bool started = server.start();
  return started ? &server : nullptr;
}

class StoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::Redis) {
      if (!redis_server()) GTEST_SKIP() << "redis-server did not start";
      options_ = redis_server()->options(next_db_++ % 60 + 1);
      store::RedisClient(options_).command({"FLUSHDB"});
    }
  }
  // Another process's connection to the same store (the CLI, another server of a fleet).
  std::unique_ptr<store::AccountStore> open() {
    if (GetParam() == Backend::Redis) return store::open_redis_store(options_);
    return store::open_sqlite_store(dir_.path());
  }

  TempDir dir_;
  store::RedisOptions options_;
  static inline int next_db_ = 0;
};

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values(Backend::Sqlite, Backend::Redis),
                         [](const auto& info) {
                           return info.param == Backend::Sqlite ? "Sqlite" : "Redis";
                         });

}  // namespace

TEST_P(StoreTest, NewKeysCarryTheirLimitsAndWebhook) {
  auto s = open();
  store::NewKey k = new_key("tc_live_AAAA", 'a');
  k.rate_per_minute = 7;
  k.monthly_quota = 0;
  k.webhook_url = "https://hooks.example.com/x";
  k.webhook_secret = "whsec_" + std::string(32, 'Q');
  ASSERT_TRUE(s->create_key(k));
  ASSERT_TRUE(s->create_key(new_key("tc_live_BBBB", 'b')));
  const auto keys = open()->load_keys().keys;
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].rate_per_minute, 7);
  EXPECT_EQ(keys[0].monthly_quota, 0);
  EXPECT_EQ(keys[0].webhook_url, "https://hooks.example.com/x");
  EXPECT_EQ(keys[0].webhook_secret, k.webhook_secret);
  EXPECT_FALSE(keys[1].rate_per_minute);
  EXPECT_FALSE(keys[1].monthly_quota);
  EXPECT_EQ(keys[1].webhook_url, "");
  EXPECT_EQ(keys[1].previous_hash, "");
  EXPECT_EQ(keys[1].previous_expires_epoch_s, 0);
}

TEST_P(StoreTest, RotationKeepsTheRecordAndRemembersTheOldSecret) {
  auto s = open();
  const int64_t id = *s->create_key(new_key("tc_live_AAAA", 'a'));
  s->add_usage({{id, "2026-11", 4}});
  const int64_t gen = s->key_generation();
  EXPECT_EQ(s->rotate_key("tc_live_AAAA", std::string(32, 'n'), 1'800'000'100),
            store::ChangeOutcome::Done);
  EXPECT_EQ(s->key_generation(), gen + 1);
  const store::KeyRecord k = only_key(open()->load_keys());
  EXPECT_EQ(k.id, id);
  EXPECT_EQ(k.prefix, "tc_live_AAAA");
  EXPECT_EQ(k.key_hash, std::string(32, 'n'));
  EXPECT_EQ(k.previous_hash, std::string(32, 'a'));
  EXPECT_EQ(k.previous_expires_epoch_s, 1'800'000'100);
  EXPECT_EQ(k.plan, "free");
  EXPECT_EQ(k.label, "label");
  EXPECT_EQ(s->load_usage("2026-11").at(id), 4);

  // Again: the first secret is gone, the second is the previous one now.
  EXPECT_EQ(s->rotate_key("tc_live_AAAA", std::string(32, 'm'), 1'800'000'200),
            store::ChangeOutcome::Done);
  const store::KeyRecord k2 = only_key(s->load_keys());
  EXPECT_EQ(k2.key_hash, std::string(32, 'm'));
  EXPECT_EQ(k2.previous_hash, std::string(32, 'n'));
  EXPECT_EQ(k2.previous_expires_epoch_s, 1'800'000'200);

  EXPECT_EQ(s->rotate_key("tc_live_ZZZZ", std::string(32, 'z'), 1), store::ChangeOutcome::NotFound);
  ASSERT_EQ(s->revoke_key("tc_live_AAAA", 1'800'000'300), store::RevokeOutcome::Revoked);
  EXPECT_EQ(s->rotate_key("tc_live_AAAA", std::string(32, 'z'), 1), store::ChangeOutcome::Revoked);
  EXPECT_EQ(only_key(s->load_keys()).key_hash, std::string(32, 'm'));
}

TEST_P(StoreTest, UpdateChangesOnlyWhatItSets) {
  auto s = open();
  ASSERT_TRUE(s->create_key(new_key("tc_live_AAAA", 'a')));
  const int64_t gen = s->key_generation();
  store::KeyUpdate u;
  u.plan = "pro";
  u.set_rate_per_minute = true;
  u.rate_per_minute = 77;
  u.set_webhook = true;
  u.webhook_url = "http://127.0.0.1:9/x";
  u.webhook_secret = "whsec_s";
  EXPECT_EQ(s->update_key("tc_live_AAAA", u), store::ChangeOutcome::Done);
  EXPECT_EQ(s->key_generation(), gen + 1);
  store::KeyRecord k = only_key(open()->load_keys());
  EXPECT_EQ(k.plan, "pro");
  EXPECT_EQ(k.label, "label");
  EXPECT_EQ(k.rate_per_minute, 77);
  EXPECT_FALSE(k.monthly_quota);
  EXPECT_EQ(k.webhook_url, "http://127.0.0.1:9/x");
  EXPECT_EQ(k.webhook_secret, "whsec_s");

  store::KeyUpdate back;  // the rate back to the plan's, a quota of its own, no webhook
  back.label = "renamed";
  back.set_rate_per_minute = true;
  back.set_monthly_quota = true;
  back.monthly_quota = 12;
  back.set_webhook = true;
  EXPECT_EQ(s->update_key("tc_live_AAAA", back), store::ChangeOutcome::Done);
  k = only_key(open()->load_keys());
  EXPECT_EQ(k.plan, "pro");
  EXPECT_EQ(k.label, "renamed");
  EXPECT_FALSE(k.rate_per_minute);
  EXPECT_EQ(k.monthly_quota, 12);
  EXPECT_EQ(k.webhook_url, "");
  EXPECT_EQ(k.webhook_secret, "");

  EXPECT_EQ(s->update_key("tc_live_ZZZZ", back), store::ChangeOutcome::NotFound);
  ASSERT_EQ(s->revoke_key("tc_live_AAAA", 5), store::RevokeOutcome::Revoked);
  EXPECT_EQ(s->update_key("tc_live_AAAA", u), store::ChangeOutcome::Revoked);
  EXPECT_EQ(only_key(s->load_keys()).plan, "pro");
}

TEST_P(StoreTest, HistoryAddsUpPerDayToolAndMetric) {
  auto s = open();
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  const int64_t b = *s->create_key(new_key("tc_live_BBBB", 'b'));
  // 2026-11-30 is day 20,787; 2026-12-01 is 20,788.
  s->add_usage({{a, "2026-11", 2}},
               {{a, 20'787, "iot-mcu/mcu-deep-sleep-battery", store::kHistoryExecutions, 2},
                {a, 20'787, "iot-mcu/mcu-deep-sleep-battery", store::kHistoryUnits, 2},
                {a, 20'787, "electronics/rc-filter", 422, 1},
                {a, 20'788, "electronics/rc-filter", store::kHistoryExecutions, 1},
                {b, 20'787, "electronics/rc-filter", 429, 3}});
  s->add_usage({}, {{a, 20'787, "electronics/rc-filter", 422, 2}});
  EXPECT_EQ(s->load_usage("2026-11").at(a), 2);

  const auto nov = open()->load_history(a, 20'758, 20'788);  // November
  ASSERT_EQ(nov.size(), 3u);
  EXPECT_EQ(nov[0].tool, "electronics/rc-filter");
  EXPECT_EQ(nov[0].metric, 422);
  EXPECT_EQ(nov[0].count, 3);
  EXPECT_EQ(nov[1].tool, "iot-mcu/mcu-deep-sleep-battery");
  EXPECT_EQ(nov[1].metric, store::kHistoryExecutions);
  EXPECT_EQ(nov[2].metric, store::kHistoryUnits);
  EXPECT_EQ(nov[2].day, 20'787);
  const auto dec = s->load_history(a, 20'788, 20'819);
  ASSERT_EQ(dec.size(), 1u);
  EXPECT_EQ(dec[0].day, 20'788);
  EXPECT_EQ(s->load_history(b, 20'758, 20'819).at(0).count, 3);

  s->drop_history_before(20'788);
  if (GetParam() == Backend::Sqlite) {
    EXPECT_TRUE(s->load_history(a, 20'758, 20'788).empty());
    EXPECT_EQ(s->load_history(a, 20'788, 20'819).size(), 1u);
  } else {
    // Redis drops a month's history on its own: 13 months after the month began.
    store::RedisClient redis(options_);
    const auto expire_at = redis.command({"EXPIRETIME", store::redis_keys::history(a, "2026-11")});
    EXPECT_EQ(expire_at.as_integer(), 1'827'619'200);  // 2027-12-01T00:00:00Z
  }
}

TEST_P(StoreTest, AnAlertIsCreatedOnceAndLeasedToOneCaller) {
  auto first = open();
  auto second = open();  // another server of the fleet, or the same one after a restart
  const int64_t id = *first->create_key(new_key("tc_live_AAAA", 'a'));
  store::QuotaAlert a;
  a.key_id = id;
  a.period = "2026-11";
  a.threshold_pct = 80;
  a.used = 8;
  a.monthly_quota = 10;
  a.created_epoch_s = 1'800'000'000;
  EXPECT_TRUE(first->create_alert(a));
  EXPECT_FALSE(second->create_alert(a));
  EXPECT_FALSE(first->create_alert(a));
  store::QuotaAlert b = a;
  b.threshold_pct = 90;
  b.used = 9;
  EXPECT_TRUE(second->create_alert(b));

  EXPECT_TRUE(first->lease_due_alerts(1'799'999'999, 1'800'000'100, 10).empty());  // not yet due
  const auto leased = first->lease_due_alerts(1'800'000'000, 1'800'000'040, 10);
  ASSERT_EQ(leased.size(), 2u);
  EXPECT_EQ(leased[0].threshold_pct + leased[1].threshold_pct, 170);
  for (const auto& l : leased) {
    EXPECT_EQ(l.key_id, id);
    EXPECT_EQ(l.period, "2026-11");
    EXPECT_EQ(l.monthly_quota, 10);
    EXPECT_EQ(l.used, l.threshold_pct / 10);
    EXPECT_EQ(l.created_epoch_s, 1'800'000'000);
    EXPECT_EQ(l.attempts, 0);
  }
  // Leased: nobody else gets them until the lease ends.
  EXPECT_TRUE(second->lease_due_alerts(1'800'000'039, 1'800'000'080, 10).empty());

  const store::QuotaAlert& eighty = leased[0].threshold_pct == 80 ? leased[0] : leased[1];
  const store::QuotaAlert& ninety = leased[0].threshold_pct == 80 ? leased[1] : leased[0];
  first->finish_alert(eighty, store::AlertOutcome::Delivered, 1'800'000'001);
  first->finish_alert(ninety, store::AlertOutcome::Retry, 1'800'000'010);
  // After the lease: only the one to retry, with its attempt counted.
  const auto again = second->lease_due_alerts(1'800'000'050, 1'800'000'090, 10);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].threshold_pct, 90);
  EXPECT_EQ(again[0].attempts, 1);
  second->finish_alert(again[0], store::AlertOutcome::Abandoned, 1'800'000'051);
  EXPECT_TRUE(first->lease_due_alerts(1'900'000'000, 1'900'000'040, 10).empty());
  EXPECT_FALSE(first->create_alert(b));  // given up is not forgotten: never sent again
}

TEST(SqliteStoreMigration, AVersion1DatabaseIsUpgradedInPlace) {
  TempDir tmp;
  const auto file = store::sqlite_store_file(tmp.path());
  std::filesystem::create_directories(tmp.path());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  // The schema of version 1, with one key and its usage.
  ASSERT_EQ(sqlite3_exec(db, R"sql(
PRAGMA journal_mode = WAL;
CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO meta(name, value) VALUES ('key_generation', 1);
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY, prefix TEXT NOT NULL UNIQUE,
  key_hash BLOB NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  label TEXT NOT NULL DEFAULT '', plan TEXT NOT NULL, created_at INTEGER NOT NULL,
  revoked_at INTEGER);
CREATE TABLE monthly_usage (
  key_id INTEGER NOT NULL REFERENCES api_keys(id), period TEXT NOT NULL,
  used INTEGER NOT NULL CHECK (used >= 0), PRIMARY KEY (key_id, period)) WITHOUT ROWID;
INSERT INTO api_keys(prefix, key_hash, label, plan, created_at)
  VALUES ('tc_live_OLD1', zeroblob(32), 'old', 'pro', 1700000000);
INSERT INTO monthly_usage VALUES (1, '2026-11', 41);
PRAGMA user_version = 1;
)sql",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);

  auto s = store::open_sqlite_store(tmp.path());
  const store::KeyRecord k = only_key(s->load_keys());
  EXPECT_EQ(k.prefix, "tc_live_OLD1");
  EXPECT_EQ(k.plan, "pro");
  EXPECT_FALSE(k.rate_per_minute);
  EXPECT_EQ(k.webhook_url, "");
  EXPECT_EQ(s->load_usage("2026-11").at(1), 41);
  EXPECT_EQ(s->key_generation(), 1);
  EXPECT_EQ(s->rotate_key("tc_live_OLD1", std::string(32, 'n'), 5), store::ChangeOutcome::Done);
  sqlite3* check = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &check), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(check, "PRAGMA user_version", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 3);
  sqlite3_finalize(st);
  sqlite3_close(check);
}
