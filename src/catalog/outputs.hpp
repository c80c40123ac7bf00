#pragma once
// Unrounded outputs produced by a tool. The renderer rounds each number once, at the
// output's precision, so tools never round.
#include <boost/container/small_vector.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toolcalc::catalog {

using OutputValue = std::variant<double, std::string>;

// Keys are not copied: they must outlive the object (tools pass literals).
class Outputs {
 public:
  Outputs& set(std::string_view key, double value) {
    entries_.push_back({key, value});
    return *this;
  }
  Outputs& set(std::string_view key, std::string value) {
    entries_.push_back({key, std::move(value)});
    return *this;
  }
  Outputs& set(std::string_view key, const char* value) { return set(key, std::string(value)); }

  // nullptr when the tool did not set `key`. `hint`: the index where it probably is (the
  // renderer passes the descriptor position; tools set outputs in that order).
  const OutputValue* find(std::string_view key, size_t hint = 0) const {
    if (hint < entries_.size() && entries_[hint].key == key) return &entries_[hint].value;
    for (const auto& e : entries_)
      if (e.key == key) return &e.value;
    return nullptr;
  }
  // The entries in the order the tool set them (the analyses read every output of many
  // runs of one tool, and check the keys' order once per run instead of finding each).
  size_t size() const { return entries_.size(); }
  std::string_view key_at(size_t i) const { return entries_[i].key; }
  const OutputValue& value_at(size_t i) const { return entries_[i].value; }

  double number(std::string_view key) const;            // throws if absent or a string
  const std::string& text(std::string_view key) const;  // throws if absent or a number

 private:
  struct Entry {
    std::string_view key;
    OutputValue value;
  };
  // Inline room for the outputs of a typical tool: no allocation per request.
  boost::container::small_vector<Entry, 8> entries_;
};

}  // namespace toolcalc::catalog
