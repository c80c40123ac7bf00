#include "api/sweep_request.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "api/request_fields.hpp"

namespace toolcalc::api {
namespace {

using catalog::BodyMember;
using catalog::InputDescriptor;
using catalog::InputType;
using fields::find;
using fields::text;

double round_significant(double v) {
  char buf[40];
  auto w = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific,
                         kSweepSignificantDigits - 1);
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
  if (!fields::finite_number(*m, field, value, error)) return false;
  if (in.type == InputType::Integer && value != std::trunc(value)) {
    error = validation_error(field, field + " must be an integer (" + in.key +
                                        " is an integer input), got " + text(value));
    return false;
  }
  if (in.min && value < *in.min) {
    error = validation_error(
        field, field + " must be at least " + text(*in.min) + " (the minimum of " + in.key + ")");
    return false;
  }
  if (in.max && value > *in.max) {
    error = validation_error(
        field, field + " must be at most " + text(*in.max) + " (the maximum of " + in.key + ")");
    return false;
  }
  return true;
}

bool check_vary(const catalog::ToolDescriptor& tool, const BodyMember& vary, SweepRequest& out,
                ApiError& error) {
  if (!fields::only_members(vary, "vary", {"key", "from", "to", "points"},
                            "key, from, to and points", error))
    return false;
  size_t index = 0;
  if (!fields::numeric_input_named(tool, find(vary.fields, "key"), "vary.key", "vary", index,
                                   error))
    return false;
  const InputDescriptor* input = &tool.inputs[index];

  double from = 0, to = 0;
  if (!check_end(find(vary.fields, "from"), "from", *input, from, error)) return false;
  if (!check_end(find(vary.fields, "to"), "to", *input, to, error)) return false;
  if (from == to) {
    error = validation_error("vary.to", "vary.to must differ from vary.from (" + text(from) +
                                            "); a sweep needs a range");
    return false;
  }

  const BodyMember* points_member = find(vary.fields, "points");
  const std::string range =
      "between " + std::to_string(kSweepMinPoints) + " and " + std::to_string(kSweepMaxPoints);
  if (points_member == nullptr) {
    error = fields::missing("vary.points", "an integer " + range);
    return false;
  }
  double points = 0;
  const bool is_number = fields::number_of(*points_member, points);
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
    error =
        validation_error("vary.points", "vary.points must be " + range + ", got " + text(points));
    return false;
  }
  const bool integer = input->type == InputType::Integer;
  const double span = std::fabs(to - from) + 1;
  if (integer && points > span) {
    error = validation_error(
        "vary.points", "vary.points must be at most " + text(span) + ": " + input->key +
                           " is an integer input and takes only " + text(span) + " values from " +
                           text(from) + " to " + text(to));
    return false;
  }

  out.input = input;
  out.xs = sweep_values(from, to, static_cast<int>(points), integer);
  // Rounding must not go past the input's bounds (only possible for a bound written with
  // more than kSweepSignificantDigits significant digits), and must leave the points distinct.
  for (double& x : out.xs) {
    if (input->min) x = std::max(x, *input->min);
    if (input->max) x = std::min(x, *input->max);
  }
  if (std::adjacent_find(out.xs.begin(), out.xs.end()) != out.xs.end()) {
    error = validation_error("vary.points", "vary.from and vary.to are too close for " +
                                                text(points) + " distinct points at " +
                                                std::to_string(kSweepSignificantDigits) +
                                                " significant digits");
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
  const catalog::ParsedBody* parsed = fields::parse_body_of(
      body, {"inputs", "vary"}, "a sweep body has only 'inputs' and 'vary'", error);
  if (parsed == nullptr) return false;
  const BodyMember* vary = find(parsed->members, "vary");
  if (vary == nullptr) {
    error = fields::missing("vary", R"({"key", "from", "to", "points"})");
    return false;
  }
  if (vary->kind != BodyMember::Kind::Object) {
    error = fields::not_an_object("vary", *vary);
    return false;
  }
  if (!fields::read_inputs(parsed->members, out.inputs, error)) return false;
  if (!check_vary(tool, *vary, out, error)) return false;

  set_number_member(out.inputs, out.input->key, out.xs.front());
  catalog::Inputs checked;
  return fields::validate_body_inputs(out.inputs, tool, checked, error);
}

}  // namespace toolcalc::api
