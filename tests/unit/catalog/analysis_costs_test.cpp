// The price list of analyses (docs/analysis.md, "What an analysis costs"): every tool has a
// measured cost class (a tool added without running `make analysis-costs` fails here), every
// row of the table is a tool, and the page publishes the table as the service applies it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "catalog/analysis_costs.hpp"
#include "catalog/domains.hpp"
#include "catalog/registry.hpp"
#include "tools/all.hpp"

using namespace toolcalc;
namespace fs = std::filesystem;

namespace {
const fs::path kSource = TOOLCALC_SOURCE_DIR;
}  // namespace

TEST(AnalysisCosts, EveryToolHasAClassThatIsAPowerOfTwoInRange) {
  for (const auto& t : tools::all_tools({kSource / "catalog"})) {
    const int c = catalog::analysis_cost_class(t.descriptor.slug);
    SCOPED_TRACE(t.descriptor.slug);
    EXPECT_GE(c, 1) << "no row in src/catalog/analysis_cost_table.cpp: run make analysis-costs";
    EXPECT_LE(c, catalog::kMaxAnalysisCostClass);
    EXPECT_EQ(c & (c - 1), 0);
  }
}

TEST(AnalysisCosts, EveryRowIsAToolOnce) {
  std::set<std::string> slugs;
  for (const auto& t : tools::all_tools({kSource / "catalog"})) slugs.insert(t.descriptor.slug);
  std::set<std::string_view> seen;
  for (const auto& row : catalog::analysis_cost_table()) {
    EXPECT_TRUE(slugs.count(std::string(row.slug))) << row.slug << " is no tool";
    EXPECT_TRUE(seen.insert(row.slug).second) << row.slug << " twice";
    EXPECT_GT(row.ns_per_evaluation, 0) << row.slug;
  }
}

TEST(AnalysisCosts, AToolWithoutAClassIsRefusedByTheCatalog) {
  auto tools = tools::all_tools({kSource / "catalog"});
  tools.front().descriptor.slug = "a-tool-nobody-measured";
  const auto problems =
      catalog::check_catalog(tools, catalog::load_domains(kSource / "catalog" / "domains.toml"));
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  EXPECT_NE(all.find("a-tool-nobody-measured: analysis cost class 0 is not a power of two"),
            std::string::npos)
      << all;
}

// docs/analysis.md lists every tool whose class is above 1, with its class, and says the
// others are 1: the page and the table agree both ways.
TEST(AnalysisCosts, TheDocsPublishTheClassesAboveOne) {
  std::ifstream in(kSource / "docs" / "analysis.md");
  std::stringstream page;
  page << in.rdbuf();
  const std::string text = page.str();
  std::map<std::string, int> published;
  const std::regex row(R"(\n\| `([a-z0-9-]+)` \| ([0-9]+) \| [0-9]+ \|)");
  for (std::sregex_iterator it(text.begin(), text.end(), row), end; it != end; ++it)
    published[(*it)[1]] = std::stoi((*it)[2]);
  std::map<std::string, int> dear;
  for (const auto& r : catalog::analysis_cost_table())
    if (r.cost_class > 1) dear[std::string(r.slug)] = r.cost_class;
  EXPECT_FALSE(dear.empty());
  EXPECT_EQ(published, dear);
}
