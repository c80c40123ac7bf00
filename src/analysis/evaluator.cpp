#include "analysis/evaluator.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>

namespace toolcalc::analysis {

Evaluator::Evaluator(const catalog::Tool& tool, const catalog::Inputs& nominal)
    : tool_(tool), inputs_(nominal) {
  for (const auto& out : tool.descriptor.outputs) {
    outputs_.push_back({0, nullptr, out.key.size(), out.type == catalog::OutputType::Number});
    numbers_.push_back(0);
    if (out.type == catalog::OutputType::Number) numeric_values_.push_back(0);
  }
}

Evaluator::~Evaluator() {
  if (has_last_) std::destroy_at(&last());
}

// The index of descriptor output i's entry in `outputs`, by comparing keys (remembered).
size_t Evaluator::locate(const catalog::Outputs& outputs, size_t i) {
  const auto& d = tool_.descriptor;
  size_t j = 0;
  while (j < outputs.size() && outputs.key_at(j) != d.outputs[i].key) ++j;
  if (j == outputs.size())
    throw std::logic_error(d.slug + " did not set output " + d.outputs[i].key);
  outputs_[i].slot = j;
  outputs_[i].key_data = outputs.key_at(j).data();
  return j;
}

const catalog::Outputs* Evaluator::run(catalog::ToolError& error) {
  ++evaluations_;
  if (has_last_) std::destroy_at(&last());
  has_last_ = false;
  // The prvalue initialises the storage directly (guaranteed copy elision).
  ::new (static_cast<void*>(last_)) catalog::ComputeResult(tool_.compute(inputs_));
  has_last_ = true;
  if (auto* failure = std::get_if<catalog::ToolError>(&last())) {
    error = std::move(*failure);
    return nullptr;
  }
  const auto& outputs = std::get<catalog::Outputs>(last());
  size_t numeric = 0;
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Output& o = outputs_[i];
    // A tool sets its outputs with the same literals in the same order each time: one
    // pointer comparison usually confirms where the output is.
    size_t at = o.slot;
    if (!(at < outputs.size() && outputs.key_at(at).data() == o.key_data &&
          outputs.key_at(at).size() == o.key_size))
      at = locate(outputs, i);
    const catalog::OutputValue& v = outputs.value_at(at);
    const double* x = std::get_if<double>(&v);
    if (o.number != (x != nullptr)) {
      const auto& d = tool_.descriptor;
      throw std::logic_error(d.slug + " set " + d.outputs[i].key +
                             (o.number ? " as text" : " as a number"));
    }
    if (!o.number) continue;
    if (!std::isfinite(*x)) {
      const auto& d = tool_.descriptor;
      throw std::logic_error(d.slug + " produced non-finite " + d.outputs[i].key);
    }
    numbers_[i] = *x;
    numeric_values_[numeric++] = *x;
  }
  return &outputs;
}

const std::string& Evaluator::text(size_t output) const {
  return std::get<std::string>(std::get<catalog::Outputs>(last()).value_at(outputs_[output].slot));
}

std::vector<size_t> numeric_outputs(const catalog::ToolDescriptor& tool) {
  std::vector<size_t> v;
  for (size_t i = 0; i < tool.outputs.size(); ++i)
    if (tool.outputs[i].type == catalog::OutputType::Number) v.push_back(i);
  return v;
}

std::vector<size_t> text_outputs(const catalog::ToolDescriptor& tool) {
  std::vector<size_t> v;
  for (size_t i = 0; i < tool.outputs.size(); ++i)
    if (tool.outputs[i].type == catalog::OutputType::String) v.push_back(i);
  return v;
}

}  // namespace toolcalc::analysis
