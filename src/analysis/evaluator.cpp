#include "analysis/evaluator.hpp"

#include <cmath>
#include <stdexcept>

namespace toolcalc::analysis {

Evaluator::Evaluator(const catalog::Tool& tool, const catalog::Inputs& nominal)
    : tool_(tool),
      inputs_(nominal),
      slot_(tool.descriptor.outputs.size(), 0),
      key_data_(tool.descriptor.outputs.size(), nullptr) {}

// Finds every descriptor output in `outputs`: at the slot of the last run when its key is
// the same literal there, else by comparing keys (and remembers where).
bool Evaluator::locate(const catalog::Outputs& outputs) {
  const auto& d = tool_.descriptor;
  for (size_t i = 0; i < d.outputs.size(); ++i) {
    const size_t at = slot_[i];
    if (at < outputs.size() && outputs.key_at(at).data() == key_data_[i] &&
        outputs.key_at(at).size() == d.outputs[i].key.size())
      continue;
    size_t j = 0;
    while (j < outputs.size() && outputs.key_at(j) != d.outputs[i].key) ++j;
    if (j == outputs.size()) return false;
    slot_[i] = j;
    key_data_[i] = outputs.key_at(j).data();
  }
  return true;
}

const catalog::Outputs* Evaluator::run(catalog::ToolError& error) {
  ++evaluations_;
  last_ = tool_.compute(inputs_);
  if (auto* failure = std::get_if<catalog::ToolError>(&last_)) {
    error = std::move(*failure);
    return nullptr;
  }
  const auto& outputs = std::get<catalog::Outputs>(last_);
  const auto& d = tool_.descriptor;
  if (!locate(outputs)) {
    for (const auto& out : d.outputs)
      if (!outputs.find(out.key)) throw std::logic_error(d.slug + " did not set output " + out.key);
  }
  for (size_t i = 0; i < d.outputs.size(); ++i) {
    const catalog::OutputValue& v = outputs.value_at(slot_[i]);
    const bool number = d.outputs[i].type == catalog::OutputType::Number;
    if (number != std::holds_alternative<double>(v))
      throw std::logic_error(d.slug + " set " + d.outputs[i].key +
                             (number ? " as text" : " as a number"));
    if (number && !std::isfinite(std::get<double>(v)))
      throw std::logic_error(d.slug + " produced non-finite " + d.outputs[i].key);
  }
  return &outputs;
}

double Evaluator::number(size_t output) const {
  return std::get<double>(std::get<catalog::Outputs>(last_).value_at(slot_[output]));
}

const std::string& Evaluator::text(size_t output) const {
  return std::get<std::string>(std::get<catalog::Outputs>(last_).value_at(slot_[output]));
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
