// Alone in its file: a binary that defines default_catalog_dir() itself (the packaged one)
// never pulls this object out of the library, so the source tree's path is not in it.
#include "cli/default_catalog_dir.hpp"

namespace toolcalc::cli {

std::filesystem::path default_catalog_dir() {
  return TOOLCALC_DEFAULT_CATALOG_DIR;
}

}  // namespace toolcalc::cli
