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
  EXPECT_EQ(c.max_connections_per_address, 256u);
  EXPECT_EQ(c.flush_interval_ms, 1000);
  EXPECT_TRUE(c.acknowledge_after_commit);
  EXPECT_EQ(c.data_dir, "var");
  EXPECT_TRUE(c.access_log);
  EXPECT_EQ(c.analysis_threads, 1);
  EXPECT_EQ(c.access_log_buffer_kb, 64);
  EXPECT_EQ(c.access_log_flush_ms, 1000);
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
  EXPECT_EQ(shipped.max_connections, defaults.max_connections);
  EXPECT_EQ(shipped.max_connections_per_address, defaults.max_connections_per_address);
  EXPECT_EQ(shipped.analysis_threads, defaults.analysis_threads);
  EXPECT_EQ(shipped.access_log_buffer_kb, defaults.access_log_buffer_kb);
  EXPECT_EQ(shipped.access_log_flush_ms, defaults.access_log_flush_ms);
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
acknowledge_after_commit = false
[plans.free]
rate_per_minute = 10
[plans.team]
rate_per_minute = 1200
monthly_quota = 250000
)"));
  EXPECT_EQ(c.host, "127.0.0.1");
  EXPECT_EQ(c.port, 9000);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.flush_interval_ms, 250);
  EXPECT_FALSE(c.acknowledge_after_commit);
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

// The background flush's interval is store.flush_interval_ms in the file, the environment
// and ServiceConfig alike; the names it had in the code were never settings and stay refused.
TEST(ServiceConfig, TheFlushIntervalHasOneName) {
  EXPECT_EQ(
      cli::load_service_config(write_config("[store]\nflush_interval_ms = 40\n")).flush_interval_ms,
      40);
  EXPECT_EQ(cli::load_service_config(std::nullopt, {{"TOOLCALC_STORE_FLUSH_INTERVAL_MS", "60000"}})
                .flush_interval_ms,
            60000);
  EXPECT_NE(load_error("[store]\nflush_interval_ms = 9\n")
                .find("store.flush_interval_ms must be an integer from 10 to 60000"),
            std::string::npos);
  EXPECT_EQ(load_error("[store]\nusage_flush_interval_ms = 250\n"),
            "config: unknown setting store.usage_flush_interval_ms");
  EXPECT_EQ(load_error("[store]\nhistory_flush_interval = 250\n"),
            "config: unknown setting store.history_flush_interval");
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

TEST(ServiceConfig, AnalysisThreads) {
  const auto c = cli::load_service_config(write_config("[server]\nanalysis_threads = 3\n"));
  EXPECT_EQ(c.analysis_threads, 3);
  EXPECT_EQ(
      cli::load_service_config(write_config("[server]\nanalysis_threads = 0\n")).analysis_threads,
      0);
  EXPECT_NE(load_error("[server]\nanalysis_threads = -1\n").find("analysis_threads"),
            std::string::npos);
  EXPECT_NE(load_error("[server]\nanalysis_threads = 257\n").find("analysis_threads"),
            std::string::npos);
}

TEST(ServiceConfig, MaxConnectionsPerAddress) {
  EXPECT_EQ(cli::load_service_config(write_config("[server]\nmax_connections_per_address = 8\n"))
                .max_connections_per_address,
            8u);
  EXPECT_EQ(cli::load_service_config(write_config("[server]\nmax_connections_per_address = 0\n"))
                .max_connections_per_address,
            0u);
  EXPECT_NE(load_error("[server]\nmax_connections_per_address = -1\n")
                .find("server.max_connections_per_address must be an integer from 0"),
            std::string::npos);
  EXPECT_NE(load_error("[server]\nmax_connections_per_address = 1000001\n")
                .find("server.max_connections_per_address"),
            std::string::npos);
}

TEST(ServiceConfig, AccessLogBufferAndFlushInterval) {
  const auto c = cli::load_service_config(write_config(R"(
[server]
access_log_buffer_kb = 256
access_log_flush_ms = 0
)"));
  EXPECT_EQ(c.access_log_buffer_kb, 256);
  EXPECT_EQ(c.access_log_flush_ms, 0);
  // At most a second in memory: what kill -9 may lose stays bounded.
  EXPECT_NE(load_error("[server]\naccess_log_flush_ms = 1001\n").find("access_log_flush_ms"),
            std::string::npos);
  EXPECT_NE(load_error("[server]\naccess_log_buffer_kb = 0\n").find("access_log_buffer_kb"),
            std::string::npos);
}

// --- the environment ------------------------------------------------------------------

namespace {

std::string env_error(const cli::Environment& env, const std::string& text = "") {
  try {
    cli::load_service_config(
        text.empty() ? std::nullopt : std::optional<fs::path>(write_config(text)), env);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ServiceConfig, EnvironmentNamesFollowOneRule) {
  EXPECT_EQ(cli::environment_name("server", "listen"), "TOOLCALC_SERVER_LISTEN");
  EXPECT_EQ(cli::environment_name("store", "key_refresh_ms"), "TOOLCALC_STORE_KEY_REFRESH_MS");
  EXPECT_EQ(cli::environment_name("catalog", "dir"), "TOOLCALC_CATALOG_DIR");
}

// Precedence: built-in defaults < the file < the environment (< flags, applied by serve).
TEST(ServiceConfig, EnvironmentOverridesTheFile) {
  const auto file = write_config(R"(
[server]
listen = "127.0.0.1:9000"
threads = 3
access_log = true
[store]
flush_interval_ms = 250
[plans.free]
rate_per_minute = 10
)");
  const cli::Environment env{
      {"TOOLCALC_SERVER_LISTEN", "10.0.0.1:7000"},
      {"TOOLCALC_SERVER_ACCESS_LOG", "false"},
      {"TOOLCALC_SERVER_MCP_ALLOWED_ORIGINS", "https://a.example, https://b"},
      {"TOOLCALC_SERVER_LOG_LEVEL", "warn"},
      {"TOOLCALC_STORE_DATA_DIR", "/srv/toolcalc"},
      {"TOOLCALC_CATALOG_DIR", "/opt/catalog"},
      {"TOOLCALC_PLANS_FREE_MONTHLY_QUOTA", "5"},
      {"TOOLCALC_PLANS_TEAM_RATE_PER_MINUTE", "900"},
      {"TOOLCALC_BIN", "ignored: not a setting's section"}};
  const auto c = cli::load_service_config(file, env);
  EXPECT_EQ(c.host, "10.0.0.1");
  EXPECT_EQ(c.port, 7000);
  EXPECT_EQ(c.threads, 3);  // from the file
  EXPECT_FALSE(c.access_log);
  EXPECT_EQ(c.mcp_allowed_origins, (std::vector<std::string>{"https://a.example", "https://b"}));
  EXPECT_EQ(c.log_level, "warn");
  EXPECT_EQ(c.data_dir, "/srv/toolcalc");
  EXPECT_EQ(c.catalog_dir, "/opt/catalog");
  EXPECT_EQ(c.flush_interval_ms, 250);                                   // from the file
  EXPECT_EQ(accounts::find_plan(c.plans, "free")->rate_per_minute, 10);  // file
  EXPECT_EQ(*accounts::find_plan(c.plans, "free")->monthly_quota, 5);    // environment
  EXPECT_EQ(accounts::find_plan(c.plans, "team")->rate_per_minute, 900);
  // without a file too
  EXPECT_EQ(cli::load_service_config(std::nullopt, {{"TOOLCALC_SERVER_THREADS", "7"}}).threads, 7);
}

TEST(ServiceConfig, SecretsComeFromFilesNamedByTheEnvironment) {
  const fs::path secret =
      fs::temp_directory_path() / ("toolcalc-secret-" + std::to_string(::getpid()));
  std::ofstream(secret) << "p4ss word\n";
  const auto c = cli::load_service_config(
      write_config("[store]\nbackend = \"redis\"\nurl = \"redis://:inurl@10.1.2.3:6380/4\"\n"),
      {{"TOOLCALC_STORE_PASSWORD_FILE", secret.string()}});
  EXPECT_EQ(c.redis_password, "p4ss word");  // one trailing newline dropped
  EXPECT_NE(env_error({{"TOOLCALC_STORE_PASSWORD_FILE", "/nonexistent/secret"}})
                .find("TOOLCALC_STORE_PASSWORD_FILE: cannot read /nonexistent/secret"),
            std::string::npos);
  EXPECT_NE(env_error({{"TOOLCALC_STORE_PASSWORD", "a"},
                       {"TOOLCALC_STORE_PASSWORD_FILE", secret.string()}})
                .find("not both"),
            std::string::npos);
  // any setting can come from a file
  const fs::path url = secret.string() + ".url";
  std::ofstream(url) << "redis://10.9.8.7:6379/2\n";
  EXPECT_EQ(
      cli::load_service_config(std::nullopt, {{"TOOLCALC_STORE_URL_FILE", url.string()}}).redis_url,
      "redis://10.9.8.7:6379/2");
  fs::remove(secret);
  fs::remove(url);
}

TEST(ServiceConfig, EnvironmentErrorsNameTheVariable) {
  EXPECT_NE(env_error({{"TOOLCALC_SERVER_THREADS", "many"}}).find("TOOLCALC_SERVER_THREADS"),
            std::string::npos);
  EXPECT_NE(env_error({{"TOOLCALC_SERVER_ACCESS_LOG", "yes"}}).find("true or false"),
            std::string::npos);
  EXPECT_NE(
      env_error({{"TOOLCALC_SERVER_THREDS", "2"}}).find("unknown setting TOOLCALC_SERVER_THREDS"),
      std::string::npos);
  EXPECT_NE(env_error({{"TOOLCALC_PLANS_PRO_RATE", "2"}}).find("TOOLCALC_PLANS_PRO_RATE"),
            std::string::npos);
  EXPECT_NE(env_error({{"TOOLCALC_SERVER_THREADS", "999"}}).find("server.threads"),
            std::string::npos);
  EXPECT_NE(env_error({{"TOOLCALC_SERVER_LOG_LEVEL", "loud"}}).find("server.log_level"),
            std::string::npos);
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

TEST(ServiceConfig, AlertDeliverySettings) {
  const auto defaults = cli::load_service_config(std::nullopt);
  EXPECT_EQ(defaults.alerts_delivery_threads, 4);
  EXPECT_EQ(defaults.alerts_per_receiver, 2);
  EXPECT_TRUE(defaults.alerts_allow_private_receivers.empty()) << "public receivers only";
  const auto shipped =
      cli::load_service_config(fs::path(TOOLCALC_SOURCE_DIR) / "config" / "toolcalc.toml");
  EXPECT_EQ(shipped.alerts_delivery_threads, 4);
  EXPECT_TRUE(shipped.alerts_allow_private_receivers.empty());
  const auto c = cli::load_service_config(
      write_config("[alerts]\ndelivery_threads = 8\nper_receiver = 1\n"
                   "allow_private_receivers = [\"127.0.0.0/8\", \"fd00::/8\", \"10.1.2.3\"]\n"));
  EXPECT_EQ(c.alerts_delivery_threads, 8);
  EXPECT_EQ(c.alerts_per_receiver, 1);
  ASSERT_EQ(c.alerts_allow_private_receivers.size(), 3u);
  EXPECT_EQ(c.alerts_allow_private_receivers[0].prefix_len, 8);
  EXPECT_TRUE(c.alerts_allow_private_receivers[1].v6);
  EXPECT_EQ(c.alerts_allow_private_receivers[2].prefix_len, 32);
  for (const char* bad :
       {"allow_private_receivers = \"127.0.0.0/8\"", "allow_private_receivers = [\"127.1/8\"]",
        "allow_private_receivers = [\"10.0.0.0/33\"]", "allow_private_receivers = [8]"})
    EXPECT_NE(
        load_error(std::string("[alerts]\n") + bad + "\n").find("alerts.allow_private_receivers"),
        std::string::npos)
        << bad;
  EXPECT_NE(load_error("[alerts]\ndelivery_threads = 0\n").find("alerts.delivery_threads"),
            std::string::npos);
  EXPECT_NE(load_error("[alerts]\nper_receiver = 17\n").find("alerts.per_receiver"),
            std::string::npos);
  const auto from_env = cli::load_service_config(
      std::nullopt, {{"TOOLCALC_ALERTS_ALLOW_PRIVATE_RECEIVERS", "127.0.0.0/8, ::1"}});
  EXPECT_EQ(from_env.alerts_allow_private_receivers.size(), 2u);
}
