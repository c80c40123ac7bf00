#include "cli/admin_token.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace toolcalc::cli {

std::string admin_token_from_environment() {
  const char* value = std::getenv("TOOLCALC_ADMIN_TOKEN");
  const char* file = std::getenv("TOOLCALC_ADMIN_TOKEN_FILE");
  if (value && *value && file && *file)
    throw std::runtime_error("set TOOLCALC_ADMIN_TOKEN or TOOLCALC_ADMIN_TOKEN_FILE, not both");
  std::string token;
  std::string source = "TOOLCALC_ADMIN_TOKEN";
  if (value && *value) {
    token = value;
  } else if (file && *file) {
    source = "TOOLCALC_ADMIN_TOKEN_FILE (" + std::string(file) + ")";
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + source);
    token.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
    if (token.empty()) throw std::runtime_error(source + " is empty");
  } else {
    return {};
  }
  for (char c : token)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      throw std::runtime_error(source +
                               ": the admin token must not hold whitespace or control "
                               "characters");
  if (token.size() < kMinAdminTokenLength)
    throw std::runtime_error(source + ": the admin token must be at least " +
                             std::to_string(kMinAdminTokenLength) + " characters long");
  return token;
}

}  // namespace toolcalc::cli
