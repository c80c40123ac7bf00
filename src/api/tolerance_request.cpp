#include "api/tolerance_request.hpp"

#include <algorithm>
#include <cmath>

#include "api/request_fields.hpp"

namespace toolcalc::api {
namespace {

using analysis::Distribution;
using catalog::BodyMember;
using catalog::InputDescriptor;
using fields::find;
using fields::text;

constexpr std::string_view kShapes = R"({"pct": P}, {"abs": A} or {"min": a, "max": b})";

bool parse_distribution(const BodyMember& m, const std::string& field, Distribution& out,
                        ApiError& error) {
  if (m.kind == BodyMember::Kind::String && m.text == "normal") {
    out = Distribution::Normal;
    return true;
  }
  if (m.kind == BodyMember::Kind::String && m.text == "uniform") {
    out = Distribution::Uniform;
    return true;
  }
  error = validation_error(field, field + " must be \"normal\" or \"uniform\"");
  return false;
}

// An integer member within [lo, hi] (5.0 accepted, as for integer inputs).
bool integer_member(const BodyMember& m, const std::string& field, double lo, double hi,
                    double& out, ApiError& error) {
  const std::string range = "an integer from " + text(lo) + " to " + text(hi);
  if (!fields::number_of(m, out)) {
    error = fields::not_a_number(field, m, range);
    return false;
  }
  if (!std::isfinite(out)) {  // 1e400: the same words as for every number (docs/api.md)
    error = validation_error(field, field + " must be a finite number: " + range);
    return false;
  }
  if (out != std::trunc(out) || out < lo || out > hi) {
    error = validation_error(field, field + " must be " + range + ", got " + text(out));
    return false;
  }
  return true;
}

// A strictly positive, finite number.
bool positive(const BodyMember& m, const std::string& field, double& out, ApiError& error) {
  if (!fields::finite_number(m, field, out, error)) return false;
  if (out <= 0) {
    error = validation_error(field, field + " must be greater than 0, got " + text(out));
    return false;
  }
  return true;
}

std::string range_text(double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return "";
  return " (" + text(lo) + " to " + text(hi) + ")";
}

// One member of "tolerances": the range it gives the input, checked against the nominal
// and the input's bounds.
bool parse_tolerance(const catalog::ToolDescriptor& tool, const BodyMember& m,
                     const catalog::Inputs& nominal, Distribution fallback,
                     analysis::ToleranceSpec& spec, ApiError& error) {
  const std::string field = "tolerances." + m.key;
  size_t index = 0;
  while (index < tool.inputs.size() && tool.inputs[index].key != m.key) ++index;
  if (index == tool.inputs.size()) {
    std::string msg = "unknown input '" + m.key + "' in tolerances";
    const std::string suggestion = catalog::closest_key(m.key, tool);
    if (!suggestion.empty()) msg += "; did you mean '" + suggestion + "'?";
    error = validation_error(field, msg);
    return false;
  }
  const InputDescriptor& in = tool.inputs[index];
  if (!in.is_numeric()) {
    error = validation_error(
        field, m.key + " is " +
                   (in.type == catalog::InputType::Enum ? "a choice" : "a true/false") +
                   " input: only number and integer inputs take a "
                   "tolerance (" +
                   fields::numeric_input_keys(tool) + ")");
    return false;
  }
  if (m.kind != BodyMember::Kind::Object) {
    error = fields::not_an_object(field, m, ": " + std::string(kShapes));
    return false;
  }
  if (!fields::only_members(m, field, {"pct", "abs", "min", "max", "distribution"},
                            "pct, abs, min and max, and distribution", error))
    return false;
  const BodyMember* pct = find(m.fields, "pct");
  const BodyMember* abs = find(m.fields, "abs");
  const BodyMember* min = find(m.fields, "min");
  const BodyMember* max = find(m.fields, "max");
  const int kinds = (pct ? 1 : 0) + (abs ? 1 : 0) + (min || max ? 1 : 0);
  if (kinds != 1) {
    error =
        validation_error(field, field + " must give exactly one range: " + std::string(kShapes));
    return false;
  }
  if ((min != nullptr) != (max != nullptr)) {
    const std::string missing = min ? "max" : "min";
    error = validation_error(field + "." + missing, field + "." + missing + " is required with " +
                                                        field + "." + (min ? "min" : "max"));
    return false;
  }

  const double x0 = nominal.number(in.key);
  double lo = 0, hi = 0;
  if (pct) {
    double p = 0;
    if (!positive(*pct, field + ".pct", p, error)) return false;
    const double half = std::fabs(x0) * p / 100;
    lo = x0 - half, hi = x0 + half;
  } else if (abs) {
    double a = 0;
    if (!positive(*abs, field + ".abs", a, error)) return false;
    lo = x0 - a, hi = x0 + a;
  } else {
    if (!fields::finite_number(*min, field + ".min", lo, error)) return false;
    if (!fields::finite_number(*max, field + ".max", hi, error)) return false;
    if (lo > x0) {
      error = validation_error(field + ".min", field + ".min (" + text(lo) +
                                                   ") must be at most the nominal " + in.key +
                                                   " (" + text(x0) + ")");
      return false;
    }
    if (hi < x0) {
      error = validation_error(field + ".max", field + ".max (" + text(hi) +
                                                   ") must be at least the nominal " + in.key +
                                                   " (" + text(x0) + ")");
      return false;
    }
  }
  if (!(lo < hi)) {
    error = validation_error(
        field, field + " gives " + in.key + " an empty range (" + text(lo) + " to " + text(hi) +
                   ")" +
                   (pct && x0 == 0 ? ": a percentage of 0 is 0; give abs or min and max" : ""));
    return false;
  }
  // Never clipped: a range past a bound would analyse inputs the tool refuses.
  if (in.min && lo < *in.min) {
    error = validation_error(field, field + ": the range of " + in.key + range_text(lo, hi) +
                                        " goes below its minimum of " + text(*in.min));
    return false;
  }
  if (in.max && hi > *in.max) {
    error = validation_error(field, field + ": the range of " + in.key + range_text(lo, hi) +
                                        " goes above its maximum of " + text(*in.max));
    return false;
  }
  const bool integer = in.type == catalog::InputType::Integer;
  if (integer && std::ceil(lo) >= std::floor(hi)) {
    error = validation_error(field, field + ": the range of " + in.key + range_text(lo, hi) +
                                        " holds no integer but the nominal; " + in.key +
                                        " is an integer input");
    return false;
  }
  Distribution d = fallback;
  if (const BodyMember* dist = find(m.fields, "distribution"))
    if (!parse_distribution(*dist, field + ".distribution", d, error)) return false;
  spec = {index, x0, lo == 0 ? 0 : lo, hi == 0 ? 0 : hi, d, integer};
  return true;
}

}  // namespace

const char* distribution_name(Distribution d) {
  return d == Distribution::Uniform ? "uniform" : "normal";
}

bool parse_tolerance_request(const catalog::ToolDescriptor& tool, std::string_view body,
                             ToleranceRequest& out, ApiError& error) {
  const catalog::ParsedBody* parsed = fields::parse_body_of(
      body, {"inputs", "tolerances", "distribution", "samples", "seed"},
      "a tolerance body has inputs, tolerances, distribution, samples and seed", error);
  if (parsed == nullptr) return false;

  catalog::ParsedBody nominal_body;
  if (!fields::read_inputs(parsed->members, nominal_body, error)) return false;
  out.nominal = {};
  if (!fields::validate_body_inputs(nominal_body, tool, out.nominal, error)) return false;

  out.distribution = Distribution::Normal;
  if (const BodyMember* d = find(parsed->members, "distribution"))
    if (!parse_distribution(*d, "distribution", out.distribution, error)) return false;
  out.options.samples = analysis::kDefaultSamples;
  if (const BodyMember* s = find(parsed->members, "samples")) {
    double n = 0;
    if (!integer_member(*s, "samples", analysis::kMinSamples, analysis::kMaxSamples, n, error))
      return false;
    out.options.samples = static_cast<int64_t>(n);
  }
  out.options.seed = analysis::kDefaultSeed;
  if (const BodyMember* s = find(parsed->members, "seed")) {
    double seed = 0;
    if (!integer_member(*s, "seed", 0, static_cast<double>(analysis::kMaxSeed), seed, error))
      return false;
    out.options.seed = static_cast<uint64_t>(seed);
  }

  const BodyMember* tolerances = find(parsed->members, "tolerances");
  const std::string how_many = "a tolerance for 1 to " + std::to_string(analysis::kMaxToleranced) +
                               " numeric inputs (" + fields::numeric_input_keys(tool) + ")";
  if (tolerances == nullptr) {
    error = fields::missing("tolerances", how_many);
    return false;
  }
  if (tolerances->kind != BodyMember::Kind::Object) {
    error = fields::not_an_object("tolerances", *tolerances, ": " + how_many);
    return false;
  }
  if (tolerances->fields.empty() ||
      tolerances->fields.size() > static_cast<size_t>(analysis::kMaxToleranced)) {
    error = validation_error("tolerances", "tolerances must give " + how_many + "; got " +
                                               std::to_string(tolerances->fields.size()));
    return false;
  }
  out.options.inputs.clear();
  for (const auto& m : tolerances->fields) {
    analysis::ToleranceSpec spec;
    if (!parse_tolerance(tool, m, out.nominal, out.distribution, spec, error)) return false;
    out.options.inputs.push_back(spec);
  }
  std::sort(out.options.inputs.begin(), out.options.inputs.end(),
            [](const auto& a, const auto& b) { return a.input < b.input; });
  out.evaluations = analysis::tolerance_evaluations(out.options.inputs.size(), out.options.samples);
  return true;
}

}  // namespace toolcalc::api
