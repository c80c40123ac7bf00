#pragma once
// Runs one tool many times from one set of validated inputs, changing numeric inputs in
// place: the inputs were validated once (the execute path's catalog::validate_inputs), and
// the analyses keep every value they set within the input's bounds themselves.
#include <cstdint>
#include <vector>

#include "catalog/descriptor.hpp"

namespace toolcalc::analysis {

class Evaluator {
 public:
  // `nominal`: validate_inputs' result for `tool` (one entry per input, descriptor order).
  Evaluator(const catalog::Tool& tool, const catalog::Inputs& nominal);

  const catalog::ToolDescriptor& descriptor() const { return tool_.descriptor; }
  // Sets the number or integer input at descriptor index `input`.
  void set(size_t input, double value) { inputs_.set_number(input, value); }

  // Runs the tool. Success: its outputs, valid until the next run; failure (the tool's
  // 422 case): nullptr, with `error` set. Throws std::logic_error when the tool leaves an
  // output unset or produces a non-finite number (a defect, as execute treats it).
  const catalog::Outputs* run(catalog::ToolError& error);
  // The numeric output at descriptor index `output` of the outputs run returned last.
  double number(size_t output) const;
  const std::string& text(size_t output) const;
  int64_t evaluations() const { return evaluations_; }

 private:
  const catalog::Tool& tool_;
  catalog::Inputs inputs_;
  catalog::ComputeResult last_;
  int64_t evaluations_ = 0;
  // Per descriptor output, the index of its entry in the last outputs, and that entry's key
  // pointer: a tool sets its outputs with the same literals in the same order each time,
  // so one pointer comparison per output usually confirms the whole layout.
  std::vector<size_t> slot_;
  std::vector<const char*> key_data_;
  bool locate(const catalog::Outputs& outputs);
};

// Descriptor indices of the number/integer inputs and of the number/string outputs.
bool is_numeric(const catalog::InputDescriptor& in);
std::vector<size_t> numeric_outputs(const catalog::ToolDescriptor& tool);
std::vector<size_t> text_outputs(const catalog::ToolDescriptor& tool);

}  // namespace toolcalc::analysis
