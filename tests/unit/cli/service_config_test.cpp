#include "cli/service_config.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <fstream>

#include "accounts/plans.hpp"

using namespace toolcalc;
namespace fs = std::filesystem;

namespace {

fs::path write_config(const std::string& text) {
  const fs::path path =
      fs::temp_directory_path() / ("toolcalc-config-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << text;
  return path;
}

std::string load_error(const std::string& text) {
  try {
    cli::load_service_config(write_config(text));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ServiceConfig, DefaultsWithoutAFile) {
  const auto c = cli::load_service_config(std::nullopt);
  EXPECT_EQ(c.host, "0.0.0.0");
  EXPECT_EQ(c.port, 8080);
  EXPECT_EQ(c.max_connections, 4096u);
  EXPECT_EQ(c.usage_flush_interval_ms, 1000);
  EXPECT_EQ(c.data_dir, "var");
  EXPECT_TRUE(c.access_log);
  EXPECT_EQ(accounts::find_plan(c.plans, "free")->rate_per_minute, 60);
  EXPECT_EQ(*accounts::find_plan(c.plans, "business")->monthly_quota, 5'000'000);
  EXPECT_FALSE(accounts::find_plan(c.plans, "anonymous")->monthly_quota.has_value());
}

TEST(ServiceConfig, TheShippedConfigIsTheDefaults) {
  const auto shipped =
      cli::load_service_config(fs::path(TOOLCALC_SOURCE_DIR) / "config" / "toolcalc.toml");
  const auto defaults = cli::load_service_config(std::nullopt);
  EXPECT_EQ(shipped.port, defaults.port);
  EXPECT_EQ(shipped.read_timeout_s, defaults.read_timeout_s);
  EXPECT_EQ(shipped.idle_timeout_s, defaults.idle_timeout_s);
  EXPECT_EQ(shipped.plans.size(), defaults.plans.size());
  for (const auto& p : defaults.plans) {
    const auto* s = accounts::find_plan(shipped.plans, p.name);
    ASSERT_NE(s, nullptr) << p.name;
    EXPECT_EQ(s->rate_per_minute, p.rate_per_minute) << p.name;
    EXPECT_EQ(s->monthly_quota, p.monthly_quota) << p.name;
  }
}

TEST(ServiceConfig, FileOverridesAndAddsPlans) {
  const auto c = cli::load_service_config(write_config(R"(
[server]
listen = "127.0.0.1:9000"
threads = 3
[store]
flush_interval_ms = 250
[plans.free]
rate_per_minute = 10
[plans.team]
rate_per_minute = 1200
monthly_quota = 250000
)"));
  EXPECT_EQ(c.host, "127.0.0.1");
  EXPECT_EQ(c.port, 9000);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.usage_flush_interval_ms, 250);
  EXPECT_EQ(accounts::find_plan(c.plans, "free")->rate_per_minute, 10);
  EXPECT_EQ(*accounts::find_plan(c.plans, "free")->monthly_quota, 1000);  // kept
  EXPECT_EQ(*accounts::find_plan(c.plans, "team")->monthly_quota, 250000);
}

TEST(ServiceConfig, BadValuesNameTheSetting) {
  EXPECT_NE(load_error("[server]\nthreads = -1\n").find("server.threads"), std::string::npos);
  EXPECT_NE(load_error("[server]\nlisten = \"nope\"\n").find("HOST:PORT"), std::string::npos);
  EXPECT_NE(load_error("[server]\nlisten = \"a:99999\"\n").find("port"), std::string::npos);
  EXPECT_NE(load_error("[server]\ncolour = 1\n").find("server.colour"), std::string::npos);
  EXPECT_NE(load_error("[store]\nbackend = \"redis\"\n").find("redis"), std::string::npos);
  EXPECT_NE(load_error("[plans.free]\nrate_per_minute = 0\n").find("plans.free.rate_per_minute"),
            std::string::npos);
  EXPECT_NE(load_error("[plans.anonymous]\nmonthly_quota = 5\n").find("anonymous"),
            std::string::npos);
  EXPECT_NE(load_error("[server\n").find(".toml:1"), std::string::npos);
}

TEST(ServiceConfig, RedisBackendNeedsAValidUrl) {
  const auto c = cli::load_service_config(write_config(
      "[store]\nbackend = \"redis\"\nurl = \"redis://10.1.2.3:6380/4\"\ntimeout_ms = 500\n"));
  EXPECT_EQ(c.store_backend, "redis");
  EXPECT_EQ(c.redis_url, "redis://10.1.2.3:6380/4");
  EXPECT_EQ(c.redis_timeout_ms, 500);
  EXPECT_EQ(cli::load_service_config(std::nullopt).store_backend, "sqlite");
  EXPECT_NE(load_error("[store]\nbackend = \"redis\"\n").find("store.url"), std::string::npos);
  EXPECT_NE(load_error("[store]\nbackend = \"redis\"\nurl = \"http://x\"\n").find("store.url"),
            std::string::npos);
  EXPECT_NE(load_error("[store]\nbackend = \"mongo\"\n").find("sqlite, redis"), std::string::npos);
  EXPECT_NE(load_error("[store]\ntimeout_ms = 0\n").find("store.timeout_ms"), std::string::npos);
}

TEST(ServiceConfig, ApplyListenParsesHostAndPort) {
  cli::ServiceConfig c;
  cli::apply_listen(c, "[::1]:0");
  EXPECT_EQ(c.host, "::1");
  EXPECT_EQ(c.port, 0);
  EXPECT_THROW(cli::apply_listen(c, ":80"), std::runtime_error);
  EXPECT_THROW(cli::apply_listen(c, "host:8x"), std::runtime_error);
}

TEST(ServiceConfig, AlertSettings) {
  const auto defaults = cli::load_service_config(std::nullopt);
  EXPECT_EQ(defaults.alerts_check_interval_ms, 1000);
  EXPECT_EQ(defaults.alerts_retry_initial_ms, 5000);
  EXPECT_EQ(defaults.alerts_timeout_ms, 10'000);
  const auto shipped =
      cli::load_service_config(fs::path(TOOLCALC_SOURCE_DIR) / "config" / "toolcalc.toml");
  EXPECT_EQ(shipped.alerts_retry_max_ms, defaults.alerts_retry_max_ms);
  EXPECT_EQ(shipped.alerts_give_up_after_s, defaults.alerts_give_up_after_s);
  const auto c = cli::load_service_config(
      write_config("[alerts]\ncheck_interval_ms = 200\nretry_initial_ms = 300\n"));
  EXPECT_EQ(c.alerts_check_interval_ms, 200);
  EXPECT_EQ(c.alerts_retry_initial_ms, 300);
  EXPECT_NE(load_error("[alerts]\ntimeout_ms = 5\n").find("alerts.timeout_ms"), std::string::npos);
  EXPECT_NE(load_error("[alerts]\nurl = \"x\"\n").find("alerts.url"), std::string::npos);
}
