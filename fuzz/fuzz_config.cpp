// fuzz_config: operator-edited files through their loaders. The first byte selects the
// loader (modulo 6), the rest is the file:
//   0  catalog::parse_domains             (catalog/domains.toml)
//   1  tools::parse_llm_pricing           (catalog/llm-pricing.toml)
//   2  cli::load_service_config           (config/toolcalc.toml; via a scratch file, as
//                                           the loader reads a path)
//   3  accounts::plans_from_config        (the [plans.*] tables of the config)
//   4  cli::load_registry with the bytes as llm-pricing.toml beside the real domains.toml
//   5  cli::load_registry with the bytes as domains.toml beside the real llm-pricing.toml
// 4 and 5 go on to what start-up does with the data: the registry's consistency check and
// the descriptor JSON rendered once (every record must be strict JSON).
//
// A file is either loaded or refused with std::runtime_error / std::invalid_argument (a
// message for the operator). Anything else — another exception, a crash, a leak, UB — is
// a finding.
#include <toml++/toml.h>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "accounts/plans.hpp"
#include "catalog/domains.hpp"
#include "cli/catalog_loader.hpp"
#include "cli/default_catalog_dir.hpp"
#include "cli/service_config.hpp"
#include "fuzz_support.hpp"
#include "tools/programming-dev/llm_pricing.hpp"

namespace {

using namespace toolcalc;
namespace fs = std::filesystem;

void write_file(const fs::path& file, std::string_view text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) fuzz::fail("cannot write scratch file " + file.string(), {});
}

// A catalog directory holding a copy of the real catalog files; one of them is
// overwritten with the fuzz input for each run.
fs::path catalog_copy(const char* name) {
  const fs::path dir = fuzz::scratch_dir() / name;
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(cli::default_catalog_dir()))
    if (entry.path().extension() == ".toml")
      fs::copy_file(entry.path(), dir / entry.path().filename(),
                    fs::copy_options::overwrite_existing);
  return dir;
}

const fs::path& pricing_catalog() {
  static const fs::path dir = catalog_copy("pricing-catalog");
  return dir;
}
const fs::path& domains_catalog() {
  static const fs::path dir = catalog_copy("domains-catalog");
  return dir;
}

void load_registry_from(const fs::path& dir) {
  const auto registry = cli::load_registry(dir);
  for (const auto& t : registry->tools()) {
    fuzz::check_json(t.record_json, t.tool.descriptor.slug + " record_json");
    fuzz::check_json(t.summary_json, t.tool.descriptor.slug + " summary_json");
    fuzz::check_json(t.details_json, t.tool.descriptor.slug + " details_json");
  }
}

void run(unsigned selector, std::string_view text) {
  switch (selector) {
    case 0:
      (void)catalog::parse_domains(text, "fuzz-domains.toml");
      break;
    case 1:
      (void)tools::parse_llm_pricing(text, "fuzz-llm-pricing.toml");
      break;
    case 2: {
      const fs::path file = fuzz::scratch_dir() / "toolcalc.toml";
      write_file(file, text);
      (void)cli::load_service_config(file);
      break;
    }
    case 3: {
      toml::table root =
          toml::parse(text, std::string_view("fuzz-config.toml"));  // parse_error: runtime_error
      (void)accounts::plans_from_config(root);
      break;
    }
    case 4:
      write_file(pricing_catalog() / "llm-pricing.toml", text);
      load_registry_from(pricing_catalog());
      break;
    case 5:
      write_file(domains_catalog() / "domains.toml", text);
      load_registry_from(domains_catalog());
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)pricing_catalog();
  (void)domains_catalog();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    run(data[0] % 6u, text);
  } catch (const std::runtime_error&) {
    // refused with a message: the expected outcome for a bad file
  } catch (const std::invalid_argument&) {
    // likewise (e.g. the registry's consistency check)
  }
  return 0;
}
