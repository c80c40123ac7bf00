#include "analysis/evaluator.hpp"

#include <cmath>
#include <stdexcept>

namespace toolcalc::analysis {

Evaluator::Evaluator(const catalog::Tool& tool, const catalog::Inputs& nominal)
    : tool_(tool), inputs_(nominal) {}

const catalog::Outputs* Evaluator::run(catalog::ToolError& error) {
  ++evaluations_;
  last_ = tool_.compute(inputs_);
  if (auto* failure = std::get_if<catalog::ToolError>(&last_)) {
    error = std::move(*failure);
    return nullptr;
  }
  const auto& outputs = std::get<catalog::Outputs>(last_);
  const auto& d = tool_.descriptor;
  for (size_t i = 0; i < d.outputs.size(); ++i) {
    const catalog::OutputValue* v = outputs.find(d.outputs[i].key, i);
    if (v == nullptr) throw std::logic_error(d.slug + " did not set output " + d.outputs[i].key);
    if (const double* x = std::get_if<double>(v); x && !std::isfinite(*x))
      throw std::logic_error(d.slug + " produced non-finite " + d.outputs[i].key);
  }
  return &outputs;
}

double Evaluator::number(const catalog::Outputs& outputs, size_t output) const {
  const auto& out = tool_.descriptor.outputs[output];
  const catalog::OutputValue* v = outputs.find(out.key, output);
  if (const double* x = v ? std::get_if<double>(v) : nullptr) return *x;
  throw std::logic_error(tool_.descriptor.slug + " set " + out.key + " as text");
}

bool is_numeric(const catalog::InputDescriptor& in) {
  return in.type == catalog::InputType::Number || in.type == catalog::InputType::Integer;
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
