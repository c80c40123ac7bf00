#include "api/sweep_request.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "catalog/validate.hpp"
#include "core/decimal.hpp"

namespace toolcalc::api {
namespace {

using catalog::BodyMember;
using catalog::InputDescriptor;
using catalog::InputType;

// Significant digits of the x values: enough for any engineering input, few enough that
// 0.1 + 2·0.1 reads 0.3 (the value used is the value shown).
constexpr int kSignificantDigits = 12;

std::string text_of(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

const BodyMember* find(const std::vector<BodyMember>& members, std::string_view key) {
  for (const auto& m : members)
    if (m.key == key) return &m;
  return nullptr;
}

std::string numeric_keys(const catalog::ToolDescriptor& tool) {
  std::string s;
  for (const auto& in : tool.inputs) {
    if (!in.is_numeric()) continue;
    if (!s.empty()) s += ", ";
    s += in.key;
  }
  return s;
}

bool number_of(const BodyMember& m, double& out) {
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

double round_significant(double v) {
  char buf[40];
  auto w = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific,
                         kSignificantDigits - 1);
  double r = v;
  std::from_chars(buf, w.ptr, r);
  return r;
}

// vary.from / vary.to: a finite number within the input's bounds (an integer for an
// integer input).
bool check_end(const BodyMember* m, std::string_view name, const InputDescriptor& in, double& value,
               ApiError& error) {
  const std::string field = "vary." + std::string(name);
  if (m == nullptr) {
    error = validation_error(field, field + " is required");
    return false;
  }
  if (!number_of(*m, value)) {
    std::string msg = field + " must be a number, got " + catalog::kind_name(m->kind);
    if (m->kind == BodyMember::Kind::String) msg += " (send numbers without quotes)";
    error = validation_error(field, msg);
    return false;
  }
  if (!std::isfinite(value)) {
    error = validation_error(field, field + " must be a finite number");
    return false;
  }
  if (in.type == InputType::Integer && value != std::trunc(value)) {
    error = validation_error(field, field + " must be an integer (" + in.key +
                                        " is an integer input), got " + text_of(value));
    return false;
  }
  if (value == 0) value = 0;  // folds -0 into 0
  if (in.min && value < *in.min) {
    error = validation_error(field, field + " must be at least " + text_of(*in.min) +
                                        " (the minimum of " + in.key + ")");
    return false;
  }
  if (in.max && value > *in.max) {
    error = validation_error(
        field, field + " must be at most " + text_of(*in.max) + " (the maximum of " + in.key + ")");
    return false;
  }
  return true;
}

bool check_vary(const catalog::ToolDescriptor& tool, const BodyMember& vary, SweepRequest& out,
                ApiError& error) {
  for (const auto& f : vary.fields) {
    if (f.key == "key" || f.key == "from" || f.key == "to" || f.key == "points") continue;
    error = validation_error(
        "vary." + f.key, "unknown member 'vary." + f.key + "'; vary has key, from, to and points");
    return false;
  }

  const BodyMember* key = find(vary.fields, "key");
  const std::string keys = numeric_keys(tool);
  if (key == nullptr) {
    error = validation_error("vary.key",
                             "vary.key is required: the numeric input to vary (" + keys + ")");
    return false;
  }
  const InputDescriptor* input = nullptr;
  if (key->kind == BodyMember::Kind::String)
    for (const auto& in : tool.inputs)
      if (in.key == key->text && in.is_numeric()) input = &in;
  if (input == nullptr) {
    std::string msg =
        key->kind == BodyMember::Kind::String
            ? "vary.key '" + key->text + "' is not a numeric input of " + tool.slug
            : std::string("vary.key must be a string, got ") + catalog::kind_name(key->kind);
    error = validation_error("vary.key", msg + "; vary one of: " + keys);
    return false;
  }

  double from = 0, to = 0;
  if (!check_end(find(vary.fields, "from"), "from", *input, from, error)) return false;
  if (!check_end(find(vary.fields, "to"), "to", *input, to, error)) return false;
  if (from == to) {
    error = validation_error("vary.to", "vary.to must differ from vary.from (" + text_of(from) +
                                            "); a sweep needs a range");
    return false;
  }

  const BodyMember* points_member = find(vary.fields, "points");
  const std::string range =
      "between " + std::to_string(kSweepMinPoints) + " and " + std::to_string(kSweepMaxPoints);
  if (points_member == nullptr) {
    error = validation_error("vary.points", "vary.points is required: an integer " + range);
    return false;
  }
  double points = 0;
  const bool is_number = number_of(*points_member, points);
  if (is_number && !std::isfinite(points)) {
    error =
        validation_error("vary.points", "vary.points must be a finite number: an integer " + range);
    return false;
  }
  if (!is_number || points != std::trunc(points)) {
    error = validation_error("vary.points", "vary.points must be an integer " + range);
    return false;
  }
  if (points < kSweepMinPoints || points > kSweepMaxPoints) {
    error = validation_error("vary.points",
                             "vary.points must be " + range + ", got " + text_of(points));
    return false;
  }
  const bool integer = input->type == InputType::Integer;
  const double span = std::fabs(to - from) + 1;
  if (integer && points > span) {
    error = validation_error("vary.points",
                             "vary.points must be at most " + text_of(span) + ": " + input->key +
                                 " is an integer input and takes only " + text_of(span) +
                                 " values from " + text_of(from) + " to " + text_of(to));
    return false;
  }

  out.input = input;
  out.xs = sweep_values(from, to, static_cast<int>(points), integer);
  // Rounding must not go past the input's bounds (only possible for a bound written with
  // more than 12 significant digits), and must leave the points distinct.
  for (double& x : out.xs) {
    if (input->min) x = std::max(x, *input->min);
    if (input->max) x = std::min(x, *input->max);
  }
  if (std::adjacent_find(out.xs.begin(), out.xs.end()) != out.xs.end()) {
    error = validation_error("vary.points", "vary.from and vary.to are too close for " +
                                                text_of(points) +
                                                " distinct points at 12 significant digits");
    return false;
  }
  return true;
}

}  // namespace

std::vector<double> sweep_values(double from, double to, int points, bool integer) {
  std::vector<double> xs;
  xs.reserve(static_cast<size_t>(points));
  for (int i = 0; i < points; ++i) {
    double x = i == points - 1 ? to : from + (to - from) * i / (points - 1);
    x = integer ? std::round(x) : round_significant(x);
    if (x == 0) x = 0;  // no -0
    xs.push_back(x);
  }
  return xs;
}

void set_number_member(catalog::ParsedBody& body, std::string_view key, double x) {
  for (auto& m : body.members)
    if (m.key == key) {
      m.kind = BodyMember::Kind::Double;
      m.double_value = x;
      return;
    }
  BodyMember& m = body.members.emplace_back();
  m.key = key;
  m.kind = BodyMember::Kind::Double;
  m.double_value = x;
}

bool parse_sweep_request(const catalog::ToolDescriptor& tool, std::string_view body,
                         SweepRequest& out, ApiError& error) {
  thread_local catalog::ParsedBody parsed;  // reused: keeps its capacity across requests
  if (!catalog::parse_body(body, parsed, error)) return false;
  for (const auto& m : parsed.members) {
    if (m.key == "inputs" || m.key == "vary") continue;
    error = validation_error(
        m.key, "unknown member '" + m.key + "'; a sweep body has only 'inputs' and 'vary'");
    return false;
  }
  const BodyMember* vary = find(parsed.members, "vary");
  if (vary == nullptr) {
    error = validation_error("vary", "vary is required: {\"key\", \"from\", \"to\", \"points\"}");
    return false;
  }
  if (vary->kind != BodyMember::Kind::Object) {
    error = validation_error(
        "vary", std::string("vary must be an object, got ") + catalog::kind_name(vary->kind));
    return false;
  }
  const BodyMember* inputs = find(parsed.members, "inputs");
  if (inputs != nullptr && inputs->kind != BodyMember::Kind::Object) {
    error = validation_error("inputs", std::string("inputs must be an object of the tool's "
                                                   "inputs, got ") +
                                           catalog::kind_name(inputs->kind));
    return false;
  }
  if (!check_vary(tool, *vary, out, error)) return false;

  out.inputs.members.clear();
  if (inputs != nullptr) out.inputs.members = inputs->fields;
  set_number_member(out.inputs, out.input->key, out.xs.front());
  catalog::Inputs checked;
  if (!catalog::validate_inputs(out.inputs, tool, checked, error)) {
    error.field = "inputs." + error.field;
    return false;
  }
  return true;
}

}  // namespace toolcalc::api
