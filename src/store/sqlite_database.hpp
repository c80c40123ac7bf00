#pragma once
// The embedded store's SQLite connection: a Database, its prepared Statements (prepared
// once and reused, each execution through a Use guard, result columns found by name) and
// transactions. Not thread-safe: the store that owns a Database serialises its use
// (sqlite_account_store.hpp).
#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "store/store_errors.hpp"

namespace toolcalc::store::sqlite {

// How long a writer waits for another process's write transaction (a `toolcalc keys`
// command against a running server, or the reverse) before failing with "database is locked".
inline constexpr int kBusyTimeoutMs = 5000;

class Database;

// A prepared statement, prepared once and reused. Every use goes through a Use guard,
// which resets the statement (releasing its read snapshot) even when a step throws.
class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // The index of the result column named `name` (its AS alias). Readers look their columns
  // up once, when the statement is prepared, and read rows by the indexes found, so that a
  // reordered SELECT cannot make one column read as another. Throws StoreError naming the
  // statement when no column, or more than one, has that name.
  int column(std::string_view name) const;

  class Use {
   public:
    explicit Use(Statement& s) : s_(s) {
      sqlite3_reset(s_.stmt_);
      sqlite3_clear_bindings(s_.stmt_);
    }
    ~Use() { sqlite3_reset(s_.stmt_); }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

    Use& bind(int i, int64_t v) {
      check(sqlite3_bind_int64(s_.stmt_, i, v));
      return *this;
    }
    Use& bind_text(int i, std::string_view v) {
      check(sqlite3_bind_text(s_.stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      return *this;
    }
    Use& bind_optional(int i, const std::optional<int64_t>& v) {
      check(v ? sqlite3_bind_int64(s_.stmt_, i, *v) : sqlite3_bind_null(s_.stmt_, i));
      return *this;
    }
    Use& bind_blob(int i, std::string_view v) {
      check(sqlite3_bind_blob(s_.stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      return *this;
    }
    // true: a row is available; false: done.
    bool step();
    // For statements that return no row: true when done, false when SQLite answered busy.
    bool step_unless_busy();
    int64_t integer(int col) const { return sqlite3_column_int64(s_.stmt_, col); }
    bool is_null(int col) const { return sqlite3_column_type(s_.stmt_, col) == SQLITE_NULL; }
    std::optional<int64_t> optional_integer(int col) const {
      if (is_null(col)) return std::nullopt;
      return integer(col);
    }
    std::string text(int col) const {
      const auto* p = sqlite3_column_text(s_.stmt_, col);
      const int n = sqlite3_column_bytes(s_.stmt_, col);
      return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n))
               : std::string();
    }
    std::string blob(int col) const {
      const void* p = sqlite3_column_blob(s_.stmt_, col);
      const int n = sqlite3_column_bytes(s_.stmt_, col);
      return p ? std::string(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
    }

   private:
    void check(int rc);
    Statement& s_;
  };

 private:
  friend class Use;
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class Database {
 public:
  // Opens `file`; creates it only with `create` (the data directory's check decides that:
  // store_directory.hpp).
  explicit Database(std::filesystem::path file, bool create = false);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* handle() const { return db_; }
  const std::filesystem::path& file() const { return file_; }

  [[noreturn]] void fail(const std::string& what) const;
  void exec(const char* sql);
  // BEGIN, BEGIN IMMEDIATE, COMMIT: prepared on first use and kept, so that a transaction
  // does not parse its own control statements (a few microseconds of each group commit).
  enum Control { Begin, BeginImmediate, Commit };
  void control(Control c);
  // control, but false when SQLite answers busy (another connection holds the lock).
  bool try_control(Control c);
  // Runs a one-row, one-column query (PRAGMAs) and returns the value as text.
  std::string query_text(const char* sql);

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  std::array<std::unique_ptr<Statement>, 3> control_;
};

// BEGIN … COMMIT, rolled back when left without commit() (an exception).
class Transaction {
 public:
  // Begun: the caller has run BEGIN itself (Database::try_control); this one commits or
  // rolls it back.
  enum Kind { Read, Write, Begun };
  Transaction(Database& db, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

// For its scope, a writer that finds another process's write lock is answered SQLITE_BUSY
// at once instead of waiting kBusyTimeoutMs.
class NoBusyWait {
 public:
  explicit NoBusyWait(Database& db) : db_(db) { sqlite3_busy_timeout(db_.handle(), 0); }
  ~NoBusyWait() { sqlite3_busy_timeout(db_.handle(), kBusyTimeoutMs); }
  NoBusyWait(const NoBusyWait&) = delete;
  NoBusyWait& operator=(const NoBusyWait&) = delete;

 private:
  Database& db_;
};

}  // namespace toolcalc::store::sqlite
