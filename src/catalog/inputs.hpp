#pragma once
// Validated input values handed to a tool's compute function. Every input of the
// descriptor is present (missing optional inputs already hold their default), so a
// tool reads them by key without checks. Reading a key the descriptor does not have,
// or with the wrong accessor, is a programming error and throws std::logic_error.
#include <boost/container/small_vector.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toolcalc::catalog {

using InputValue = std::variant<double, std::string, bool>;

class Inputs {
 public:
  // `key` is not copied: it must outlive this object (a descriptor's key, or a literal).
  void add(std::string_view key, InputValue value) { entries_.push_back({key, std::move(value)}); }
  double number(std::string_view key) const;  // number and integer inputs
  const std::string& enumeration(std::string_view key) const;
  bool boolean(std::string_view key) const;

  size_t size() const { return entries_.size(); }
  // Replaces the value of the entry at `index` (validate_inputs adds one per input, in
  // descriptor order), which must hold a number: the analysis endpoints run a tool many
  // times with numbers they keep within the input's bounds themselves, without
  // validating the whole body again. Throws std::logic_error for any other entry.
  void set_number(size_t index, double value);

 private:
  struct Entry {
    std::string_view key;
    InputValue value;
  };
  const InputValue& find(std::string_view key) const;
  // Inline room for the inputs of a typical tool: no allocation per request.
  boost::container::small_vector<Entry, 8> entries_;
  mutable size_t next_ = 0;  // where find() looks first (one thread reads an Inputs)
};

// A tool's refusal to compute a result for inputs that are valid one by one but
// impossible together (spec §7: 422). `field` names the input at fault.
struct ToolError {
  std::string field;
  std::string message;
};

}  // namespace toolcalc::catalog
