#pragma once
// Registration entry points of each benchmark file (called from main.cpp once the shared
// environment exists: the per-tool benchmarks are named after the registry's tools).
namespace toolcalc::bench {
void register_tool_benchmarks();
void register_service_benchmarks();
void register_http_benchmarks();
void register_redis_codec_benchmarks();
void register_analysis_benchmarks();
}  // namespace toolcalc::bench
