#include "catalog/analysis_costs.hpp"

#include <algorithm>

namespace toolcalc::catalog {

int analysis_cost_class(std::string_view slug) {
  const auto& table = analysis_cost_table();
  const auto it = std::find_if(table.begin(), table.end(),
                               [slug](const AnalysisCost& c) { return c.slug == slug; });
  return it == table.end() ? 0 : it->cost_class;
}

}  // namespace toolcalc::catalog
