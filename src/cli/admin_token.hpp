#pragma once
// The admin API's token (docs/operations.md, "Admin API"): from the environment variable
// TOOLCALC_ADMIN_TOKEN, or from the file TOOLCALC_ADMIN_TOKEN_FILE names (a secret mounted
// by systemd's LoadCredential, Docker or Kubernetes), never from the config file or the
// command line, where it would show in `ps` and in backups.
#include <string>

#include "cli/service_config.hpp"

namespace toolcalc::cli {

// The shortest token accepted: the admin API is reachable wherever the API is.
inline constexpr size_t kMinAdminTokenLength = 32;

// The token, or "" when neither variable is set (the admin API is then off: 404).
// Read as every secret setting is (environment_value: the variable or its _FILE, never
// both, a file's trailing newline dropped). Throws std::runtime_error naming the variable
// when both are set, when the file cannot be read or is empty, or when the token is
// shorter than kMinAdminTokenLength or holds whitespace.
std::string admin_token_from_environment(const Environment& env = process_environment());

}  // namespace toolcalc::cli
