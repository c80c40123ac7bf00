#include "store/sqlite_database.hpp"

#include <utility>

namespace toolcalc::store::sqlite {

Statement::Statement(Database& db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v3(db.handle(), sql.data(), static_cast<int>(sql.size()),
                         SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK)
    db.fail("prepare " + std::string(sql));
}

int Statement::column(std::string_view name) const {
  int found = -1, matches = 0;
  for (int i = 0; i < sqlite3_column_count(stmt_); ++i)
    if (const char* n = sqlite3_column_name(stmt_, i); n != nullptr && name == n)
      found = i, ++matches;
  if (matches == 1) return found;
  throw StoreError(db_.file().string() + ": " + (matches == 0 ? "no" : "more than one") +
                   " result column named '" + std::string(name) + "' in " + sqlite3_sql(stmt_));
}

bool Statement::Use::step() {
  const int rc = sqlite3_step(s_.stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  s_.db_.fail(sqlite3_sql(s_.stmt_));
}

bool Statement::Use::step_unless_busy() {
  const int rc = sqlite3_step(s_.stmt_);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return true;
  if ((rc & 0xff) == SQLITE_BUSY) return false;
  s_.db_.fail(sqlite3_sql(s_.stmt_));
}

void Statement::Use::check(int rc) {
  if (rc != SQLITE_OK) s_.db_.fail("bind");
}

Database::Database(std::filesystem::path file, bool create) : file_(std::move(file)) {
  const int rc = sqlite3_open_v2(
      file_.c_str(), &db_, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(file_.string() + ": cannot open: " + msg);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() {
  for (auto& st : control_) st.reset();  // finalised before the connection closes
  sqlite3_close(db_);  // the owner's statements are finalised first (declared later)
}

void Database::fail(const std::string& what) const {
  throw StoreError(file_.string() + ": " + what + ": " + sqlite3_errmsg(db_));
}

void Database::exec(const char* sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
}

namespace {
constexpr std::array<const char*, 3> kControlSql = {"BEGIN", "BEGIN IMMEDIATE", "COMMIT"};
}  // namespace

void Database::control(Control c) {
  if (!try_control(c)) fail(kControlSql[c]);
}

bool Database::try_control(Control c) {
  auto& st = control_[c];
  if (!st) st = std::make_unique<Statement>(*this, kControlSql[c]);
  Statement::Use use(*st);
  return use.step_unless_busy();
}

std::string Database::query_text(const char* sql) {
  Statement st(*this, sql);
  Statement::Use use(st);
  if (!use.step()) return {};
  return use.text(0);
}

Transaction::Transaction(Database& db, Kind kind) : db_(db) {
  // IMMEDIATE takes the write lock up front, so a writer waits (busy_timeout) at BEGIN
  // instead of failing when it upgrades a read transaction another writer overtook.
  if (kind != Begun) db_.control(kind == Write ? Database::BeginImmediate : Database::Begin);
}

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.control(Database::Commit);
  done_ = true;
}

}  // namespace toolcalc::store::sqlite
