#pragma once
// Runs one tool many times from one set of validated inputs, changing numeric inputs in
// place: the inputs were validated once (the execute path's catalog::validate_inputs), and
// the analyses keep every value they set within the input's bounds themselves.
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "catalog/descriptor.hpp"

namespace toolcalc::analysis {

class Evaluator {
 public:
  // `nominal`: validate_inputs' result for `tool` (one entry per input, descriptor order).
  Evaluator(const catalog::Tool& tool, const catalog::Inputs& nominal);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  const catalog::ToolDescriptor& descriptor() const { return tool_.descriptor; }
  // Sets the number or integer input at descriptor index `input`.
  void set(size_t input, double value) { inputs_.set_number(input, value); }

  // Runs the tool. Success: its outputs, valid until the next run; failure (the tool's
  // 422 case): nullptr, with `error` set. Throws std::logic_error when the tool leaves an
  // output unset or produces a non-finite number (a defect, as execute treats it).
  const catalog::Outputs* run(catalog::ToolError& error);
  // The numeric output at descriptor index `output` of the outputs run returned last.
  double number(size_t output) const { return numbers_[output]; }
  // The numeric outputs of the last run, in descriptor order (numeric_outputs' order).
  const std::vector<double>& numeric_values() const { return numeric_values_; }
  const std::string& text(size_t output) const;
  int64_t evaluations() const { return evaluations_; }

 private:
  const catalog::Tool& tool_;
  catalog::Inputs inputs_;
  // The last result, constructed in place by the tool's compute (a ComputeResult holds up
  // to 20 outputs inline: moving one would copy all of them on every run).
  alignas(catalog::ComputeResult) unsigned char last_[sizeof(catalog::ComputeResult)];
  bool has_last_ = false;
  catalog::ComputeResult& last() {
    return *std::launder(reinterpret_cast<catalog::ComputeResult*>(last_));
  }
  const catalog::ComputeResult& last() const {
    return *std::launder(reinterpret_cast<const catalog::ComputeResult*>(last_));
  }
  int64_t evaluations_ = 0;
  // Per descriptor output: the index of its entry in the last outputs and that entry's key
  // pointer (a tool sets its outputs with the same literals in the same order each time, so
  // one pointer comparison usually confirms where it is), its key's length, its type.
  struct Output {
    size_t slot = 0;
    const char* key_data = nullptr;
    size_t key_size = 0;
    bool number = false;
  };
  std::vector<Output> outputs_;
  // The last outputs' numbers (read once per run, where their type and finiteness are
  // checked): per descriptor output, and the numeric ones alone in order.
  std::vector<double> numbers_, numeric_values_;
  size_t locate(const catalog::Outputs& outputs, size_t i);
};

// Descriptor indices of the number outputs and of the string outputs.
std::vector<size_t> numeric_outputs(const catalog::ToolDescriptor& tool);
std::vector<size_t> text_outputs(const catalog::ToolDescriptor& tool);

}  // namespace toolcalc::analysis
