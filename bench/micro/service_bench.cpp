// api::Service::handle — the envelope with headers: request id, route, auth (SHA-256 of
// the key), rate window, quota, validation, maths, rendering, meta and the nine response
// headers — on a real accounts::Accounts over the embedded store, as a server thread
// handles it (ServerThread: the execution's count goes to the group commit). Target ≤ 2 µs.
// The "part/" benchmarks time the steps handle() adds around the tool, one by one.
#include <benchmark/benchmark.h>

#include "accounts/api_key.hpp"
#include "api/request_id.hpp"
#include "bench_env.hpp"
#include "micro_benchmarks.hpp"

namespace toolcalc::bench {
namespace {

void handle(benchmark::State& state, api::Request request) {
  ServerThread thread;
  for (auto _ : state) {
    const api::Response& res = thread.handle(request);
    if (res.status != 200) {
      state.SkipWithError(("status " + std::to_string(res.status) + ": " + res.body).c_str());
      break;
    }
    benchmark::DoNotOptimize(res.body.data());
  }
}

api::Request get_request(const std::string& target) {
  api::Request r;
  r.method = "GET";
  r.target = target;
  r.peer_ip = "127.0.0.1";
  return r;
}

void part_request_id(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(api::new_request_id());
}

void part_hash_key(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(accounts::hash_api_key(env().key));
}

void part_authenticate(benchmark::State& state) {
  auto& acc = *env().accounts;
  const std::string_view authz = env().authorization;
  for (auto _ : state) {
    auto r = acc.authenticate(authz, "127.0.0.1");
    benchmark::DoNotOptimize(r.caller.key_id);
  }
}

void part_rate_step(benchmark::State& state) {
  auto& acc = *env().accounts;
  const auto caller = acc.authenticate(std::string_view(env().authorization), "127.0.0.1").caller;
  accounts::CountedUnits counted;
  for (auto _ : state)
    benchmark::DoNotOptimize(acc.rate_step(caller, false, counted, nullptr)->rate.remaining);
}

void part_reserve_quota(benchmark::State& state) {
  auto& acc = *env().accounts;
  const auto caller = acc.authenticate(std::string_view(env().authorization), "127.0.0.1").caller;
  accounts::CountedUnits counted;
  for (auto _ : state) benchmark::DoNotOptimize(acc.reserve_quota(caller, 1, counted).remaining);
}

// Static storage: api::Request holds views.
std::vector<std::string> paths, bodies;

}  // namespace

void register_service_benchmarks() {
  const auto& tools = env().registry->tools();
  paths.reserve(tools.size() + 2);
  bodies.reserve(tools.size());
  for (const auto& registered : tools) {
    const auto& d = registered.tool.descriptor;
    paths.push_back(d.endpoint());
    bodies.push_back(default_body(d));
    benchmark::RegisterBenchmark(("handle.execute/" + d.slug).c_str(), handle,
                                 execute_request(d, paths.back(), bodies.back()));
  }
  paths.push_back("/v1/tools");
  benchmark::RegisterBenchmark("handle.get/tools", handle, get_request(paths.back()));
  paths.push_back("/v1/iot-mcu/mcu-deep-sleep-battery/schema");
  benchmark::RegisterBenchmark("handle.get/schema", handle, get_request(paths.back()));

  benchmark::RegisterBenchmark("part/new_request_id", part_request_id);
  benchmark::RegisterBenchmark("part/hash_api_key", part_hash_key);
  benchmark::RegisterBenchmark("part/authenticate", part_authenticate);
  benchmark::RegisterBenchmark("part/rate_step", part_rate_step);
  benchmark::RegisterBenchmark("part/reserve_quota", part_reserve_quota);
}

}  // namespace toolcalc::bench
