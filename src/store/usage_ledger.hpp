#pragma once
// The usage ledger of one instance of a fleet on a shared store (docs/deploy.md, "Usage
// ledger"): executions served from the units Redis leased to the instance are counted here,
// in the instance's own SQLite file under its data directory, before their responses leave
// (group commit), and shipped to Redis a few milliseconds later. Each row is the
// instance's count of a key in a month, all of it, shipped or not: shipping sends that
// count, and Redis adds what it has not seen of it yet (redis_counters.cpp, kShipCount), so
// that a shipment repeated after a crash is counted once.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/account_store.hpp"

namespace toolcalc::store {

class UsageLedger {
 public:
  virtual ~UsageLedger() = default;

  // This ledger's name as a shipper: made when the ledger was created, kept with it (a
  // restarted instance ships as the one it was).
  virtual const std::string& instance_id() const = 0;
  // key id → the units this instance counted for the key in `period` ("YYYY-MM").
  virtual std::unordered_map<int64_t, int64_t> load_counts(std::string_view period) = 0;
  // Adds the deltas in one transaction, waiting for the file as long as it must; throws
  // StoreError when it cannot. Durable against the process being killed when it returns
  // (the write-ahead log), against a power loss after the next checkpoint().
  virtual void add_counts(const std::vector<UsageDelta>& deltas) = 0;
  // add_counts when it can start at once: false, having written nothing, otherwise.
  virtual bool add_counts_if_free(const std::vector<UsageDelta>& deltas) = 0;
  // Syncs what was added so far to the disk (AccountStore::checkpoint).
  virtual void checkpoint() = 0;
};

// The ledger in <data_dir>/toolcalc.db (table usage_ledger), for this process alone: a
// second process asking for the same directory's ledger gets a StoreError (two instances
// shipping as one would count each other's units as their own). The database is checked
// and created as open_sqlite_store's (store/store_directory.hpp).
std::unique_ptr<UsageLedger> open_usage_ledger(
    const std::filesystem::path& data_dir, NewStore new_store = NewStore::OnlyInAnUnusedDirectory);

}  // namespace toolcalc::store
