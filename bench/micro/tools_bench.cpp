// Per tool, the work of one execute call between the HTTP layer and the envelope:
// parse + validate + compute + render of the tool's default body (target ≤ 2 µs), and
// each of the four steps alone so a regression points at its step.
#include <benchmark/benchmark.h>

#include "api/execute.hpp"
#include "bench_env.hpp"
#include "catalog/json_body.hpp"
#include "catalog/render.hpp"
#include "catalog/validate.hpp"
#include "core/json_writer.hpp"
#include "micro_benchmarks.hpp"

namespace toolcalc::bench {
namespace {

void tool_full(benchmark::State& state, const catalog::Tool* tool, std::string body) {
  std::string out;
  for (auto _ : state) {
    catalog::Inputs inputs;
    ApiError error;
    out.clear();
    if (!api::prepare_inputs(tool->descriptor, body, inputs, error) ||
        !api::compute_result(*tool, inputs, out, error)) {
      state.SkipWithError(("default body refused: " + error.message).c_str());
      break;
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void tool_parse(benchmark::State& state, const catalog::Tool*, std::string body) {
  catalog::ParsedBody parsed;
  ApiError error;
  for (auto _ : state) {
    catalog::parse_body(body, parsed, error);
    benchmark::DoNotOptimize(parsed.members.data());
  }
}

void tool_validate(benchmark::State& state, const catalog::Tool* tool, std::string body) {
  catalog::ParsedBody parsed;
  ApiError error;
  catalog::parse_body(body, parsed, error);
  for (auto _ : state) {
    catalog::Inputs inputs;
    catalog::validate_inputs(parsed, tool->descriptor, inputs, error);
    benchmark::DoNotOptimize(inputs.size());
  }
}

void tool_compute(benchmark::State& state, const catalog::Tool* tool, std::string body) {
  catalog::ParsedBody parsed;
  catalog::Inputs inputs;
  ApiError error;
  catalog::parse_body(body, parsed, error);
  catalog::validate_inputs(parsed, tool->descriptor, inputs, error);
  for (auto _ : state) {
    catalog::ComputeResult r = tool->compute(inputs);
    benchmark::DoNotOptimize(r.index());
  }
}

void tool_render(benchmark::State& state, const catalog::Tool* tool, std::string body) {
  catalog::ParsedBody parsed;
  catalog::Inputs inputs;
  ApiError error;
  catalog::parse_body(body, parsed, error);
  catalog::validate_inputs(parsed, tool->descriptor, inputs, error);
  const auto outputs = std::get<catalog::Outputs>(tool->compute(inputs));
  std::string out;
  for (auto _ : state) {
    out.clear();
    JsonWriter w(out);
    catalog::render_result(w, tool->descriptor, outputs);
    benchmark::DoNotOptimize(out.data());
  }
}

}  // namespace

void register_tool_benchmarks() {
  for (const auto& registered : env().registry->tools()) {
    const catalog::Tool* tool = &registered.tool;
    const std::string slug = tool->descriptor.slug;
    const std::string body = default_body(tool->descriptor);
    benchmark::RegisterBenchmark(("tool/" + slug).c_str(), tool_full, tool, body);
    benchmark::RegisterBenchmark(("tool.parse/" + slug).c_str(), tool_parse, tool, body);
    benchmark::RegisterBenchmark(("tool.validate/" + slug).c_str(), tool_validate, tool, body);
    benchmark::RegisterBenchmark(("tool.compute/" + slug).c_str(), tool_compute, tool, body);
    benchmark::RegisterBenchmark(("tool.render/" + slug).c_str(), tool_render, tool, body);
  }
}

}  // namespace toolcalc::bench
