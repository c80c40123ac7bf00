// The admin token from the environment: TOOLCALC_ADMIN_TOKEN or the file named by
// TOOLCALC_ADMIN_TOKEN_FILE, never both, at least 32 characters.
#include "cli/admin_token.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

using namespace toolcalc;

namespace {

const std::string kToken(40, 'k');

// Sets (or with nullptr clears) both variables for one test, and clears them after it.
struct Environment {
  Environment(const char* value, const char* file) {
    set("TOOLCALC_ADMIN_TOKEN", value);
    set("TOOLCALC_ADMIN_TOKEN_FILE", file);
  }
  ~Environment() {
    unsetenv("TOOLCALC_ADMIN_TOKEN");
    unsetenv("TOOLCALC_ADMIN_TOKEN_FILE");
  }
  static void set(const char* name, const char* value) {
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
};

std::string error_of(const char* value, const char* file) {
  Environment env(value, file);
  try {
    cli::admin_token_from_environment();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(AdminToken, NoneMeansOff) {
  Environment env(nullptr, nullptr);
  EXPECT_EQ(cli::admin_token_from_environment(), "");
}

TEST(AdminToken, FromTheVariableOrAFile) {
  {
    Environment env(kToken.c_str(), nullptr);
    EXPECT_EQ(cli::admin_token_from_environment(), kToken);
  }
  const auto path = std::filesystem::temp_directory_path() /
                    ("toolcalc-admin-token-" + std::to_string(::getpid()));
  std::ofstream(path) << kToken << "\n";  // a file's trailing newline is not the token's
  {
    Environment env(nullptr, path.c_str());
    EXPECT_EQ(cli::admin_token_from_environment(), kToken);
  }
  EXPECT_NE(error_of(kToken.c_str(), path.c_str()).find("not both"), std::string::npos);
  std::filesystem::remove(path);
  EXPECT_NE(error_of(nullptr, path.c_str()).find("cannot read"), std::string::npos);
}

TEST(AdminToken, TooShortOrWithSpacesIsRefused) {
  EXPECT_NE(error_of("short", nullptr).find("at least 32 characters"), std::string::npos);
  // Appended in place: g++ 12 warns falsely (-Warray-bounds) on operator+ here at -O1.
  std::string spaced(20, 'a');
  spaced += ' ';
  spaced.append(20, 'b');
  EXPECT_NE(error_of(spaced.c_str(), nullptr).find("whitespace"), std::string::npos);
}
