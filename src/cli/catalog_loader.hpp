#pragma once
#include <filesystem>
#include <memory>

#include "catalog/registry.hpp"

namespace toolcalc::cli {

// Loads <catalog_dir>/domains.toml and every tool (with their data files) into an
// immutable registry. Throws std::runtime_error / std::invalid_argument with a message
// for the operator; start-up stops on any of them.
std::unique_ptr<catalog::Registry> load_registry(const std::filesystem::path& catalog_dir);

}  // namespace toolcalc::cli
