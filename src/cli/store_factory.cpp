#include "cli/store_factory.hpp"

#include <algorithm>

#include "store/redis_store.hpp"

namespace toolcalc::cli {

bool uses_redis(const ServiceConfig& config) {
  return config.store_backend == "redis";
}

store::RedisOptions redis_options(const ServiceConfig& config) {
  store::RedisOptions o = store::parse_redis_url(config.redis_url);
  if (!config.redis_password.empty()) o.password = config.redis_password;
  o.command_timeout_ms = config.redis_timeout_ms;
  o.connect_timeout_ms = std::min(config.redis_timeout_ms, 1000);
  return o;
}

std::unique_ptr<store::AccountStore> open_account_store(const ServiceConfig& config,
                                                        store::NewStore new_store) {
  if (uses_redis(config)) return store::open_redis_store(redis_options(config));
  return store::open_sqlite_store(config.data_dir, new_store);
}

std::string store_description(const ServiceConfig& config) {
  if (uses_redis(config)) return "redis " + redis_options(config).url();
  return "data " + config.data_dir.string();
}

}  // namespace toolcalc::cli
