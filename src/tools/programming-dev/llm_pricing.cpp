#include "tools/programming-dev/llm_pricing.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace toolcalc::tools {
namespace {

constexpr std::array<std::string_view, 6> kModelKeys = {
    "id", "model_name", "provider", "input_per_mtok", "cached_input_per_mtok", "output_per_mtok",
};

[[noreturn]] void fail(const std::string& message) {
  throw std::runtime_error(message);
}

std::string line_of(const toml::node& node) {
  const auto line = node.source().begin.line;
  return line > 0 ? " (line " + std::to_string(line) + ")" : "";
}

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string type_name(const toml::node& node) {
  std::ostringstream s;
  s << node.type();  // "string", "boolean", "array", ...
  return s.str();
}

bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  auto digits = [&](size_t from, size_t n) {
    int v = 0;
    for (size_t i = from; i < from + n; ++i) v = v * 10 + (s[i] - '0');
    return v;
  };
  const std::chrono::year_month_day ymd{std::chrono::year{digits(0, 4)},
                                        std::chrono::month{static_cast<unsigned>(digits(5, 2))},
                                        std::chrono::day{static_cast<unsigned>(digits(8, 2))}};
  return ymd.ok();  // rejects 2026-13-01 and 2026-02-30
}

std::string read_as_of(const toml::table& root, const std::string& file) {
  const toml::node* node = root.get("pricing_as_of");
  if (node == nullptr) fail(file + ": missing pricing_as_of (the date the rates were checked)");
  std::string text;
  if (const auto* s = node->as_string()) {
    text = s->get();
  } else if (const auto* d = node->as_date()) {
    // An unquoted TOML date (pricing_as_of = 2026-11-01) means the same thing.
    std::ostringstream out;
    out << d->get();
    text = out.str();
  } else {
    fail(file + ": pricing_as_of" + line_of(*node) + " must be a date such as \"2026-11-01\"");
  }
  if (!is_date(text))
    fail(file + ": pricing_as_of \"" + text + "\"" + line_of(*node) +
         " is not a real calendar date in the form YYYY-MM-DD");
  return text;
}

std::string read_text(const toml::table& model, std::string_view key, const std::string& where) {
  const toml::node* node = model.get(key);
  if (node == nullptr) fail(where + ": missing " + std::string(key));
  const auto* s = node->as_string();
  if (s == nullptr) fail(where + ": " + std::string(key) + line_of(*node) + " must be a string");
  if (s->get().empty()) fail(where + ": " + std::string(key) + line_of(*node) + " is empty");
  return s->get();
}

double read_rate(const toml::table& model, std::string_view key, const std::string& where) {
  const toml::node* node = model.get(key);
  if (node == nullptr) fail(where + ": missing " + std::string(key) + " ($ per million tokens)");
  double v = 0;
  // Strict: integers and floats only (toml++'s value<double>() would also take a bool).
  if (const auto* f = node->as_floating_point())
    v = f->get();
  else if (const auto* i = node->as_integer())
    v = static_cast<double>(i->get());
  else
    fail(where + ": " + std::string(key) + line_of(*node) +
         " must be a number ($ per million tokens), got a " + type_name(*node));
  if (!std::isfinite(v))
    fail(where + ": " + std::string(key) + line_of(*node) + " must be a finite number");
  if (v < 0)
    fail(where + ": " + std::string(key) + line_of(*node) + " is negative (" + number_text(v) +
         "); rates are $ per million tokens, >= 0");
  return v == 0 ? 0.0 : v;  // folds -0.0
}

LlmModelPricing read_model(const toml::node& node, size_t index, const std::string& file) {
  std::string where = file + ": model #" + std::to_string(index + 1) + line_of(node);
  const toml::table* t = node.as_table();
  if (t == nullptr) fail(where + " is not a table; write each model as a [[model]] table");
  LlmModelPricing m;
  m.id = read_text(*t, "id", where);
  where = file + ": model " + m.id + line_of(node);
  for (const auto& [key, value] : *t)
    if (std::find(kModelKeys.begin(), kModelKeys.end(), key.str()) == kModelKeys.end())
      fail(where + ": unknown field " + std::string(key.str()) + line_of(value) +
           "; expected id, model_name, provider, input_per_mtok, cached_input_per_mtok, "
           "output_per_mtok");
  m.model_name = read_text(*t, "model_name", where);
  m.provider = read_text(*t, "provider", where);
  if (std::find(kLlmProviders.begin(), kLlmProviders.end(), m.provider) == kLlmProviders.end())
    fail(where + ": unknown provider \"" + m.provider + "\"; expected provider-a or provider-b");
  if (m.id.rfind(m.provider + "/", 0) != 0 || m.id.size() == m.provider.size() + 1)
    fail(where + ": id must be \"" + m.provider + "/<model>\" to match its provider");
  m.input_per_mtok = read_rate(*t, "input_per_mtok", where);
  m.cached_input_per_mtok = read_rate(*t, "cached_input_per_mtok", where);
  m.output_per_mtok = read_rate(*t, "output_per_mtok", where);
  if (m.cached_input_per_mtok > m.input_per_mtok)
    fail(where + ": cached_input_per_mtok (" + number_text(m.cached_input_per_mtok) +
         ") is greater than input_per_mtok (" + number_text(m.input_per_mtok) +
         "); a cache read never costs more than a fresh input token");
  return m;
}

}  // namespace

const LlmModelPricing* LlmPricing::find(std::string_view id) const {
  for (const auto& m : models)
    if (m.id == id) return &m;
  return nullptr;
}

LlmPricing parse_llm_pricing(std::string_view toml_text, std::string_view source_name) {
  const std::string file(source_name);
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    fail(file + ": " + std::string(e.description()) + " at line " +
         std::to_string(e.source().begin.line) + ", column " +
         std::to_string(e.source().begin.column));
  }
  for (const auto& [key, value] : root)
    if (key != "pricing_as_of" && key != "model")
      fail(file + ": unknown top-level key " + std::string(key.str()) + line_of(value) +
           "; expected pricing_as_of and [[model]] tables");

  LlmPricing pricing;
  pricing.pricing_as_of = read_as_of(root, file);

  const toml::node* list_node = root.get("model");
  const toml::array* list = list_node ? list_node->as_array() : nullptr;
  if (list == nullptr || list->empty()) fail(file + ": no [[model]] tables");
  std::set<std::string> ids;
  for (size_t i = 0; i < list->size(); ++i) {
    LlmModelPricing m = read_model((*list)[i], i, file);
    if (!ids.insert(m.id).second)
      fail(file + ": duplicate model " + m.id + line_of((*list)[i]) +
           "; each model id may appear once");
    pricing.models.push_back(std::move(m));
  }
  if (pricing.find(kLlmDefaultModel) == nullptr)
    fail(file + ": default model " + std::string(kLlmDefaultModel) +
         " is missing; the tool's `model` input defaults to it (spec §2.4)");
  return pricing;
}

LlmPricing load_llm_pricing(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file.string() + ": cannot open the LLM pricing file");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) fail(file.string() + ": cannot read the LLM pricing file");
  return parse_llm_pricing(ss.str(), file.string());
}

}  // namespace toolcalc::tools
