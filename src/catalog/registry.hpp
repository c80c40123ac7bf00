#pragma once
// The catalog: every registered tool and every domain, built once at start-up and
// immutable afterwards (shared by all request threads without locks). Descriptor and
// summary JSON are rendered here once so discovery requests only copy bytes.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/descriptor.hpp"

namespace toolcalc::catalog {

struct Domain {
  std::string name;          // e.g. iot-mcu
  std::string display_name;  // e.g. IoT & Microcontrollers
  std::string description;
  int target = 0;  // roadmap tool count
};

struct RegisteredTool {
  Tool tool;
  std::string record_json;   // spec §2.1 tool description record
  std::string summary_json;  // tool, domain, version, name, description, standard, endpoint
  std::string details_json;  // record plus references and verification vectors
  // The price of its analyses: ⌈evaluations × class / 1000⌉ quota units (analysis_costs.hpp).
  int analysis_cost_class = 1;
};

class Registry {
 public:
  // Throws std::invalid_argument listing every problem (see check_catalog).
  Registry(std::vector<Tool> tools, std::vector<Domain> domains);

  const RegisteredTool* find(std::string_view domain, std::string_view slug) const;
  const RegisteredTool* find_slug(std::string_view slug) const;
  const Domain* find_domain(std::string_view name) const;
  const std::vector<RegisteredTool>& tools() const { return tools_; }
  const std::vector<Domain>& domains() const { return domains_; }
  int live_count(std::string_view domain) const;

 private:
  std::vector<RegisteredTool> tools_;
  std::vector<Domain> domains_;
  std::unordered_map<std::string, size_t> by_path_;  // "domain/slug"
  std::unordered_map<std::string, size_t> by_slug_;
};

// Consistency rules a catalog must satisfy: unique slugs, known domains, defaults
// within bounds, enum defaults among options, min ≤ max, output keys unique.
// Returns one line per problem; empty when the catalog is sound.
std::vector<std::string> check_catalog(const std::vector<Tool>& tools,
                                       const std::vector<Domain>& domains);

}  // namespace toolcalc::catalog
