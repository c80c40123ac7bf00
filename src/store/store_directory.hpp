#pragma once
// The embedded store's data directory, checked before its database is opened: a store that
// held data never starts empty in silence (docs/operations.md, "The data directory").
//
// A database that is missing or empty (zero bytes, no tables) is created only where the
// directory shows no earlier use: no store marker, no usage journal, no ledger lock and no
// write-ahead log. Where it does, the open is refused with what was found, unless it is a
// new store on purpose (NewStore::EvenInAUsedOne: `serve --new-store`), and a database that
// SQLite cannot read, or that is cut short, is always refused and left as it is. The
// marker, `toolcalc.store-id`, written atomically when the database is created (or first
// opened by a toolcalc that writes one), names the store by an id the database keeps too:
// a database whose id is another than the marker's (another store's file put in place) is
// refused as well, since the directory's usage journal belongs to the marker's store.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "store/account_store.hpp"

namespace toolcalc::store {

// The store a database holds: an id (63 random bits, made with the database) and when
// it was made (or first opened by a toolcalc that keeps an id, for an older database).
struct StoreIdentity {
  int64_t id = 0;
  int64_t created_epoch_s = 0;
};

// "store 3f2a…c01d (created 2026-11-28T16:06:25Z)", for messages.
std::string describe_store(const StoreIdentity& identity);

// "a, b, c", for messages (file names).
std::string joined(const std::vector<std::string>& names);

// `<data_dir>/toolcalc.store-id`.
std::filesystem::path store_marker_file(const std::filesystem::path& data_dir);

// What opening the store of a data directory does, decided before anything there changes.
struct StoreOpening {
  // No database (or an empty one) where that is allowed: one is created.
  bool create = false;
  // With NewStore::EvenInAUsedOne: the earlier store's files that a new database would
  // otherwise take up (its empty database file, write-ahead log and its index, usage
  // journal), renamed aside before it is created.
  std::vector<std::filesystem::path> set_aside;
  // The files that show the directory's earlier use, by name.
  std::vector<std::string> earlier_use;
};

// Reads the directory and its database (read-only) and decides; throws StoreError, naming
// the files found and the way out, when the open is refused.
StoreOpening check_store_directory(const std::filesystem::path& data_dir, NewStore new_store);

// Renames each of `files` to `<name>.replaced-<UTC time>`; throws StoreError when one
// cannot be renamed.
void set_aside(const std::vector<std::filesystem::path>& files);

// Once the database is open with `identity`: writes the marker (to a temporary file,
// synced, then renamed over) when it is missing, unreadable or names another store (a
// database made before stores had ids, which got its id now), and says which. Throws
// StoreError when it cannot be written.
enum class MarkerChange { None, Written, Rewritten };
MarkerChange record_store_identity(const std::filesystem::path& data_dir,
                                   const StoreIdentity& identity);

}  // namespace toolcalc::store
