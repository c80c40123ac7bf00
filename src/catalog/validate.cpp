#include "catalog/validate.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cmath>

#include "core/decimal.hpp"

namespace toolcalc::catalog {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: a transposed pair counts as one typo.
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string bound_text(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

// Reads a JSON number member as a double; false when it is not a number.
bool member_number(const BodyMember& m, double& out) {
  switch (m.kind) {
    case BodyMember::Kind::Int:
      out = static_cast<double>(m.int_value);
      return true;
    case BodyMember::Kind::Uint:
      out = static_cast<double>(m.uint_value);
      return true;
    case BodyMember::Kind::Double:
      out = m.double_value;
      return true;
    default:
      return false;
  }
}

bool check_numeric(const BodyMember& m, const InputDescriptor& in, double& value, ApiError& error) {
  const bool integer = in.type == InputType::Integer;
  const char* expected = integer ? "an integer" : "a number";
  if (!member_number(m, value)) {
    std::string msg = in.key + " must be " + expected + ", got " + kind_name(m.kind);
    if (m.kind == BodyMember::Kind::String) msg += " (send numbers without quotes)";
    error = validation_error(in.key, msg);
    return false;
  }
  if (!std::isfinite(value)) {
    error = validation_error(in.key, in.key + " must be a finite number");
    return false;
  }
  if (integer && value != std::trunc(value)) {
    error = validation_error(in.key, in.key + " must be an integer, got " + bound_text(value));
    return false;
  }
  if (value == 0) value = 0;  // folds -0 into 0
  if (in.min && value < *in.min) {
    error = validation_error(in.key, in.key + " must be at least " + bound_text(*in.min));
    return false;
  }
  if (in.max && value > *in.max) {
    error = validation_error(in.key, in.key + " must be at most " + bound_text(*in.max));
    return false;
  }
  return true;
}

std::string options_list(const std::vector<std::string>& options) {
  std::string s;
  for (size_t i = 0; i < options.size(); ++i) {
    if (i) s += ", ";
    s += options[i];
  }
  return s;
}

}  // namespace

std::string closest_key(std::string_view unknown, const ToolDescriptor& tool) {
  std::string best;
  size_t best_distance = 3;
  for (const auto& in : tool.inputs) {
    size_t d = edit_distance(unknown, in.key);
    const bool prefix =
        unknown.size() >= 3 && (in.key.rfind(unknown, 0) == 0 || unknown.rfind(in.key, 0) == 0);
    if (prefix) d = std::min<size_t>(d, 1);
    if (d < best_distance) {
      best_distance = d;
      best = in.key;
    }
  }
  return best;
}

bool validate_inputs(const ParsedBody& body, const ToolDescriptor& tool, Inputs& inputs,
                     ApiError& error) {
  // Each input's member, found in one pass: clients mostly send the inputs in the
  // descriptor's order, so the input at the member's own index is tried first.
  boost::container::small_vector<const BodyMember*, 16> member_of(tool.inputs.size(), nullptr);
  // Unknown keys first: a typo must never fall back to a default silently.
  for (size_t j = 0; j < body.members.size(); ++j) {
    const BodyMember& m = body.members[j];
    size_t i = j;
    if (i >= tool.inputs.size() || tool.inputs[i].key != m.key) {
      i = 0;
      while (i < tool.inputs.size() && tool.inputs[i].key != m.key) ++i;
    }
    if (i < tool.inputs.size()) {
      member_of[i] = &m;
      continue;
    }
    std::string msg = "unknown input '" + m.key + "'";
    const std::string suggestion = closest_key(m.key, tool);
    if (!suggestion.empty()) msg += "; did you mean '" + suggestion + "'?";
    error = validation_error(m.key, msg);
    return false;
  }

  for (size_t i = 0; i < tool.inputs.size(); ++i) {
    const InputDescriptor& in = tool.inputs[i];
    const BodyMember* m = member_of[i];
    if (m == nullptr) {  // explicit null is a wrong type, not "use the default"
      if (in.required) {
        error = validation_error(in.key, in.key + " is required");
        return false;
      }
      inputs.add(in.key, std::visit([](const auto& v) { return InputValue(v); }, in.default_value));
      continue;
    }
    switch (in.type) {
      case InputType::Number:
      case InputType::Integer: {
        double value = 0;
        if (!check_numeric(*m, in, value, error)) return false;
        inputs.add(in.key, value);
        break;
      }
      case InputType::Enum: {
        if (m->kind != BodyMember::Kind::String ||
            std::find(in.options.begin(), in.options.end(), m->text) == in.options.end()) {
          error = validation_error(in.key, in.key + " must be one of: " + options_list(in.options));
          return false;
        }
        inputs.add(in.key, m->text);
        break;
      }
      case InputType::Boolean: {
        if (m->kind != BodyMember::Kind::Bool) {
          error = validation_error(in.key,
                                   in.key + " must be true or false, got " + kind_name(m->kind));
          return false;
        }
        inputs.add(in.key, m->boolean);
        break;
      }
    }
  }
  return true;
}

}  // namespace toolcalc::catalog
