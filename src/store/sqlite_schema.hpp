#pragma once
// The embedded store's schema: its tables, the migration from every earlier version, the
// settings every connection that writes runs with, and the rows of `meta` that name the
// database (its store identity, the ledger's instance name).
#include <string>

#include "store/sqlite_database.hpp"
#include "store/store_directory.hpp"

namespace toolcalc::store::sqlite {

// Bump when the schema changes, and add the migration from the previous version in
// sqlite_schema.cpp.
inline constexpr int kSchemaVersion = 3;

// Sets the connection up (busy timeout, WAL, synchronous = NORMAL, no automatic checkpoint,
// foreign keys) and brings the schema to kSchemaVersion in one write transaction. Throws
// StoreError for a database made by a newer toolcalc.
Database& configure(Database& db);

// The store this database holds (store_directory.hpp).
StoreIdentity read_identity(Database& db);

// The name this database's usage ledger ships as (usage_ledger.hpp): 16 hex digits.
std::string read_ledger_instance(Database& db);

}  // namespace toolcalc::store::sqlite
