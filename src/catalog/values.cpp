#include <stdexcept>
#include <string>

#include "catalog/inputs.hpp"
#include "catalog/outputs.hpp"

namespace toolcalc::catalog {

const InputValue& Inputs::find(std::string_view key) const {
  // Tools mostly read their inputs in descriptor order: try the entry after the last one
  // found before comparing keys from the start.
  if (next_ < entries_.size() && entries_[next_].key == key) return entries_[next_++].value;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].key == key) {
      next_ = i + 1;
      return entries_[i].value;
    }
  throw std::logic_error("tool read unknown input '" + std::string(key) + "'");
}

double Inputs::number(std::string_view key) const {
  const auto& v = find(key);
  if (const double* d = std::get_if<double>(&v)) return *d;
  throw std::logic_error("input '" + std::string(key) + "' is not numeric");
}

void Inputs::set_number(size_t index, double value) {
  if (index < entries_.size())
    if (double* d = std::get_if<double>(&entries_[index].value)) {
      *d = value;
      return;
    }
  throw std::logic_error("input " + std::to_string(index) + " is not a number to replace");
}

const std::string& Inputs::enumeration(std::string_view key) const {
  const auto& v = find(key);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  throw std::logic_error("input '" + std::string(key) + "' is not an enum");
}

bool Inputs::boolean(std::string_view key) const {
  const auto& v = find(key);
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  throw std::logic_error("input '" + std::string(key) + "' is not a boolean");
}

double Outputs::number(std::string_view key) const {
  const auto* v = find(key);
  if (v)
    if (const double* d = std::get_if<double>(v)) return *d;
  throw std::logic_error("output '" + std::string(key) + "' is not a number that was set");
}

const std::string& Outputs::text(std::string_view key) const {
  const auto* v = find(key);
  if (v)
    if (const auto* s = std::get_if<std::string>(v)) return *s;
  throw std::logic_error("output '" + std::string(key) + "' is not a string that was set");
}

}  // namespace toolcalc::catalog
