// The embedded store reads its rows by column name (store/sqlite_database.hpp,
// Statement::column): the order of a SELECT's columns does not matter to a reader, and a
// column missing or named twice is refused when the statement is prepared.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "store/account_store.hpp"
#include "store/sqlite_database.hpp"
#include "store/sqlite_keys.hpp"
#include "support/test_support.hpp"

using namespace toolcalc;
using accounts::testing::new_key;
using accounts::testing::TempDir;
using store::sqlite::Database;
using store::sqlite::Statement;

TEST(SqliteStatement, ColumnsAreFoundByTheirNames) {
  TempDir tmp;
  Database db(tmp.path() / "t.db", /*create=*/true);
  Statement st(db, "SELECT 1 AS b, 2 AS a, 3 AS twice, 4 AS twice");
  EXPECT_EQ(st.column("b"), 0);
  EXPECT_EQ(st.column("a"), 1);
  try {
    st.column("c");
    FAIL() << "expected StoreError";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("no result column named 'c'"), std::string::npos)
        << e.what();
  }
  try {
    st.column("twice");
    FAIL() << "expected StoreError";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("more than one result column named 'twice'"),
              std::string::npos)
        << e.what();
  }
  Statement::Use use(st);
  ASSERT_TRUE(use.step());
  EXPECT_EQ(use.integer(st.column("a")), 2);
  EXPECT_EQ(use.integer(st.column("b")), 1);
}

// The store's own key columns, selected in the reverse order, read as the store reads them.
TEST(SqliteKeyColumns, AKeyReadsTheSameWhateverTheOrderOfItsColumns) {
  TempDir tmp;
  store::KeyRecord stored;
  {
    auto s = store::open_sqlite_store(tmp.path());
    store::NewKey k = new_key("tc_live_AAAA", 'a', "pro");
    k.rate_per_minute = 7;
    k.monthly_quota = 11;
    k.webhook_url = "https://hooks.example.com/a";
    k.webhook_secret = "whsec_b";
    ASSERT_TRUE(s->create_key(k));
    ASSERT_EQ(s->rotate_key("tc_live_AAAA", std::string(32, 'n'), 1'800'000'100),
              store::ChangeOutcome::Done);
    stored = s->load_keys().keys.at(0);
  }
  std::vector<std::string> columns;
  const std::string all = store::sqlite::kKeyColumns;
  for (size_t from = 0, comma; from < all.size(); from = comma + 2) {
    comma = std::min(all.find(", ", from), all.size());
    columns.push_back(all.substr(from, comma - from));
  }
  ASSERT_EQ(columns.size(), 13u);
  std::reverse(columns.begin(), columns.end());
  std::string sql = "SELECT ";
  for (const auto& c : columns) sql += (sql.size() > 7 ? ", " : "") + c;
  sql += " FROM api_keys k";

  Database db(store::sqlite_store_file(tmp.path()));
  Statement st(db, sql);
  const store::sqlite::KeyColumns reader(st);
  Statement::Use use(st);
  ASSERT_TRUE(use.step());
  EXPECT_TRUE(reader.read(use) == stored);
  EXPECT_EQ(stored.plan, "pro");  // a key whose every field is set
  EXPECT_EQ(stored.rate_per_minute, 7);
  EXPECT_EQ(stored.previous_expires_epoch_s, 1'800'000'100);
}
