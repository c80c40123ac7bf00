// The analyses of docs/analysis.md per tool, on one core: a tolerance analysis of 10,000
// Monte Carlo samples with every numeric input toleranced (±1 %, at most 12 inputs, so up
// to 4,096 corners besides; target ≤ 10 ms), and a solve (target ≤ 1 ms): the work that
// runs on the analysis pool, parse to rendered result. "handle.tolerance" is the whole
// request through Service::handle for the battery tool.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>

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

// ±1 % of each numeric input's default (±1 % of its span when the default is 0; at least
// ±1 for an integer input), kept within its bounds, for at most 12 inputs.
std::string tolerance_body(const catalog::ToolDescriptor& tool, int samples) {
  std::string s;
  JsonWriter w(s);
  w.begin_object().key("inputs");
  w.raw(default_body(tool));
  w.key("tolerances").begin_object();
  int n = 0;
  for (const auto& in : tool.inputs) {
    if (!analysis::is_numeric(in) || n == 12) continue;
    const double x0 = std::get<double>(in.default_value);
    double half = x0 != 0 ? std::fabs(x0) / 100 : (*in.max - *in.min) / 100;
    if (in.type == catalog::InputType::Integer) half = std::max(1.0, std::round(half));
    const double lo = std::max(*in.min, x0 - half), hi = std::min(*in.max, x0 + half);
    if (!(lo < hi)) continue;
    w.key(in.key).begin_object().key("min").shortest(lo).key("max").shortest(hi).end_object();
    ++n;
  }
  w.end_object().key("samples").integer(samples).end_object();
  return s;
}

void tolerance(benchmark::State& state, const catalog::Tool* tool, std::string body) {
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

// Solve for the first numeric input: the target is the first number output that moves
// between the default and a point 30 % of the way to the input's maximum (or minimum), its
// value there, so the solve has a root to refine.
std::string solve_body(const catalog::Tool& tool) {
  const auto& d = tool.descriptor;
  const catalog::InputDescriptor* vary = nullptr;
  for (const auto& in : d.inputs)
    if (!vary && analysis::is_numeric(in)) vary = &in;
  const double x0 = std::get<double>(vary->default_value);
  double x1 = x0 + 0.3 * (*vary->max - x0);
  if (x1 == x0) x1 = x0 + 0.3 * (*vary->min - x0);
  if (vary->type == catalog::InputType::Integer) x1 = std::round(x1);
  catalog::ParsedBody parsed;
  catalog::Inputs at0, at1;
  ApiError error;
  catalog::parse_body(default_body(d), parsed, error);
  catalog::validate_inputs(parsed, d, at0, error);
  at1 = at0;
  size_t index = static_cast<size_t>(vary - d.inputs.data());
  at1.set_number(index, x1);
  const auto r0 = tool.compute(at0), r1 = tool.compute(at1);
  std::string output;
  double target = 0;
  if (std::holds_alternative<catalog::Outputs>(r0) && std::holds_alternative<catalog::Outputs>(r1))
    for (const auto& out : d.outputs) {
      if (out.type != catalog::OutputType::Number || !output.empty()) continue;
      const double a = std::get<catalog::Outputs>(r0).number(out.key);
      const double b = std::get<catalog::Outputs>(r1).number(out.key);
      if (a != b) output = out.key, target = b;
    }
  if (output.empty()) return {};
  std::string s;
  JsonWriter w(s);
  w.begin_object().key("inputs").raw(default_body(d)).field("vary", vary->key);
  w.key("target").begin_object().field("output", output).key("value").shortest(target);
  w.end_object().end_object();
  return s;
}

void solve(benchmark::State& state, const catalog::Tool* tool, std::string body) {
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
    if (std::none_of(d.inputs.begin(), d.inputs.end(), analysis::is_numeric)) continue;
    benchmark::RegisterBenchmark(("analysis.tolerance/" + d.slug).c_str(), tolerance, tool,
                                 tolerance_body(d, 10000))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("analysis.solve/" + d.slug).c_str(), solve, tool,
                                 solve_body(*tool))
        ->Unit(benchmark::kMicrosecond);
  }
  const auto* battery = env().registry->find("iot-mcu", "mcu-deep-sleep-battery");
  benchmark::RegisterBenchmark("handle.tolerance/mcu-deep-sleep-battery", handle_tolerance,
                               battery->tool.descriptor.endpoint() + "/tolerance",
                               tolerance_body(battery->tool.descriptor, 10000))
      ->Unit(benchmark::kMillisecond);
}

}  // namespace toolcalc::bench
