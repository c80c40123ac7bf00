#pragma once
// Unrounded outputs produced by a tool. The renderer rounds each number once, at the
// output's precision, so tools never round.
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toolcalc::catalog {

using OutputValue = std::variant<double, std::string>;

class Outputs {
 public:
  Outputs& set(std::string_view key, double value) {
    entries_.push_back({std::string(key), value});
    return *this;
  }
  Outputs& set(std::string_view key, std::string value) {
    entries_.push_back({std::string(key), std::move(value)});
    return *this;
  }
  Outputs& set(std::string_view key, const char* value) { return set(key, std::string(value)); }

  // nullptr when the tool did not set `key`.
  const OutputValue* find(std::string_view key) const {
    for (const auto& e : entries_)
      if (e.key == key) return &e.value;
    return nullptr;
  }
  double number(std::string_view key) const;             // throws if absent or a string
  const std::string& text(std::string_view key) const;  // throws if absent or a number

 private:
  struct Entry {
    std::string key;
    OutputValue value;
  };
  std::vector<Entry> entries_;
};

}  // namespace toolcalc::catalog
