#pragma once
// The shared backend: keys and counters in one Redis, so that any number of
// instances see the same keys and count against the same limits.
#include <memory>

#include "store/account_store.hpp"
#include "store/redis_client.hpp"
#include "store/shared_counters.hpp"

namespace toolcalc::store {

// Keys and monthly usage in Redis, behind the same interface as the SQLite store (the
// `toolcalc keys` commands and the key refresh of SharedAccounts). Throws StoreError, or
// StoreUnavailable when Redis cannot be reached.
std::unique_ptr<AccountStore> open_redis_store(const RedisOptions& options);

// Rate windows and monthly quotas in Redis: each step is one Lua script (EVALSHA), so one
// round trip and atomic across every instance.
std::unique_ptr<SharedCounters> open_redis_counters(const RedisOptions& options);

}  // namespace toolcalc::store
