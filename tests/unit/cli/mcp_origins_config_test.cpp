// [server] mcp_allowed_origins: the browser origins allowed on /mcp
// besides loopback ones.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "cli/service_config.hpp"

using namespace toolcalc;
namespace fs = std::filesystem;

namespace {

cli::ServiceConfig load(const std::string& text) {
  const fs::path path =
      fs::temp_directory_path() / ("toolcalc-mcp-origins-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << text;
  auto config = cli::load_service_config(path);
  fs::remove(path);
  return config;
}

}  // namespace

TEST(McpOriginsConfig, EmptyByDefaultAndReadFromServer) {
  EXPECT_TRUE(cli::load_service_config(std::nullopt).mcp_allowed_origins.empty());
  const auto c =
      load("[server]\nmcp_allowed_origins = [\"https://app.example.com\", \"http://x.test:81\"]\n");
  EXPECT_EQ(c.mcp_allowed_origins,
            (std::vector<std::string>{"https://app.example.com", "http://x.test:81"}));
}

TEST(McpOriginsConfig, OnlyAnArrayOfStrings) {
  for (const char* bad :
       {"[server]\nmcp_allowed_origins = \"https://a.example\"\n",
        "[server]\nmcp_allowed_origins = [1]\n", "[server]\nmcp_allowed_origins = [\"\"]\n"}) {
    try {
      load(bad);
      ADD_FAILURE() << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("server.mcp_allowed_origins"), std::string::npos);
    }
  }
}
