#pragma once
#include <filesystem>
#include <string_view>
#include <vector>

#include "catalog/registry.hpp"

namespace toolcalc::catalog {

// Loads `[[domain]]` tables (name, display_name, description, target) from TOML text.
// Throws std::runtime_error naming the file and the problem.
std::vector<Domain> parse_domains(std::string_view toml_text, std::string_view source_name);
std::vector<Domain> load_domains(const std::filesystem::path& file);

}  // namespace toolcalc::catalog
