#include "cli/admin_token.hpp"

#include <stdexcept>

namespace toolcalc::cli {

std::string admin_token_from_environment(const Environment& env) {
  const std::string name = "TOOLCALC_ADMIN_TOKEN";
  const std::optional<std::string> token = environment_value(env, name);
  const bool from_file = env.contains(name + "_FILE");
  if (!token || (token->empty() && !from_file)) return {};  // an empty variable is unset
  const std::string source =
      from_file ? name + "_FILE (" + env.find(name + "_FILE")->second + ")" : name;
  if (token->empty()) throw std::runtime_error(source + " is empty");
  for (char c : *token)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      throw std::runtime_error(source +
                               ": the admin token must not hold whitespace or control "
                               "characters");
  if (token->size() < kMinAdminTokenLength)
    throw std::runtime_error(source + ": the admin token must be at least " +
                             std::to_string(kMinAdminTokenLength) + " characters long");
  return *token;
}

}  // namespace toolcalc::cli
