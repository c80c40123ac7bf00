// A store that held data never starts empty in silence (store/store_directory.hpp).
#include "store/store_directory.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "store/account_store.hpp"
#include "store/store_errors.hpp"
#include "store/usage_journal.hpp"
#include "store/usage_ledger.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using accounts::testing::new_key;
using accounts::testing::TempDir;
using store::NewStore;
namespace fs = std::filesystem;

namespace {

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The message of the StoreError `open` throws ("" when it opens).
template <typename Open>
std::string refusal(Open&& open) {
  try {
    open();
  } catch (const store::StoreError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void exec(const fs::path& db_file, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

std::string meta(const fs::path& dir, const char* name) {
  sqlite3* db = nullptr;
  EXPECT_EQ(
      sqlite3_open_v2(store::sqlite_store_file(dir).c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
      SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT printf('%016x', value) FROM meta WHERE name = ?1", -1, &st,
                     nullptr);
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW)
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

// A directory a server used: a key, and a group of units its journal still holds (the
// server was killed before a flush).
void used_directory(const fs::path& dir) {
  auto s = store::open_sqlite_store_for_serving(dir);
  const int64_t a = *s->create_key(new_key("tc_live_AAAA", 'a'));
  for (char c = 'B'; c <= 'Z'; ++c) s->create_key(new_key(std::string("tc_live_AAA") + c, c));
  ASSERT_TRUE(s->add_usage_if_free({{a, "2026-11", 5}}));
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The bytes of each file in `dir` whose name starts with `prefix`.
std::vector<std::string> contents_of_files(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& name : names_in(dir))
    if (name.rfind(prefix, 0) == 0) out.push_back(bytes_of(dir / name));
  return out;
}

}  // namespace

TEST(StoreDirectory, AFirstStartInAnEmptyDirectoryCreatesTheStoreAndItsMarker) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "data";
  auto s = store::open_sqlite_store_for_serving(dir);
  EXPECT_EQ(s->load_keys().keys.size(), 0u);
  const std::string marker = bytes_of(store::store_marker_file(dir));
  const std::string id = meta(dir, "store_id");
  EXPECT_EQ(id.size(), 16u);
  EXPECT_TRUE(contains(marker, "id=" + id + "\n")) << marker;
  EXPECT_TRUE(contains(marker, "created=20")) << marker;
  // Opened again, by the server or `toolcalc keys`, it is the same store.
  s.reset();
  EXPECT_EQ(store::open_sqlite_store(dir)->load_keys().keys.size(), 0u);
  EXPECT_EQ(meta(dir, "store_id"), id);
  EXPECT_EQ(bytes_of(store::store_marker_file(dir)), marker);
}

TEST(StoreDirectory, AMissingDatabaseBesideAUsedStoresFilesIsRefusedNamingThem) {
  TempDir tmp;
  used_directory(tmp.path());
  const fs::path db = store::sqlite_store_file(tmp.path());
  fs::remove(db);
  for (const auto& open : {+[](const fs::path& d) { store::open_sqlite_store_for_serving(d); },
                           +[](const fs::path& d) { store::open_sqlite_store(d); },
                           +[](const fs::path& d) { store::open_usage_ledger(d); }}) {
    const std::string why = refusal([&] { open(tmp.path()); });
    EXPECT_TRUE(contains(why, "usage.journal")) << why;
    EXPECT_TRUE(contains(why, "toolcalc.store-id")) << why;
    EXPECT_TRUE(contains(why, "toolcalc.db is missing")) << why;
    EXPECT_TRUE(contains(why, "--new-store")) << why;
    EXPECT_FALSE(fs::exists(db));
  }
}

// Any one sign of earlier use is enough: the marker, the journal, the ledger's lock, the
// write-ahead log.
TEST(StoreDirectory, EachSignOfEarlierUseAloneRefusesAMissingDatabase) {
  for (const char* sign :
       {"toolcalc.store-id", "usage.journal", "ledger.lock", "toolcalc.db-wal"}) {
    SCOPED_TRACE(sign);
    TempDir tmp;
    std::ofstream(tmp.path() / sign) << "x";
    const std::string why = refusal([&] { store::open_sqlite_store(tmp.path()); });
    EXPECT_TRUE(contains(why, std::string("found: ") + sign + ")")) << why;
    EXPECT_EQ(names_in(tmp.path()), std::vector<std::string>{sign});
  }
}

TEST(StoreDirectory, AnEmptyDatabaseInAUsedDirectoryIsRefusedAndLeftAsItIs) {
  TempDir tmp;
  used_directory(tmp.path());
  const fs::path db = store::sqlite_store_file(tmp.path());
  fs::resize_file(db, 0);
  std::string why = refusal([&] { store::open_sqlite_store_for_serving(tmp.path()); });
  EXPECT_TRUE(contains(why, "toolcalc.db is empty (0 bytes)")) << why;
  EXPECT_EQ(fs::file_size(db), 0u);
  // A SQLite file with no tables is empty too.
  exec(db, "PRAGMA user_version = 0");
  const std::string before = bytes_of(db);
  why = refusal([&] { store::open_sqlite_store(tmp.path()); });
  EXPECT_TRUE(contains(why, "toolcalc.db is empty (no tables)")) << why;
  EXPECT_EQ(bytes_of(db), before);
}

// Cut short at a page boundary, within a page, or within its header: refused, naming
// the file, which keeps every byte; with or without other signs of use.
TEST(StoreDirectory, AnUnreadableDatabaseIsRefusedAndLeftAsItIs) {
  for (const bool alone : {false, true}) {
    TempDir tmp;
    used_directory(tmp.path());
    const fs::path db = store::sqlite_store_file(tmp.path());
    ASSERT_GT(fs::file_size(db), 3u * 4096);
    if (alone) {
      fs::remove(store::usage_journal_file(tmp.path()));
      fs::remove(store::store_marker_file(tmp.path()));
    }
    const auto files = names_in(tmp.path());
    for (const auto& [size, expected] : std::vector<std::pair<uintmax_t, std::string>>{
             {3 * 4096, "malformed"},
             {4096, "malformed"},
             {5000, "5000 bytes, not a whole number of its 4096-byte pages: cut short"},
             {50, "50 bytes, not a whole number of its 4096-byte pages"}}) {
      SCOPED_TRACE(size);
      fs::resize_file(db, size);
      const std::string before = bytes_of(db);
      for (const auto& open : {+[](const fs::path& d) { store::open_sqlite_store_for_serving(d); },
                               +[](const fs::path& d) { store::open_sqlite_store(d); }}) {
        const std::string why = refusal([&] { open(tmp.path()); });
        EXPECT_TRUE(contains(why, db.string() + " cannot be read as a toolcalc database")) << why;
        EXPECT_TRUE(contains(why, expected)) << why;
        EXPECT_TRUE(contains(why, "left as it is")) << why;
        EXPECT_EQ(bytes_of(db), before);
        EXPECT_EQ(names_in(tmp.path()), files);
      }
    }
    std::ofstream(db, std::ios::binary | std::ios::trunc) << std::string(8192, 'x');
    const std::string why = refusal([&] { store::open_sqlite_store(tmp.path()); });
    EXPECT_TRUE(contains(why, "(file is not a database)")) << why;
    EXPECT_EQ(bytes_of(db), std::string(8192, 'x'));
  }
}

TEST(StoreDirectory, AnotherStoresDatabaseIsRefusedNamingBothStores) {
  TempDir here, there;
  used_directory(here.path());
  { store::open_sqlite_store(there.path()); }
  const std::string here_id = meta(here.path(), "store_id");
  const std::string there_id = meta(there.path(), "store_id");
  ASSERT_NE(here_id, there_id);
  fs::copy_file(store::sqlite_store_file(there.path()), store::sqlite_store_file(here.path()),
                fs::copy_options::overwrite_existing);
  const std::string why = refusal([&] { store::open_sqlite_store_for_serving(here.path()); });
  EXPECT_TRUE(contains(why, "holds store " + there_id)) << why;
  EXPECT_TRUE(contains(why, "names store " + here_id)) << why;
  EXPECT_TRUE(contains(why, "another store's")) << why;
}

// A database made before stores had ids gets one, and the directory its marker, when a
// toolcalc that keeps them opens it (an upgrade); a marker of another id is then rewritten.
TEST(StoreDirectory, ADatabaseOlderThanStoreIdsGetsOneAndTheMarkerFollows) {
  TempDir tmp;
  used_directory(tmp.path());
  const std::string first = meta(tmp.path(), "store_id");
  exec(store::sqlite_store_file(tmp.path()),
       "DELETE FROM meta WHERE name IN ('store_id', 'store_created_at')");
  auto s = store::open_sqlite_store_for_serving(tmp.path());
  EXPECT_EQ(s->load_usage("2026-11").size(), 1u);  // the journal was taken over
  const std::string now = meta(tmp.path(), "store_id");
  EXPECT_NE(now, first);
  EXPECT_TRUE(contains(bytes_of(store::store_marker_file(tmp.path())), "id=" + now + "\n"));
  s.reset();
  fs::remove(store::store_marker_file(tmp.path()));
  store::open_sqlite_store(tmp.path());
  EXPECT_TRUE(contains(bytes_of(store::store_marker_file(tmp.path())), "id=" + now + "\n"));
}

// NewStore::EvenInAUsedOne (--new-store): a new, empty store; the earlier store's files are
// renamed aside, so none of its journal's records reach the new database.
TEST(StoreDirectory, ANewStoreOnPurposeSetsTheOldFilesAsideAndStartsEmpty) {
  TempDir tmp;
  used_directory(tmp.path());
  const std::string old_id = meta(tmp.path(), "store_id");
  const std::string journal = bytes_of(store::usage_journal_file(tmp.path()));
  fs::remove(store::sqlite_store_file(tmp.path()));
  auto s = store::open_sqlite_store_for_serving(tmp.path(), NewStore::EvenInAUsedOne);
  EXPECT_EQ(s->load_keys().keys.size(), 0u);
  EXPECT_TRUE(s->load_usage("2026-11").empty());
  const std::string new_id = meta(tmp.path(), "store_id");
  EXPECT_NE(new_id, old_id);
  EXPECT_TRUE(contains(bytes_of(store::store_marker_file(tmp.path())), "id=" + new_id + "\n"));
  EXPECT_EQ(contents_of_files(tmp.path(), "usage.journal.replaced-"),
            std::vector<std::string>{journal});
  s.reset();
  // The next start is an ordinary one; asking for a new store again is refused.
  EXPECT_EQ(store::open_sqlite_store_for_serving(tmp.path())->load_keys().keys.size(), 0u);
  const std::string why =
      refusal([&] { store::open_sqlite_store_for_serving(tmp.path(), NewStore::EvenInAUsedOne); });
  EXPECT_TRUE(contains(why, "holds a store already (store " + new_id)) << why;
}

TEST(StoreDirectory, ANewStoreOnPurposeKeepsAnUnreadableDatabaseAside) {
  TempDir tmp;
  used_directory(tmp.path());
  const fs::path db = store::sqlite_store_file(tmp.path());
  fs::resize_file(db, 4096);
  const std::string damaged = bytes_of(db);
  auto s = store::open_sqlite_store(tmp.path(), NewStore::EvenInAUsedOne);
  EXPECT_EQ(s->load_keys().keys.size(), 0u);
  EXPECT_EQ(contents_of_files(tmp.path(), "toolcalc.db.replaced-"),
            std::vector<std::string>{damaged});
}

TEST(StoreDirectory, AFleetInstancesLedgerIsCheckedTheSameWay) {
  TempDir tmp;
  { store::open_usage_ledger(tmp.path())->add_counts({{41, "2026-11", 3}}); }
  EXPECT_TRUE(fs::exists(store::store_marker_file(tmp.path())));
  fs::remove(store::sqlite_store_file(tmp.path()));
  const std::string why = refusal([&] { store::open_usage_ledger(tmp.path()); });
  EXPECT_TRUE(contains(why, "ledger.lock")) << why;
  EXPECT_TRUE(store::open_usage_ledger(tmp.path(), NewStore::EvenInAUsedOne)
                  ->load_counts("2026-11")
                  .empty());
}

// The check reads the database only through SQLite: a descriptor of it opened and closed
// beside this process's open connections would drop their POSIX locks, and another
// process closing the database would then delete the write-ahead log under them.
TEST(StoreDirectory, CheckingBesideAnOpenStoreKeepsItsLocks) {
  TempDir tmp;
  auto serving = store::open_sqlite_store_for_serving(tmp.path());
  serving->create_key(new_key("tc_live_AAAA", 'a'));
  { auto side = store::open_sqlite_store(tmp.path()); }  // as serve's admin connection
  const fs::path wal = store::sqlite_store_file(tmp.path()).string() + "-wal";
  ASSERT_TRUE(fs::exists(wal));
  // Another process (as `toolcalc keys list`; a fresh one, since a fork shares this one's
  // SQLite state) opens and closes the database.
  const std::string other_process =
      "python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
      "c.execute(\"SELECT count(*) FROM api_keys\").fetchall(); c.close()' " +
      store::sqlite_store_file(tmp.path()).string();
  const int status = std::system(other_process.c_str());
  if (WEXITSTATUS(status) == 127) GTEST_SKIP() << "no python3 to stand for another process";
  ASSERT_EQ(status, 0);
  EXPECT_TRUE(fs::exists(wal));
  serving->create_key(new_key("tc_live_BBBB", 'b'));
  EXPECT_EQ(store::open_sqlite_store(tmp.path())->load_keys().keys.size(), 2u);
}
