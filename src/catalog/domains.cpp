#include "catalog/domains.hpp"

#include <toml++/toml.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace toolcalc::catalog {

std::vector<Domain> parse_domains(std::string_view toml_text, std::string_view source_name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << source_name << ": " << e.description() << " at line " << e.source().begin.line;
    throw std::runtime_error(msg.str());
  }
  const toml::array* list = root["domain"].as_array();
  if (!list) throw std::runtime_error(std::string(source_name) + ": no [[domain]] tables");
  std::vector<Domain> domains;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::table* t = (*list)[i].as_table();
    const std::string where = std::string(source_name) + ": domain #" + std::to_string(i + 1);
    if (!t) throw std::runtime_error(where + " is not a table");
    Domain d;
    auto name = (*t)["name"].value<std::string>();
    auto display = (*t)["display_name"].value<std::string>();
    auto description = (*t)["description"].value<std::string>();
    // value_exact: value<int64_t>() also takes 12.0 and true, and casts an out-of-range
    // float to int64 (undefined behaviour in toml++ 3.3; found by fuzz_config).
    auto target = (*t)["target"].value_exact<int64_t>();
    if (!name || name->empty()) throw std::runtime_error(where + ": missing name");
    if (!display) throw std::runtime_error(where + " (" + *name + "): missing display_name");
    if (!description) throw std::runtime_error(where + " (" + *name + "): missing description");
    if (!target || *target < 0 || *target > 100000)
      throw std::runtime_error(where + " (" + *name + "): target must be an integer 0..100000");
    d.name = *name;
    d.display_name = *display;
    d.description = *description;
    d.target = static_cast<int>(*target);
    domains.push_back(std::move(d));
  }
  return domains;
}

std::vector<Domain> load_domains(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot open domains file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_domains(ss.str(), file.string());
}

}  // namespace toolcalc::catalog
