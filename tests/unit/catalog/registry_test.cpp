// The real catalog: every tool file is registered, slugs are unique,
// defaults lie within bounds and enum defaults are among the options.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "catalog/domains.hpp"
#include "catalog/registry.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
namespace fs = std::filesystem;

namespace {
const fs::path kSource = TOOLCALC_SOURCE_DIR;

catalog::Registry real_registry() {
  return catalog::Registry(tools::all_tools({kSource / "catalog"}),
                           catalog::load_domains(kSource / "catalog" / "domains.toml"));
}
}  // namespace

TEST(Registry, EveryToolFileIsRegisteredUnderItsDomain) {
  const auto registry = real_registry();
  // Convention: src/tools/<domain>/<slug>.cpp holds exactly one tool.
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "src" / "tools")) {
    const fs::path& p = entry.path();
    if (p.extension() != ".cpp" || p.parent_path() == kSource / "src" / "tools") continue;
    const std::string stem = p.stem().string();
    if (stem.find('-') == std::string::npos) continue;  // helpers like llm_pricing.cpp
    files.insert(p.parent_path().filename().string() + "/" + stem);
  }
  std::set<std::string> registered;
  for (const auto& t : registry.tools())
    registered.insert(t.tool.descriptor.domain + "/" + t.tool.descriptor.slug);
  EXPECT_EQ(files, registered);
  EXPECT_GE(registered.size(), 4u);
}

TEST(Registry, CatalogIsConsistent) {
  auto tools = tools::all_tools({kSource / "catalog"});
  auto domains = catalog::load_domains(kSource / "catalog" / "domains.toml");
  EXPECT_TRUE(catalog::check_catalog(tools, domains).empty());
  for (const auto& t : tools)
    EXPECT_EQ(t.descriptor.endpoint(), "/v1/" + t.descriptor.domain + "/" + t.descriptor.slug);
}

TEST(Registry, DomainsHaveRoadmapTargets) {
  const auto registry = real_registry();
  ASSERT_EQ(registry.domains().size(), 4u);
  EXPECT_EQ(registry.find_domain("iot-mcu")->target, 12);
  EXPECT_EQ(registry.find_domain("electronics")->target, 24);
  EXPECT_EQ(registry.find_domain("pcb-design")->target, 12);
  EXPECT_EQ(registry.find_domain("programming-dev")->target, 12);
  // Every domain serves what the roadmap promises (GET /v1/domains: live = target).
  for (const auto& d : registry.domains())
    EXPECT_EQ(registry.live_count(d.name), d.target) << d.name;
}

TEST(Registry, CheckCatalogFindsEachKindOfProblem) {
  auto tools = tools::all_tools({kSource / "catalog"});
  auto domains = catalog::load_domains(kSource / "catalog" / "domains.toml");
  tools.push_back(tools.front());  // duplicate slug
  auto& bad = tools.back().descriptor;
  bad.inputs[0].default_value = 1e12;  // above max
  catalog::InputDescriptor e;
  e.key = "mode";
  e.type = catalog::InputType::Enum;
  e.options = {"x"};
  e.default_value = std::string("y");
  bad.inputs.push_back(e);
  catalog::InputDescriptor quoted = bad.inputs[0];
  quoted.key = "Load \"A\"";  // would need escaping in JSON
  bad.inputs.push_back(quoted);
  bad.outputs.push_back(bad.outputs[0]);
  bad.outputs.back().key = "out-put";
  // Published as written: an example's numbers must be plain decimals, as the API's are.
  bad.examples.push_back({.title = "exponents",
                          .request_json = R"({"a":1E3})",
                          .expected_json = "{\"" + bad.outputs[0].key + "\":3.7e7}",
                          .source = "a test"});
  const auto problems = catalog::check_catalog(tools, domains);
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  EXPECT_NE(all.find("duplicate slug"), std::string::npos) << all;
  EXPECT_NE(all.find("default above max"), std::string::npos) << all;
  EXPECT_NE(all.find("default is not one of the options"), std::string::npos) << all;
  EXPECT_NE(all.find("input Load \"A\": key is not snake_case"), std::string::npos) << all;
  EXPECT_NE(all.find("output out-put: key is not snake_case"), std::string::npos) << all;
  EXPECT_NE(all.find("example 'exponents': the body has a number in exponent form"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("example 'exponents': expected has a number in exponent form"),
            std::string::npos)
      << all;
  EXPECT_THROW(catalog::Registry(tools, domains), std::invalid_argument);
}

TEST(Domains, MalformedFileIsAClearError) {
  try {
    catalog::parse_domains("[[domain]]\nname = \"x\"\n", "domains.toml");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing display_name"), std::string::npos) << e.what();
  }
  EXPECT_THROW(catalog::parse_domains("[[domain]\n", "domains.toml"), std::runtime_error);
}

TEST(Registry, ToolsAreInDomainOrderWhateverTheRegistrationOrder) {
  auto tools = tools::all_tools({kSource / "catalog"});
  std::reverse(tools.begin(), tools.end());
  const auto domains = catalog::load_domains(kSource / "catalog" / "domains.toml");
  const catalog::Registry registry(std::move(tools), domains);
  size_t rank = 0;
  for (const auto& t : registry.tools()) {
    while (rank < domains.size() && domains[rank].name != t.tool.descriptor.domain) ++rank;
    ASSERT_LT(rank, domains.size()) << t.tool.descriptor.slug << " out of domain order";
  }
}
