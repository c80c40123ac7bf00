#pragma once
// Where the catalog data files (domains.toml, llm-pricing.toml) are read from when neither
// the config ([catalog] dir) nor the environment (TOOLCALC_CATALOG_DIR) says.
#include <filesystem>

namespace toolcalc::cli {

// The build tree's binaries: the source tree's catalog/ (default_catalog_dir.cpp). The
// packaged binary links its own definition, the installed location
// (packaging/installed_catalog_dir.cpp), so that it holds no path of the build machine.
std::filesystem::path default_catalog_dir();

}  // namespace toolcalc::cli
