// The Redis pipeline's codec (store/redis_pipeline.cpp) on the pipeline's own workload:
// the EVALSHA of the rate-steps script with N steps (store/redis_counters.cpp: per step a
// window key and a quota key, then "1", rate limit, TTL, quota limit) and its reply, an
// array of 4N integers. Each is done by the hand-written codec (store/resp.hpp) and by
// hiredis's formatter and reader (libhiredis, which the blocking client already links):
// the measurement that chose between them (docs/performance.md, "Redis codec").
//
//   redis/format.*/N   one command, from its arguments to its bytes appended to the
//                      pipeline's output buffer (the buffer reused, as the pipeline does)
//   redis/parse.*/N    one reply, from the bytes a socket read delivered to a RedisValue
//                      whose integers are read (the buffer and the reader reused)
//   redis/parse.*.split/N  the same reply arriving in two reads, cut in the middle
//
// `ours` is resp::append_command / resp::parse_reply; `hiredis` is redisFormatCommandArgv
// (malloc'd buffer) and redisReader with its default reply objects converted to RedisValue
// (as the blocking client converts them); `hiredis_sds` is redisFormatSdsCommandArgv;
// `hiredis_direct` is redisReader with reply-object functions that build the RedisValue in
// place (no redisReply objects: the cheapest use of the reader). The per_step counter is
// the time divided by N.
#include <benchmark/benchmark.h>
#include <hiredis/hiredis.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "micro_benchmarks.hpp"
#include "store/redis_client.hpp"
#include "store/redis_keys.hpp"
#include "store/resp.hpp"

namespace toolcalc::bench {
namespace {

using store::RedisValue;

// Steps per script call: 1 (a lone request), and what one event-loop turn gathers at
// higher loads (the Redis phase of `make bench` sees about 29 requests per Redis read
// at 64 connections).
constexpr int64_t kBatchSizes[] = {1, 8, 32, 128};

// The arguments of one kTakeRateSteps call of `n` steps, each for a key with a quota,
// built as RateSteps::add builds them (store/redis_counters.cpp).
struct RateCall {
  store::RedisScript script{"return {}"};  // any body: only its SHA-1 is sent
  std::vector<std::string> keys, args;

  explicit RateCall(int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t key_id = 1000 + i;
      keys.push_back(store::redis_keys::rate(std::to_string(key_id), 1795000000 + 60 * i));
      keys.push_back(store::redis_keys::quota(key_id, "2026-11"));
      args.push_back("1");
      args.push_back("100000000");
      args.push_back("120");
      args.push_back("1000000000000");
    }
  }
};

// The reply to such a call: {1, rate used, 1, quota used} per step.
std::string rate_reply(int64_t n) {
  std::string r = "*";
  r += std::to_string(4 * n);
  r += "\r\n";
  for (int64_t i = 0; i < n; ++i) {
    r += ":1\r\n:";
    r += std::to_string(1234 + i);
    r += "\r\n:1\r\n:";
    r += std::to_string(987654 + i);
    r += "\r\n";
  }
  return r;
}

void per_step(benchmark::State& state) {
  state.counters["per_step"] = benchmark::Counter(
      static_cast<double>(state.range(0)),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// What the pipeline's callback reads of a reply (rate_step_result): every integer.
int64_t consume(const RedisValue& v) {
  int64_t sum = 0;
  for (const RedisValue& e : v.elements) sum += e.as_integer();
  return sum;
}

// ---------------------------------------------------------------- commands

void format_ours(benchmark::State& state) {
  const RateCall call(state.range(0));
  std::string nkeys, out;
  for (auto _ : state) {
    out.clear();
    const std::vector<std::string_view> argv =
        store::evalsha_command(call.script, call.keys, call.args, nkeys);
    store::resp::append_command(out, argv.data(), argv.size());
    benchmark::DoNotOptimize(out.data());
  }
  per_step(state);
}

// hiredis takes C arrays of pointers and lengths: built from the views each time (reused
// storage), then the formatted command appended to the output buffer and freed.
template <bool Sds>
void format_hiredis(benchmark::State& state) {
  const RateCall call(state.range(0));
  std::string nkeys, out;
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  for (auto _ : state) {
    out.clear();
    const std::vector<std::string_view> argv =
        store::evalsha_command(call.script, call.keys, call.args, nkeys);
    ptrs.clear();
    lens.clear();
    for (std::string_view a : argv) {
      ptrs.push_back(a.data());
      lens.push_back(a.size());
    }
    const int argc = static_cast<int>(argv.size());
    if constexpr (Sds) {
      sds cmd = nullptr;
      const int n = redisFormatSdsCommandArgv(&cmd, argc, ptrs.data(), lens.data());
      out.append(cmd, static_cast<size_t>(n));
      redisFreeSdsCommand(cmd);
    } else {
      char* cmd = nullptr;
      const int n = redisFormatCommandArgv(&cmd, argc, ptrs.data(), lens.data());
      out.append(cmd, static_cast<size_t>(n));
      redisFreeCommand(cmd);
    }
    benchmark::DoNotOptimize(out.data());
  }
  per_step(state);
}

// ---------------------------------------------------------------- replies

// The reply's bytes in one read, or in two (`split`).
std::vector<std::string> reads_of(int64_t n, bool split) {
  const std::string reply = rate_reply(n);
  if (!split) return {reply};
  return {reply.substr(0, reply.size() / 2), reply.substr(reply.size() / 2)};
}

// As Pipeline::deliver_replies: each read appended to the receive buffer, then every
// complete reply parsed from its start and the bytes they took erased.
void parse_ours(benchmark::State& state, bool split) {
  const std::vector<std::string> reads = reads_of(state.range(0), split);
  std::string in;
  int64_t replies = 0;
  for (auto _ : state) {
    for (const std::string& read : reads) {
      in += read;
      std::size_t used = 0;
      for (;;) {
        RedisValue v;
        const store::resp::ParseResult r =
            store::resp::parse_reply(std::string_view(in).substr(used), v);
        if (r.status == store::resp::ParseStatus::Incomplete) break;
        used += r.used;
        benchmark::DoNotOptimize(consume(v));
        ++replies;
      }
      in.erase(0, used);
    }
  }
  if (replies != static_cast<int64_t>(state.iterations())) state.SkipWithError("reply count");
  per_step(state);
}

// redis_client.cpp's conversion of hiredis's reply objects.
RedisValue convert(const redisReply* r) {
  RedisValue v;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      v.type = RedisValue::Type::Integer;
      v.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
      v.type = RedisValue::Type::String;
      v.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
      v.type = RedisValue::Type::Status;
      v.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      v.type = RedisValue::Type::Array;
      v.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) v.elements.push_back(convert(r->element[i]));
      break;
    default:
      v.type = RedisValue::Type::Nil;
  }
  return v;
}

void parse_hiredis(benchmark::State& state, bool split) {
  const std::vector<std::string> reads = reads_of(state.range(0), split);
  redisReader* reader = redisReaderCreate();
  int64_t replies = 0;
  for (auto _ : state) {
    for (const std::string& read : reads) {
      redisReaderFeed(reader, read.data(), read.size());
      for (;;) {
        void* reply = nullptr;
        if (redisReaderGetReply(reader, &reply) != REDIS_OK || !reply) break;
        const RedisValue v = convert(static_cast<redisReply*>(reply));
        freeReplyObject(reply);
        benchmark::DoNotOptimize(consume(v));
        ++replies;
      }
    }
  }
  redisReaderFree(reader);
  if (replies != static_cast<int64_t>(state.iterations())) state.SkipWithError("reply count");
  per_step(state);
}

// Reply-object functions that write into a RedisValue: the root is the reader's privdata,
// an element is its parent's elements[idx] (created by createArray).
RedisValue* slot(const redisReadTask* task) {
  if (!task->parent) return static_cast<RedisValue*>(task->privdata);
  return &static_cast<RedisValue*>(task->parent->obj)->elements[static_cast<size_t>(task->idx)];
}

void* direct_string(const redisReadTask* task, char* str, size_t len) {
  RedisValue* v = slot(task);
  v->type = task->type == REDIS_REPLY_STRING ? RedisValue::Type::String : RedisValue::Type::Status;
  v->str.assign(str, len);
  return v;
}

void* direct_array(const redisReadTask* task, int elements) {
  RedisValue* v = slot(task);
  v->type = RedisValue::Type::Array;
  v->elements.resize(static_cast<size_t>(elements));
  return v;
}

void* direct_integer(const redisReadTask* task, long long value) {
  RedisValue* v = slot(task);
  v->type = RedisValue::Type::Integer;
  v->integer = value;
  return v;
}

void* direct_nil(const redisReadTask* task) {
  RedisValue* v = slot(task);
  v->type = RedisValue::Type::Nil;
  return v;
}

void direct_free(void*) {}  // the RedisValue belongs to the caller

redisReplyObjectFunctions direct_functions{direct_string, direct_array, direct_integer, direct_nil,
                                           direct_free};

void parse_hiredis_direct(benchmark::State& state, bool split) {
  const std::vector<std::string> reads = reads_of(state.range(0), split);
  redisReader* reader = redisReaderCreateWithFunctions(&direct_functions);
  RedisValue v;
  reader->privdata = &v;
  int64_t replies = 0;
  for (auto _ : state) {
    for (const std::string& read : reads) {
      redisReaderFeed(reader, read.data(), read.size());
      for (;;) {
        void* reply = nullptr;
        if (redisReaderGetReply(reader, &reply) != REDIS_OK || !reply) break;
        benchmark::DoNotOptimize(consume(v));
        v = RedisValue{};  // the next reply starts from an empty value
        ++replies;
      }
    }
  }
  redisReaderFree(reader);
  if (replies != static_cast<int64_t>(state.iterations())) state.SkipWithError("reply count");
  per_step(state);
}

}  // namespace

void register_redis_codec_benchmarks() {
  auto batches = [](benchmark::internal::Benchmark* b) {
    for (int64_t n : kBatchSizes) b->Arg(n);
  };
  benchmark::RegisterBenchmark("redis/format.ours", format_ours)->Apply(batches);
  benchmark::RegisterBenchmark("redis/format.hiredis", format_hiredis<false>)->Apply(batches);
  benchmark::RegisterBenchmark("redis/format.hiredis_sds", format_hiredis<true>)->Apply(batches);
  for (const bool split : {false, true}) {
    const std::string suffix = split ? ".split" : "";
    benchmark::RegisterBenchmark(("redis/parse.ours" + suffix).c_str(), parse_ours, split)
        ->Apply(batches);
    benchmark::RegisterBenchmark(("redis/parse.hiredis" + suffix).c_str(), parse_hiredis, split)
        ->Apply(batches);
    benchmark::RegisterBenchmark(("redis/parse.hiredis_direct" + suffix).c_str(),
                                 parse_hiredis_direct, split)
        ->Apply(batches);
  }
}

}  // namespace toolcalc::bench
