#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "accounts/api_key.hpp"
#include "accounts/key_issuer.hpp"
#include "accounts/plans.hpp"
#include "core/service_metrics.hpp"
#include "store/account_store.hpp"
#include "store/usage_journal.hpp"
#include "store/usage_ledger.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using accounts::testing::new_key;
using accounts::testing::TempDir;

namespace {

// A value read with a separate connection, as the sqlite3 shell would.
std::string query(const std::filesystem::path& db_file, const char* sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

}  // namespace

TEST(SqliteStore, CreatesTheDataDirectoryAndSchemaInWalMode) {
  TempDir tmp;
  const auto dir = tmp.path() / "nested" / "data";
  auto s = store::open_sqlite_store(dir);
  const auto file = store::sqlite_store_file(dir);
  EXPECT_EQ(file, dir / "toolcalc.db");
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_EQ(query(file, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(query(file, "PRAGMA user_version"), "3");
  EXPECT_EQ(s->key_generation(), 0);
  // Opening again (another process, a restart) keeps what is there.
  ASSERT_TRUE(s->create_key(new_key("tc_live_AAAA")));
  auto again = store::open_sqlite_store(dir);
  EXPECT_EQ(again->load_keys().keys.size(), 1u);
}

TEST(SqliteStore, RefusesANewerSchema) {
  TempDir tmp;
  { auto s = store::open_sqlite_store(tmp.path()); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(store::sqlite_store_file(tmp.path()).c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  try {
    store::open_sqlite_store(tmp.path());
    FAIL() << "expected StoreError";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
}

TEST(SqliteStore, KeysRoundTripAndBumpTheGeneration) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const auto id = s->create_key(new_key("tc_live_AAAA", 'a'));
  ASSERT_TRUE(id);
  EXPECT_EQ(s->key_generation(), 1);
  const store::KeySet set = s->load_keys();
  EXPECT_EQ(set.generation, 1);
  ASSERT_EQ(set.keys.size(), 1u);
  const auto& k = set.keys[0];
  EXPECT_EQ(k.id, *id);
  EXPECT_EQ(k.prefix, "tc_live_AAAA");
  EXPECT_EQ(k.key_hash, std::string(32, 'a'));
  EXPECT_EQ(k.label, "label");
  EXPECT_EQ(k.plan, "free");
  EXPECT_EQ(k.created_epoch_s, 1'700'000'000);
  EXPECT_FALSE(k.revoked_epoch_s);
}

// Every field of a key read back from its own column: each holds a value no other field of
// the same type holds, so a reader that took one column for another (two columns of the
// SELECT in each other's place, read by position) fails here, in load_keys and list_keys.
TEST(SqliteStore, EveryKeyFieldIsReadFromItsOwnColumn) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  store::NewKey k = new_key("tc_live_AAAA", 'a', "pro");
  k.label = "the label";
  k.created_epoch_s = 1'700'000'001;
  k.rate_per_minute = 7;
  k.monthly_quota = 11;
  k.webhook_url = "https://hooks.example.com/a";
  k.webhook_secret = "whsec_b";
  const int64_t id = *s->create_key(k);
  ASSERT_EQ(s->rotate_key("tc_live_AAAA", std::string(32, 'n'), 1'800'000'100),
            store::ChangeOutcome::Done);
  ASSERT_EQ(s->revoke_key("tc_live_AAAA", 1'800'000'200), store::RevokeOutcome::Revoked);
  s->add_usage({{id, "2026-11", 5}});

  const auto expect_fields = [&](const store::KeyRecord& r) {
    EXPECT_EQ(r.id, id);
    EXPECT_EQ(r.prefix, "tc_live_AAAA");
    EXPECT_EQ(r.key_hash, std::string(32, 'n'));
    EXPECT_EQ(r.label, "the label");
    EXPECT_EQ(r.plan, "pro");
    EXPECT_EQ(r.created_epoch_s, 1'700'000'001);
    EXPECT_EQ(r.revoked_epoch_s, 1'800'000'200);
    EXPECT_EQ(r.rate_per_minute, 7);
    EXPECT_EQ(r.monthly_quota, 11);
    EXPECT_EQ(r.previous_hash, std::string(32, 'a'));
    EXPECT_EQ(r.previous_expires_epoch_s, 1'800'000'100);
    EXPECT_EQ(r.webhook_url, "https://hooks.example.com/a");
    EXPECT_EQ(r.webhook_secret, "whsec_b");
  };
  const store::KeySet set = s->load_keys();
  ASSERT_EQ(set.keys.size(), 1u);
  expect_fields(set.keys[0]);
  const auto listed = s->list_keys("2026-11");
  ASSERT_EQ(listed.size(), 1u);
  expect_fields(listed[0].key);
  EXPECT_EQ(listed[0].used, 5);
}

TEST(SqliteStore, ATakenPrefixIsRefusedWithoutChangingAnything) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  ASSERT_TRUE(s->create_key(new_key("tc_live_AAAA", 'a')));
  EXPECT_FALSE(s->create_key(new_key("tc_live_AAAA", 'b')));
  EXPECT_EQ(s->key_generation(), 1);
  EXPECT_EQ(s->load_keys().keys.size(), 1u);
}

TEST(SqliteStore, RevokeByPrefix) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  ASSERT_TRUE(s->create_key(new_key("tc_live_AAAA")));
  EXPECT_EQ(s->revoke_key("tc_live_ZZZZ", 5), store::RevokeOutcome::NotFound);
  EXPECT_EQ(s->key_generation(), 1);
  EXPECT_EQ(s->revoke_key("tc_live_AAAA", 1'800'000'000), store::RevokeOutcome::Revoked);
  EXPECT_EQ(s->key_generation(), 2);
  EXPECT_EQ(s->revoke_key("tc_live_AAAA", 1'800'000'001), store::RevokeOutcome::AlreadyRevoked);
  EXPECT_EQ(s->load_keys().keys.at(0).revoked_epoch_s, 1'800'000'000);
}

TEST(SqliteStore, UsageDeltasAddUpPerKeyAndPeriod) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  const int64_t b = *s->create_key(new_key("tc_live_BBBB", 'b'));
  s->add_usage({{a, "2026-11", 5}, {b, "2026-11", 2}, {a, "2026-10", 9}});
  s->add_usage({{a, "2026-11", 3}, {b, "2026-11", -1}});
  const auto nov = s->load_usage("2026-11");
  EXPECT_EQ(nov.at(a), 8);
  EXPECT_EQ(nov.at(b), 1);
  EXPECT_EQ(s->load_usage("2026-10").at(a), 9);
  EXPECT_TRUE(s->load_usage("2026-09").empty());
  s->add_usage({{b, "2026-11", -5}});  // never below zero
  EXPECT_EQ(s->load_usage("2026-11").at(b), 0);

  const auto listed = s->list_keys("2026-11");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].key.prefix, "tc_live_AAAA");
  EXPECT_EQ(listed[0].used, 8);
  EXPECT_EQ(s->list_keys("2025-01").at(0).used, 0);
}

TEST(SqliteStore, AddUsageIsAllOrNothing) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  // Key 999 does not exist: the foreign key fails the batch, and a's delta is not kept.
  EXPECT_THROW(s->add_usage({{a, "2026-11", 5}, {999, "2026-11", 1}}), store::StoreError);
  EXPECT_TRUE(s->load_usage("2026-11").empty());
  s->add_usage({{a, "2026-11", 5}});
  EXPECT_EQ(s->load_usage("2026-11").at(a), 5);
}

// add_usage_if_free never waits: while another connection (here another process's, as a
// `toolcalc keys` command would hold it) has the write lock, it writes nothing and says so
// at once; once the lock is released it writes, and the usual add_usage still waits.
TEST(SqliteStore, AddUsageIfFreeWritesNothingWhileAnotherWriterHoldsTheLock) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  s->add_usage({{a, "2026-11", 1}});  // the commit that starts the log (see the next test)
  EXPECT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
  EXPECT_EQ(s->load_usage("2026-11").at(a), 2);

  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(store::sqlite_store_file(tmp.path()).c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  const auto started = std::chrono::steady_clock::now();
  EXPECT_FALSE(s->add_usage_if_free({{a, "2026-11", 5}}));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(1));  // not 5 s
  ASSERT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);

  EXPECT_EQ(s->load_usage("2026-11").at(a), 2);  // the refused delta was not written
  EXPECT_TRUE(s->add_usage_if_free({{a, "2026-11", 5}}));
  EXPECT_EQ(s->load_usage("2026-11").at(a), 7);
  // Failures other than a lock still throw, and leave nothing behind (key 999 is absent).
  EXPECT_THROW(s->add_usage_if_free({{a, "2026-11", 1}, {999, "2026-11", 1}}), store::StoreError);
  EXPECT_EQ(s->load_usage("2026-11").at(a), 7);
  // The busy timeout is back for the waiting writes: add_usage waits out another writer
  // (released 300 ms later) instead of failing at once.
  ASSERT_EQ(sqlite3_open(store::sqlite_store_file(tmp.path()).c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  std::thread release([other] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
  });
  const auto waited_from = std::chrono::steady_clock::now();
  EXPECT_NO_THROW(s->add_usage({{a, "2026-11", 1}}));
  EXPECT_GE(std::chrono::steady_clock::now() - waited_from, std::chrono::milliseconds(250));
  release.join();
  sqlite3_close(other);
  EXPECT_EQ(s->load_usage("2026-11").at(a), 8);
}

// The commit that starts the write-ahead log again (the first after the store opens, the
// first after a checkpoint that copied the whole log) writes the log's header and fsyncs
// it: add_usage_if_free leaves it to add_usage, which may wait, and writes again after.
TEST(SqliteStore, AddUsageIfFreeLeavesTheCommitThatRestartsTheLogToAWaitingWriter) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  EXPECT_FALSE(s->add_usage_if_free({{a, "2026-11", 1}}));  // just opened
  s->add_usage({{a, "2026-11", 1}});
  EXPECT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
  EXPECT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
  s->checkpoint();  // copies the whole log: the next commit restarts it
  EXPECT_FALSE(s->add_usage_if_free({{a, "2026-11", 1}}));
  s->add_usage({{a, "2026-11", 1}});
  EXPECT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
  EXPECT_EQ(s->load_usage("2026-11").at(a), 5);  // the declined deltas were not written
}

TEST(SqliteStore, HoldsNoPlaintextKey) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const auto plans = accounts::builtin_plans();
  const auto issued =
      accounts::issue_key(*s, plans, "pro", "ci", accounts::KeyKind::Live, 1'800'000'000);
  const std::string bytes = accounts::testing::all_bytes_under(tmp.path());
  EXPECT_NE(bytes.find(issued.prefix), std::string::npos);  // the scan does see the data
  EXPECT_EQ(bytes.find(issued.key), std::string::npos);
  EXPECT_EQ(bytes.find(issued.key.substr(12)), std::string::npos);  // nor its secret part
  s.reset();  // closing checkpoints the WAL into the main file
  const std::string after = accounts::testing::all_bytes_under(tmp.path());
  EXPECT_NE(after.find(issued.prefix), std::string::npos);
  EXPECT_EQ(after.find(issued.key.substr(12)), std::string::npos);
}

TEST(KeyIssuer, UnknownPlanListsThePlans) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const auto plans = accounts::builtin_plans();
  try {
    accounts::issue_key(*s, plans, "gold", "", accounts::KeyKind::Live, 0);
    FAIL() << "expected UnknownPlan";
  } catch (const accounts::UnknownPlan& e) {
    EXPECT_STREQ(e.what(), "unknown plan 'gold' (plans: free, pro, business)");
  }
  EXPECT_THROW(accounts::issue_key(*s, plans, "anonymous", "", accounts::KeyKind::Live, 0),
               accounts::UnknownPlan);
  EXPECT_THROW(accounts::issue_key(*s, plans, "free", "a\nb", accounts::KeyKind::Live, 0),
               std::invalid_argument);
  EXPECT_TRUE(s->load_keys().keys.empty());
}

TEST(KeyIssuer, StoresPrefixAndHashOfTheKey) {
  TempDir tmp;
  auto s = store::open_sqlite_store(tmp.path());
  const auto issued = accounts::issue_key(*s, accounts::builtin_plans(), "business", "team",
                                          accounts::KeyKind::Live, 1'800'000'000);
  EXPECT_TRUE(accounts::is_well_formed_key(issued.key));
  EXPECT_EQ(issued.prefix, issued.key.substr(0, 12));
  const auto keys = s->load_keys().keys;
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].prefix, issued.prefix);
  EXPECT_EQ(keys[0].key_hash, accounts::hash_api_key(issued.key));
  EXPECT_EQ(keys[0].plan, "business");
  EXPECT_EQ(keys[0].label, "team");
}

// The usage ledger of an instance on the shared store: counts of keys that live in Redis
// (no row of api_keys), a name as a shipper that stays with the file, and one process at a
// time per data directory.
TEST(UsageLedger, CountsKeysOfTheSharedStoreAndKeepsItsNameAcrossRestarts) {
  TempDir tmp;
  std::string name;
  {
    auto ledger = store::open_usage_ledger(tmp.path());
    name = ledger->instance_id();
    EXPECT_EQ(name.size(), 16u);
    ledger->add_counts({{41, "2026-11", 3}, {42, "2026-11", 1}, {41, "2026-10", 7}});
    EXPECT_TRUE(ledger->add_counts_if_free({{41, "2026-11", 2}}));
    EXPECT_TRUE(ledger->add_counts_if_free({{41, "2026-11", -1}, {42, "2026-11", 1}}));
    // A second ledger of the directory, in this process or another, is refused.
    EXPECT_THROW(store::open_usage_ledger(tmp.path()), store::StoreError);
  }
  auto ledger = store::open_usage_ledger(tmp.path());  // the lock went with the first one
  EXPECT_EQ(ledger->instance_id(), name);
  const auto november = ledger->load_counts("2026-11");
  EXPECT_EQ(november.size(), 2u);
  EXPECT_EQ(november.at(41), 4);
  EXPECT_EQ(november.at(42), 2);
  EXPECT_EQ(ledger->load_counts("2026-10").at(41), 7);
  EXPECT_TRUE(ledger->load_counts("2026-09").empty());
  ledger->checkpoint();
  // Another ledger is another instance.
  TempDir other;
  EXPECT_NE(store::open_usage_ledger(other.path())->instance_id(), name);
}

// The serving store's usage journal (store/usage_journal.hpp).
namespace {

int64_t usage_on_disk(const std::filesystem::path& dir, int64_t key_id) {
  const std::string sql =
      "SELECT COALESCE(SUM(used), 0) FROM monthly_usage WHERE key_id = " + std::to_string(key_id);
  return std::stoll(query(store::sqlite_store_file(dir), sql.c_str()));
}

}  // namespace

TEST(SqliteStore, AServingStoreJournalsUsageAndCountsItUntilTheDatabaseHasIt) {
  TempDir tmp;
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 3}}));
  ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 2}, {a, "2026-10", 1}}));
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 0);
  // Readers see the journaled units.
  EXPECT_EQ(s->load_usage("2026-11").at(a), 5);
  EXPECT_EQ(s->load_usage("2026-10").at(a), 1);
  EXPECT_EQ(s->list_keys("2026-11").at(0).used, 5);
  // A flush moves them into the database and empties the journal.
  s->add_usage({});
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 6);
  EXPECT_EQ(query(store::sqlite_store_file(tmp.path()),
                  "SELECT value FROM meta WHERE name = 'usage_journal_seq'"),
            "3");
  EXPECT_EQ(s->load_usage("2026-11").at(a), 5);
}

TEST(SqliteStore, WhatAKilledServerJournaledIsTakenOverOnceByTheNext) {
  TempDir tmp;
  int64_t a = 0;
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    a = *s->create_key(new_key("tc_live_AAAA", 'a'));
    s->add_usage({{a, "2026-11", 10}});
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 4}}));
    // Gone without a flush, as after kill -9.
  }
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 10);
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    EXPECT_EQ(usage_on_disk(tmp.path(), a), 14);
    EXPECT_EQ(s->load_usage("2026-11").at(a), 14);
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
  }
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  EXPECT_EQ(s->load_usage("2026-11").at(a), 15);
}

// A kill between the flush's commit and the journal's clear: the records left behind are
// numbered at or below what the database took, and are skipped.
TEST(SqliteStore, AKillBetweenTheFlushAndTheClearCountsNothingTwice) {
  TempDir tmp;
  const auto journal = store::usage_journal_file(tmp.path());
  int64_t a = 0;
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    a = *s->create_key(new_key("tc_live_AAAA", 'a'));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 4}}));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 3}}));
    std::filesystem::copy_file(journal, tmp.path() / "before-clear");
    s->add_usage({});
  }
  std::filesystem::copy_file(tmp.path() / "before-clear", journal,
                             std::filesystem::copy_options::overwrite_existing);
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 7);
  EXPECT_EQ(s->load_usage("2026-11").at(a), 7);
}

// After a flush the journal's run is cleared; the next record (numbered 3) starts a new run
// at the file's start, and after a kill it is the only one taken over.
TEST(SqliteStore, JournalRecordsTheDatabaseTookAreNotCountedTwice) {
  TempDir tmp;
  int64_t a = 0;
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    a = *s->create_key(new_key("tc_live_AAAA", 'a'));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 4}}));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 3}}));
    s->add_usage({});
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 2}}));  // numbered 3, after the flush
    // Gone without a flush, as after kill -9.
  }
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 7);
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 9);
  EXPECT_EQ(s->load_usage("2026-11").at(a), 9);
}

// Three servers in a row killed: each takes over what the one before left and clears it, and
// what it journals itself starts a new run at the file's start, numbered after what the
// database took, so no record is counted twice.
TEST(SqliteStore, ServersKilledOneAfterAnotherCountEachRecordOnce) {
  TempDir tmp;
  int64_t a = 0;
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    a = *s->create_key(new_key("tc_live_AAAA", 'a'));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 2}}));
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 4}}));
  }
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    EXPECT_EQ(usage_on_disk(tmp.path(), a), 7);
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 8}}));  // over the first run's record 1
  }
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    EXPECT_EQ(usage_on_disk(tmp.path(), a), 15);
    ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 16}, {a, "2026-10", 32}}));
  }
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 63);
  EXPECT_EQ(s->load_usage("2026-11").at(a), 31);
  EXPECT_EQ(query(store::sqlite_store_file(tmp.path()),
                  "SELECT value FROM meta WHERE name = 'usage_journal_seq'"),
            "6");
}

TEST(SqliteStore, ASecondServerOnTheDirectoryCommitsDirectly) {
  TempDir tmp;
  auto first = store::open_sqlite_store_for_serving(tmp.path());
  const int64_t a = *first->create_key(new_key("tc_live_AAAA", 'a'));
  auto second = store::open_sqlite_store_for_serving(tmp.path());
  second->add_usage({{a, "2026-11", 1}});  // the commit that starts the log, after an open
  ASSERT_TRUE(second->add_usage_if_free({{a, "2026-11", 2}}));
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 3);
}

// One byte flipped in the middle of 40 journaled groups, the server killed: the next one
// takes the 39 others, counts the damaged record and logs it with its offset.
TEST(SqliteStore, ADamagedJournalRecordIsSkippedCountedAndLoggedAndTheOthersTaken) {
  TempDir tmp;
  const auto journal = store::usage_journal_file(tmp.path());
  int64_t a = 0;
  {
    auto s = store::open_sqlite_store_for_serving(tmp.path());
    a = *s->create_key(new_key("tc_live_AAAA", 'a'));
    for (int i = 0; i < 40; ++i) ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 1}}));
    // Gone without a flush, as after kill -9.
  }
  {
    std::fstream f(journal, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(19 * store::UsageJournal::kRecordBytes + 16);  // the twentieth record's units
    f.put('\x7f');
  }
  const uint64_t damaged_before = metrics::journal_records_damaged.value();
  ::testing::internal::CaptureStderr();
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(usage_on_disk(tmp.path(), a), 39);
  EXPECT_EQ(s->load_usage("2026-11").at(a), 39);
  EXPECT_EQ(metrics::journal_records_damaged.value() - damaged_before, 1u);
  EXPECT_NE(log.find("\"level\":\"error\""), std::string::npos) << log;
  EXPECT_NE(log.find("\"skipped\":\"1\""), std::string::npos) << log;
  EXPECT_NE(log.find("\"offsets\":\"760\""), std::string::npos) << log;
  EXPECT_NE(log.find(journal.string()), std::string::npos) << log;
}
