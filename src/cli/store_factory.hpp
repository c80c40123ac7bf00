#pragma once
// The account store the config names ([store] backend): the embedded SQLite file under
// data_dir, or the shared Redis at store.url. Used by `serve` and `toolcalc keys`.
#include <memory>
#include <string>

#include "cli/service_config.hpp"
#include "store/account_store.hpp"
#include "store/redis_client.hpp"

namespace toolcalc::cli {

bool uses_redis(const ServiceConfig& config);
store::RedisOptions redis_options(const ServiceConfig& config);

// Throws store::StoreError (or accounts::StoreUnavailable when Redis is unreachable).
// `new_store` applies to the embedded store (store/store_directory.hpp).
std::unique_ptr<store::AccountStore> open_account_store(
    const ServiceConfig& config,
    store::NewStore new_store = store::NewStore::OnlyInAnUnusedDirectory);

// For the start-up line: "data var" or "redis redis://HOST:PORT/DB" (never a password).
std::string store_description(const ServiceConfig& config);

}  // namespace toolcalc::cli
