// micro_bench: Google Benchmark's command line (--benchmark_filter, --benchmark_format,
// --benchmark_out, ...). The benchmarks are registered at run time because the per-tool
// ones are named after the registry's tools.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>

#include "bench_env.hpp"
#include "micro_benchmarks.hpp"

int main(int argc, char** argv) {
  try {
    toolcalc::bench::env();
    toolcalc::bench::register_tool_benchmarks();
    toolcalc::bench::register_service_benchmarks();
    toolcalc::bench::register_http_benchmarks();
    toolcalc::bench::register_redis_codec_benchmarks();
    toolcalc::bench::register_analysis_benchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "micro_bench: set-up failed: %s\n", e.what());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
