#include "store/store_directory.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>

#include "store/store_errors.hpp"
#include "store/usage_journal.hpp"

namespace toolcalc::store {
namespace fs = std::filesystem;
namespace {

constexpr const char* kNewStoreHint =
    "to start a new, empty store on purpose (every key and count is then gone), run "
    "`toolcalc serve --new-store` (or `toolcalc keys create --new-store`) once";

std::string utc_text(int64_t epoch_s, const char* format) {
  const std::time_t t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[32];
  std::strftime(out, sizeof out, format, &tm);
  return out;
}

std::string id_text(int64_t id) {
  char out[17];
  std::snprintf(out, sizeof out, "%016" PRIx64, static_cast<uint64_t>(id));
  return out;
}

// The marker as found: absent, present with an id, or present but unreadable.
struct Marker {
  bool present = false;
  std::optional<StoreIdentity> identity;
};

Marker read_marker(const fs::path& data_dir) {
  Marker m;
  std::ifstream in(store_marker_file(data_dir));
  if (!in) {
    m.present = fs::exists(store_marker_file(data_dir));
    return m;
  }
  m.present = true;
  std::optional<uint64_t> id, created;
  for (std::string line; std::getline(in, line);) {
    unsigned long long v = 0;
    char end = 0;
    if (std::sscanf(line.c_str(), "id=%16llx%c", &v, &end) == 1) id = v;
    if (std::sscanf(line.c_str(), "created_epoch_s=%llu%c", &v, &end) == 1) created = v;
  }
  if (id && created)
    m.identity = StoreIdentity{static_cast<int64_t>(*id), static_cast<int64_t>(*created)};
  return m;
}

// What a database file holds, read without changing it.
struct DatabaseFile {
  enum State { Missing, Empty, Unreadable, Present } state = Missing;
  std::string why;                        // Empty, Unreadable: in words
  std::optional<StoreIdentity> identity;  // Present: none for a database older than ids
};

// `file` as the path of a file: URI (RFC 3986: anything but unreserved characters and '/'
// percent-encoded).
std::string uri_path(const fs::path& file) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : fs::absolute(file).string()) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// A query's one integer (0 when it returns no row), or nullopt on an error.
std::optional<int64_t> integer(sqlite3* db, const char* sql) {
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  std::optional<int64_t> out;
  if (rc == SQLITE_ROW) out = sqlite3_column_int64(st, 0);
  if (rc == SQLITE_DONE) out = 0;
  sqlite3_finalize(st);
  return out;
}

// Within one read transaction (left open for the caller to end). `size`: the file's.
DatabaseFile read_tables(sqlite3* db, uintmax_t size) {
  const auto unreadable = [db] {
    return DatabaseFile{DatabaseFile::Unreadable, sqlite3_errmsg(db), {}};
  };
  if (sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK) return unreadable();
  // A SQLite file is whole pages: a size that is not is a file cut short.
  const std::optional<int64_t> page = integer(db, "PRAGMA page_size");
  if (!page) return unreadable();
  if (*page > 0 && size % static_cast<uintmax_t>(*page) != 0)
    return {DatabaseFile::Unreadable,
            std::to_string(size) + " bytes, not a whole number of its " + std::to_string(*page) +
                "-byte pages: cut short",
            {}};
  const std::optional<int64_t> tables = integer(db, "SELECT count(*) FROM sqlite_master");
  if (!tables) return unreadable();
  if (*tables == 0) return {DatabaseFile::Empty, "empty (no tables)", {}};
  const std::optional<int64_t> version = integer(db, "PRAGMA user_version");
  if (!version) return unreadable();
  if (*version == 0)
    return {DatabaseFile::Unreadable, "holds tables but no toolcalc schema version", {}};
  // Counting the rows of the tables a request depends on reads their pages: a file cut at a
  // page boundary fails here ("database disk image is malformed").
  for (const char* sql : {"SELECT count(*) FROM meta", "SELECT count(*) FROM api_keys",
                          "SELECT count(*) FROM monthly_usage"})
    if (!integer(db, sql)) return unreadable();
  const std::optional<int64_t> id = integer(db, "SELECT value FROM meta WHERE name = 'store_id'");
  const std::optional<int64_t> created =
      integer(db, "SELECT value FROM meta WHERE name = 'store_created_at'");
  if (!id || !created) return unreadable();
  DatabaseFile d{DatabaseFile::Present, "", {}};
  if (*id != 0) d.identity = StoreIdentity{*id, *created};
  return d;
}

DatabaseFile inspect(const fs::path& file) {
  DatabaseFile d;
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);
  if (!fs::exists(status)) return d;
  if (!fs::is_regular_file(status)) return {DatabaseFile::Unreadable, "not a regular file", {}};
  const uintmax_t size = fs::file_size(file, ec);
  if (ec) return {DatabaseFile::Unreadable, ec.message(), {}};
  if (size == 0) return {DatabaseFile::Empty, "empty (0 bytes)", {}};

  // Only through SQLite: the file is never opened otherwise, since closing a descriptor of
  // it would drop the POSIX locks this process's own connections hold on it (fcntl locks
  // are per process), and another process closing the database would then take itself for
  // the last one and delete the write-ahead log under them.
  // Read-only: nothing is written, and closing never checkpoints a write-ahead log into it.
  // Without a write-ahead log beside the file, opened as immutable: a read-only connection
  // would otherwise create an empty log (and its index), itself a sign of use. (An
  // immutable connection takes no lock and closes its descriptor at once; with no log, no
  // connection of this process has the database open in WAL mode, so it drops none.)
  std::error_code no_wal;
  const bool immutable = !fs::exists(fs::path(file.string() + "-wal"), no_wal);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(
          immutable ? ("file:" + uri_path(file) + "?immutable=1").c_str() : file.c_str(), &db,
          SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 5000);
    d = read_tables(db, size);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  } else {
    d = {DatabaseFile::Unreadable, db ? sqlite3_errmsg(db) : "cannot open", {}};
  }
  sqlite3_close(db);
  return d;
}

// The files that show a store was used in the directory.
std::vector<std::string> earlier_use(const fs::path& data_dir) {
  std::vector<std::string> found;
  const fs::path db = sqlite_store_file(data_dir);
  for (const fs::path& f : {store_marker_file(data_dir), usage_journal_file(data_dir),
                            data_dir / "ledger.lock", fs::path(db.string() + "-wal")}) {
    std::error_code ec;
    if (fs::exists(f, ec)) found.push_back(f.filename().string());
  }
  return found;
}

// The earlier store's files a new database would take up (the database too, when it is
// there: empty or unreadable).
std::vector<fs::path> files_to_set_aside(const fs::path& data_dir) {
  const fs::path db = sqlite_store_file(data_dir);
  std::vector<fs::path> out;
  for (const fs::path& f : {db, fs::path(db.string() + "-wal"), fs::path(db.string() + "-shm"),
                            usage_journal_file(data_dir)}) {
    std::error_code ec;
    if (fs::exists(f, ec)) out.push_back(f);
  }
  return out;
}

void sync_and_close(int fd, const fs::path& file) {
  const bool ok = ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!ok) throw StoreError(file.string() + ": cannot sync: " + std::strerror(error));
}

}  // namespace

std::string describe_store(const StoreIdentity& s) {
  return "store " + id_text(s.id) + " (created " + utc_text(s.created_epoch_s, "%FT%TZ") + ")";
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

fs::path store_marker_file(const fs::path& data_dir) {
  return data_dir / "toolcalc.store-id";
}

StoreOpening check_store_directory(const fs::path& data_dir, NewStore new_store) {
  const fs::path db_file = sqlite_store_file(data_dir);
  const bool on_purpose = new_store == NewStore::EvenInAUsedOne;
  StoreOpening out;
  out.earlier_use = earlier_use(data_dir);
  const DatabaseFile db = inspect(db_file);
  if (db.state == DatabaseFile::Present) {
    if (on_purpose)
      throw StoreError(db_file.string() + " holds a store already" +
                       (db.identity ? " (" + describe_store(*db.identity) + ")" : std::string()) +
                       ": --new-store creates a store only where the database is missing, "
                       "empty or unreadable; start without it");
    const Marker marker = read_marker(data_dir);
    if (db.identity && marker.identity && marker.identity->id != db.identity->id)
      throw StoreError(
          db_file.string() + " holds " + describe_store(*db.identity) + ", but " +
          store_marker_file(data_dir).string() + " names " + describe_store(*marker.identity) +
          ": the database is another store's, and this directory's usage journal belongs to "
          "the marker's. Put that store's database back, or, if this one was put in place on "
          "purpose, remove " +
          store_marker_file(data_dir).filename().string() + " and " +
          usage_journal_file(data_dir).filename().string() + " and start again");
    return out;
  }
  // Missing, empty or unreadable: a new store on purpose takes the place of whatever is there.
  if (on_purpose) {
    out.create = true;
    out.set_aside = files_to_set_aside(data_dir);
    return out;
  }
  if (db.state == DatabaseFile::Unreadable)
    throw StoreError(db_file.string() + " cannot be read as a toolcalc database (" + db.why +
                     "): refusing to open it; the file is left as it is. Restore it from a "
                     "backup (docs/operations.md, \"Backing up\"); or, " +
                     kNewStoreHint + " (the file is then renamed aside, kept for recovery)");
  if (!out.earlier_use.empty())
    throw StoreError(
        "the data directory " + data_dir.string() + " was used by a store before (found: " +
        joined(out.earlier_use) + "), but its database " + db_file.filename().string() + " is " +
        (db.state == DatabaseFile::Missing ? std::string("missing") : db.why) +
        ": refusing to start with an empty store, which would refuse every key. Restore " +
        db_file.filename().string() + " from a backup (docs/operations.md, \"Backing up\"); or, " +
        kNewStoreHint);
  out.create = true;
  return out;
}

void set_aside(const std::vector<fs::path>& files) {
  const std::string suffix = ".replaced-" + utc_text(std::time(nullptr), "%Y%m%dT%H%M%SZ");
  for (const fs::path& f : files) {
    std::error_code ec;
    fs::rename(f, fs::path(f.string() + suffix), ec);
    if (ec) throw StoreError(f.string() + ": cannot rename it aside: " + ec.message());
  }
}

MarkerChange record_store_identity(const fs::path& data_dir, const StoreIdentity& identity) {
  const Marker marker = read_marker(data_dir);
  if (marker.identity && marker.identity->id == identity.id) return MarkerChange::None;
  const fs::path file = store_marker_file(data_dir);
  const fs::path temporary = file.string() + ".tmp";
  std::ostringstream text;
  text << "# The store in toolcalc.db beside this file; toolcalc refuses a database of\n"
          "# another store here, or none (docs/operations.md, \"The data directory\").\n"
       << "id=" << id_text(identity.id) << "\n"
       << "created=" << utc_text(identity.created_epoch_s, "%FT%TZ") << "\n"
       << "created_epoch_s=" << identity.created_epoch_s << "\n";
  const std::string bytes = text.str();
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw StoreError(temporary.string() + ": cannot create: " + std::strerror(errno));
  if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    const int error = errno;
    ::close(fd);
    throw StoreError(temporary.string() + ": cannot write: " + std::strerror(error));
  }
  sync_and_close(fd, temporary);
  std::error_code ec;
  fs::rename(temporary, file, ec);
  if (ec) throw StoreError(file.string() + ": cannot write: " + ec.message());
  // The rename is in the directory: synced so that the marker outlives a power loss.
  const int dir = ::open(data_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) sync_and_close(dir, data_dir);
  return marker.present ? MarkerChange::Rewritten : MarkerChange::Written;
}

}  // namespace toolcalc::store
