// The packaged binary's catalog location (packaging/package.cmake, target
// toolcalc_package): it replaces src/cli/default_catalog_dir.cpp, whose object the linker
// then leaves out of the library, so that no path of the build machine is in the binary.
#include "cli/default_catalog_dir.hpp"

namespace toolcalc::cli {

std::filesystem::path default_catalog_dir() {
  return TOOLCALC_INSTALLED_CATALOG_DIR;
}

}  // namespace toolcalc::cli
