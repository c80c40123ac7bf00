#include "catalog/registry.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "catalog/analysis_costs.hpp"
#include "catalog/render.hpp"
#include "core/decimal.hpp"
#include "core/json_writer.hpp"

namespace toolcalc::catalog {

namespace {

// Input and output keys are snake_case identifiers: what the spec's tools use, safe in a
// JSON key without escaping (the renderer copies them as they are), in a URL and as a
// form field name.
bool is_identifier(std::string_view key) {
  if (key.empty() || key.size() > 64 || !(key[0] >= 'a' && key[0] <= 'z')) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// An example's body is a JSON object; a vector's expected values name outputs of the
// right type and say where they come from. Both are published as written, so in plain
// decimals, as the API's numbers are.
void check_example(const std::string& who, const ToolDescriptor& t, const ToolExample& ex,
                   std::vector<std::string>& problems) {
  const std::string where = who + " example '" + ex.title + "'";
  boost::system::error_code ec;
  const boost::json::value body = boost::json::parse(ex.request_json, ec);
  if (ec || !body.is_object()) problems.push_back(where + ": the body is not a JSON object");
  if (has_exponent_number(ex.request_json))
    problems.push_back(where + ": the body has a number in exponent form");
  if (ex.expected_json.empty()) return;
  if (has_exponent_number(ex.expected_json))
    problems.push_back(where + ": expected has a number in exponent form");
  const boost::json::value expected = boost::json::parse(ex.expected_json, ec);
  if (ec || !expected.is_object() || expected.get_object().empty()) {
    problems.push_back(where + ": expected is not a non-empty JSON object");
    return;
  }
  for (const auto& [key, value] : expected.get_object()) {
    // An init-capture: clang 14 (`make fuzz`) cannot capture a structured binding itself
    // (C++20's P1091, implemented in clang 16).
    const auto out =
        std::find_if(t.outputs.begin(), t.outputs.end(),
                     [&name = key](const OutputDescriptor& o) { return o.key == name; });
    if (out == t.outputs.end()) {
      problems.push_back(where + ": expected names no output '" + std::string(key) + "'");
      continue;
    }
    const bool is_number = value.is_number();
    if (is_number != (out->type == OutputType::Number) || (!is_number && !value.is_string()))
      problems.push_back(where + ": expected " + std::string(key) + " has the wrong type");
  }
  if (ex.source.empty()) problems.push_back(where + ": a vector needs its source");
  if (!(ex.tolerance_pct >= 0 && ex.tolerance_pct <= 10))
    problems.push_back(where + ": tolerance_pct out of 0..10");
}

}  // namespace

std::vector<std::string> check_catalog(const std::vector<Tool>& tools,
                                       const std::vector<Domain>& domains) {
  std::vector<std::string> problems;
  std::set<std::string> slugs;
  std::set<std::string> domain_names;
  for (const auto& d : domains)
    if (!domain_names.insert(d.name).second) problems.push_back("duplicate domain " + d.name);

  for (const auto& tool : tools) {
    const auto& t = tool.descriptor;
    const std::string who = t.domain + "/" + t.slug;
    if (t.slug.empty()) problems.push_back("a tool has an empty slug");
    if (!slugs.insert(t.slug).second) problems.push_back("duplicate slug " + t.slug);
    if (!domain_names.count(t.domain)) problems.push_back(who + ": unknown domain " + t.domain);
    if (!tool.compute) problems.push_back(who + ": no compute function");
    if (t.version.empty()) problems.push_back(who + ": no version");
    const int cost = analysis_cost_class(t.slug);
    if (cost < 1 || cost > kMaxAnalysisCostClass || (cost & (cost - 1)) != 0)
      problems.push_back(who + ": analysis cost class " + std::to_string(cost) +
                         " is not a power of two from 1 to " +
                         std::to_string(kMaxAnalysisCostClass) +
                         " (`make analysis-costs` measures it)");
    std::set<std::string> keys;
    for (const auto& in : t.inputs) {
      const std::string where = who + " input " + in.key;
      if (!keys.insert(in.key).second) problems.push_back(where + ": duplicate key");
      if (!is_identifier(in.key)) problems.push_back(where + ": key is not snake_case");
      const bool numeric = in.is_numeric();
      if (numeric && !(in.min && in.max && in.step))
        problems.push_back(where + ": a numeric input needs min, max and step");
      if (numeric && in.step && !(*in.step > 0)) problems.push_back(where + ": step is not > 0");
      if (numeric) {
        const double* d = std::get_if<double>(&in.default_value);
        if (!d) {
          problems.push_back(where + ": default is not a number");
        } else {
          if (in.min && *d < *in.min) problems.push_back(where + ": default below min");
          if (in.max && *d > *in.max) problems.push_back(where + ": default above max");
          if (in.type == InputType::Integer &&
              *d != static_cast<double>(static_cast<long long>(*d)))
            problems.push_back(where + ": integer default is not integral");
        }
        if (in.min && in.max && *in.min > *in.max) problems.push_back(where + ": min > max");
        if (!in.options.empty()) problems.push_back(where + ": options on a numeric input");
      }
      if (in.type == InputType::Enum) {
        const auto* s = std::get_if<std::string>(&in.default_value);
        if (in.options.empty()) problems.push_back(where + ": enum without options");
        if (!s || std::find(in.options.begin(), in.options.end(), *s) == in.options.end())
          problems.push_back(where + ": default is not one of the options");
      }
      if (in.type == InputType::Boolean && !std::holds_alternative<bool>(in.default_value))
        problems.push_back(where + ": default is not a boolean");
      if (!numeric && (in.min || in.max || in.step))
        problems.push_back(where + ": bounds on a non-numeric input");
      if (!in.required && in.is_numeric() && !std::holds_alternative<double>(in.default_value))
        problems.push_back(where + ": optional input without a usable default");
    }
    std::set<std::string> out_keys;
    for (const auto& out : t.outputs) {
      if (!out_keys.insert(out.key).second)
        problems.push_back(who + " output " + out.key + ": duplicate key");
      if (!is_identifier(out.key))
        problems.push_back(who + " output " + out.key + ": key is not snake_case");
      if (out.precision < 0 || out.precision > 15)
        problems.push_back(who + " output " + out.key + ": precision out of 0..15");
    }
    for (const auto& out : t.outputs) {
      if (out.small_values_in.empty()) continue;
      const auto finer = std::find_if(t.outputs.begin(), t.outputs.end(), [&](const auto& o) {
        return o.key == out.small_values_in && o.type == OutputType::Number && &o != &out;
      });
      if (finer == t.outputs.end())
        problems.push_back(who + " output " + out.key + ": small_values_in names no other number");
    }
    for (const auto& ex : t.examples) check_example(who, t, ex, problems);
  }
  return problems;
}

Registry::Registry(std::vector<Tool> tools, std::vector<Domain> domains)
    : domains_(std::move(domains)) {
  const auto problems = check_catalog(tools, domains_);
  if (!problems.empty()) {
    std::string msg = "catalog is inconsistent:";
    for (const auto& p : problems) msg += "\n  " + p;
    throw std::invalid_argument(msg);
  }
  // Catalog order: domains as listed in domains.toml, then registration order within one.
  auto domain_rank = [this](const Tool& t) {
    for (size_t i = 0; i < domains_.size(); ++i)
      if (domains_[i].name == t.descriptor.domain) return i;
    return domains_.size();
  };
  std::stable_sort(tools.begin(), tools.end(),
                   [&](const Tool& a, const Tool& b) { return domain_rank(a) < domain_rank(b); });
  tools_.reserve(tools.size());
  for (auto& t : tools) {
    for (auto& out : t.descriptor.outputs) out.json_member = member_text(out.key);
    RegisteredTool r;
    r.record_json = render_record(t.descriptor);
    r.summary_json = render_summary(t.descriptor);
    r.analysis_cost_class = analysis_cost_class(t.descriptor.slug);
    r.details_json = render_details(t.descriptor, r.analysis_cost_class);
    r.tool = std::move(t);
    by_path_[r.tool.descriptor.domain + "/" + r.tool.descriptor.slug] = tools_.size();
    by_slug_[r.tool.descriptor.slug] = tools_.size();
    tools_.push_back(std::move(r));
  }
}

const RegisteredTool* Registry::find(std::string_view domain, std::string_view slug) const {
  thread_local std::string path;  // reused: no allocation per lookup
  path.assign(domain).append("/").append(slug);
  auto it = by_path_.find(path);
  return it == by_path_.end() ? nullptr : &tools_[it->second];
}

const RegisteredTool* Registry::find_slug(std::string_view slug) const {
  auto it = by_slug_.find(std::string(slug));
  return it == by_slug_.end() ? nullptr : &tools_[it->second];
}

const Domain* Registry::find_domain(std::string_view name) const {
  for (const auto& d : domains_)
    if (d.name == name) return &d;
  return nullptr;
}

int Registry::live_count(std::string_view domain) const {
  return static_cast<int>(std::count_if(tools_.begin(), tools_.end(), [&](const auto& r) {
    return r.tool.descriptor.domain == domain;
  }));
}

}  // namespace toolcalc::catalog
