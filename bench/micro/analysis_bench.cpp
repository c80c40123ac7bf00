// The analyses of docs/analysis.md per tool, on one core: a tolerance analysis of 10,000
// Monte Carlo samples with every numeric input toleranced (±1 % of a non-zero nominal, at
// most 12 inputs, so up to 4,096 corners besides; target ≤ 10 ms), and a solve (target
// ≤ 1 ms): the work that runs on the analysis pool, from the parsed request to the rendered
// result (the body is parsed once before the timed loop, on the reading thread in the server).
// "handle.tolerance" is the whole request through Service::handle for the battery tool.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/evaluator.hpp"
#include "api/analysis_render.hpp"
#include "api/solve_request.hpp"
#include "api/tolerance_request.hpp"
#include "bench_env.hpp"
#include "catalog/json_body.hpp"
#include "catalog/validate.hpp"
#include "core/json_writer.hpp"
#include "micro_benchmarks.hpp"

namespace toolcalc::bench {
namespace {

// The nominal inputs a body starts from, in order of preference: every input at its default,
// then each published example's inputs (the others at their defaults). The first with which
// the analysis runs is timed; a tool whose defaults are refused this way is still timed on
// inputs its authors published, never on inputs chosen for it by hand.
std::vector<std::string> nominal_candidates(const catalog::ToolDescriptor& tool) {
  std::vector<std::string> v = {default_body(tool)};
  for (const auto& example : tool.examples) v.push_back(example.request_json);
  return v;
}

// `nominal` validated as execute validates a body; false when refused.
bool validated(const catalog::ToolDescriptor& tool, const std::string& nominal,
               catalog::Inputs& inputs) {
  catalog::ParsedBody parsed;
  ApiError error;
  return catalog::parse_body(nominal, parsed, error) &&
         catalog::validate_inputs(parsed, tool, inputs, error);
}

// ±1 % of each numeric input's nominal value (at least ±1 for an integer input), shrunk to
// what the input's bounds allow, for at most 12 inputs. An input at 0 keeps its value: ±1 %
// of 0 is no range, and 0 is often a tool's "none" (no third resistor, no SINAD given).
std::string tolerance_body(const catalog::ToolDescriptor& tool, const std::string& nominal,
                           int samples) {
  catalog::Inputs inputs;
  if (!validated(tool, nominal, inputs)) return {};
  std::string s;
  JsonWriter w(s);
  w.begin_object().key("inputs").raw(nominal);
  w.key("tolerances").begin_object();
  int n = 0;
  for (const auto& in : tool.inputs) {
    if (!in.is_numeric() || n == 12) continue;
    const double x0 = inputs.number(in.key);
    if (x0 == 0) continue;
    double half = std::fabs(x0) / 100;
    if (in.type == catalog::InputType::Integer) half = std::max(1.0, std::round(half));
    const double lo = std::max(*in.min, x0 - half), hi = std::min(*in.max, x0 + half);
    if (!(lo < hi)) continue;
    w.key(in.key).begin_object().key("min").shortest(lo).key("max").shortest(hi).end_object();
    ++n;
  }
  w.end_object().key("samples").integer(samples).end_object();
  return n > 0 ? s : std::string();
}

// Whether the body is accepted and its analysis gives a result (checked with 100 samples).
bool tolerance_runs(const catalog::Tool& tool, std::string body) {
  if (body.empty()) return false;
  const auto at = body.rfind("\"samples\":");
  body = body.substr(0, at) + "\"samples\":100}";
  api::ToleranceRequest request;
  ApiError error;
  if (!api::parse_tolerance_request(tool.descriptor, body, request, error)) return false;
  return std::holds_alternative<analysis::ToleranceResult>(
      analysis::run_tolerance(tool, request.nominal, request.options));
}

struct Timed {
  std::string body;   // empty: nothing to time
  std::string label;  // where the nominal inputs come from
};

Timed tolerance_choice(const catalog::Tool& tool, int samples) {
  const auto candidates = nominal_candidates(tool.descriptor);
  for (size_t i = 0; i < candidates.size(); ++i) {
    std::string body = tolerance_body(tool.descriptor, candidates[i], samples);
    if (tolerance_runs(tool, body))
      return {std::move(body), i == 0 ? "defaults" : "example " + std::to_string(i)};
  }
  return {};
}

void tolerance(benchmark::State& state, const catalog::Tool* tool, Timed timed) {
  const std::string& body = timed.body;
  if (body.empty()) {
    state.SkipWithError("no inputs with which the analysis runs");
    return;
  }
  if (timed.label != "defaults") state.SetLabel(timed.label);
  api::ToleranceRequest request;
  ApiError error;
  if (!api::parse_tolerance_request(tool->descriptor, body, request, error)) {
    state.SkipWithError(("body refused: " + error.message).c_str());
    return;
  }
  std::string out;
  for (auto _ : state) {
    const auto r = analysis::run_tolerance(*tool, request.nominal, request.options);
    const auto* result = std::get_if<analysis::ToleranceResult>(&r);
    if (!result) {
      state.SkipWithError(std::get<analysis::ToleranceFailure>(r).error.message.c_str());
      return;
    }
    out.clear();
    api::render_tolerance_result(out, tool->descriptor, request, *result);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["inputs"] = static_cast<double>(request.options.inputs.size());
  state.counters["evaluations"] = static_cast<double>(request.evaluations);
}

// A solve with a root to refine: for a numeric input (in descriptor order) and a point a
// fraction of the way from its nominal value to its maximum (then to its minimum), the first
// number output that differs between the two, with its value at that point as the target;
// the first of these (nominal inputs as for the tolerance; fractions 30 %, 10 %, 3 %) that
// computes at both points and whose solve finds the root.
bool solve_runs(const catalog::Tool& tool, const std::string& body) {
  api::SolveRequest request;
  ApiError error;
  return api::parse_solve_request(tool.descriptor, body, request, error) &&
         !analysis::run_solve(tool, request.nominal, request.options).solutions.empty();
}

Timed solve_choice(const catalog::Tool& tool) {
  const auto& d = tool.descriptor;
  const auto candidates = nominal_candidates(d);
  for (size_t c = 0; c < candidates.size(); ++c) {
    catalog::Inputs at0;
    if (!validated(d, candidates[c], at0)) continue;
    const auto r0 = tool.compute(at0);
    if (!std::holds_alternative<catalog::Outputs>(r0)) continue;
    for (size_t index = 0; index < d.inputs.size(); ++index) {
      const auto& vary = d.inputs[index];
      if (!vary.is_numeric()) continue;
      const double x0 = at0.number(vary.key);
      for (const double bound : {*vary.max, *vary.min})
        for (const double fraction : {0.3, 0.1, 0.03}) {
          double x1 = x0 + fraction * (bound - x0);
          if (vary.type == catalog::InputType::Integer) x1 = std::round(x1);
          if (x1 == x0) continue;
          catalog::Inputs at1 = at0;
          at1.set_number(index, x1);
          const auto r1 = tool.compute(at1);
          if (!std::holds_alternative<catalog::Outputs>(r1)) continue;
          for (const auto& out : d.outputs) {
            if (out.type != catalog::OutputType::Number) continue;
            const double a = std::get<catalog::Outputs>(r0).number(out.key);
            const double b = std::get<catalog::Outputs>(r1).number(out.key);
            if (a == b) continue;
            std::string s;
            JsonWriter w(s);
            w.begin_object().key("inputs").raw(candidates[c]).field("vary", vary.key);
            w.key("target").begin_object().field("output", out.key).key("value").shortest(b);
            w.end_object().end_object();
            if (!solve_runs(tool, s)) break;
            return {std::move(s), c == 0 ? "defaults" : "example " + std::to_string(c)};
          }
        }
    }
  }
  return {};
}

void solve(benchmark::State& state, const catalog::Tool* tool, Timed timed) {
  const std::string& body = timed.body;
  if (timed.label != "defaults") state.SetLabel(timed.label);
  api::SolveRequest request;
  ApiError error;
  if (body.empty() || !api::parse_solve_request(tool->descriptor, body, request, error)) {
    state.SkipWithError(("no solve to time: " + error.message).c_str());
    return;
  }
  std::string out;
  int64_t evaluations = 0;
  for (auto _ : state) {
    const analysis::SolveResult r = analysis::run_solve(*tool, request.nominal, request.options);
    if (r.solutions.empty()) {
      state.SkipWithError("no solution");
      return;
    }
    out.clear();
    api::render_solve_result(out, tool->descriptor, request, r);
    evaluations = r.evaluations;
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["evaluations"] = static_cast<double>(evaluations);
}

void handle_tolerance(benchmark::State& state, std::string path, std::string body) {
  api::Service& service = *env().service;
  api::Request request = execute_request({}, path, body);
  for (auto _ : state) {
    api::Response res = service.handle(request);
    if (res.status != 200) {
      state.SkipWithError(("status " + std::to_string(res.status) + ": " + res.body).c_str());
      break;
    }
    benchmark::DoNotOptimize(res.body.data());
  }
}

}  // namespace

void register_analysis_benchmarks() {
  for (const auto& registered : env().registry->tools()) {
    const catalog::Tool* tool = &registered.tool;
    const auto& d = tool->descriptor;
    if (std::none_of(d.inputs.begin(), d.inputs.end(),
                     [](const catalog::InputDescriptor& i) { return i.is_numeric(); }))
      continue;
    benchmark::RegisterBenchmark(("analysis.tolerance/" + d.slug).c_str(), tolerance, tool,
                                 tolerance_choice(*tool, 10000))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("analysis.solve/" + d.slug).c_str(), solve, tool,
                                 solve_choice(*tool))
        ->Unit(benchmark::kMicrosecond);
  }
  const auto* battery = env().registry->find("iot-mcu", "mcu-deep-sleep-battery");
  benchmark::RegisterBenchmark("handle.tolerance/mcu-deep-sleep-battery", handle_tolerance,
                               battery->tool.descriptor.endpoint() + "/tolerance",
                               tolerance_choice(battery->tool, 10000).body)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace toolcalc::bench
