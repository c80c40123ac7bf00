#pragma once
// Counter commands to Redis without blocking the server thread: one
// connection per event loop (HTTP worker thread) and Redis client, on that loop. Commands
// are queued and written together while earlier ones await their replies, so one write,
// one read and one AOF fsync on the Redis side cover every request that arrived
// meanwhile; replies come back in order (RESP pipelining) and complete their requests on
// the loop's thread. The blocking client (redis_client.hpp) stays for everything else.
#include <exception>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "store/redis_client.hpp"

namespace boost::asio {
class io_context;
}

namespace toolcalc::store {

struct PipelineReply {
  RedisValue value;
  bool error_reply = false;  // Redis answered with an error; value.str holds it
  std::string failure;       // not empty: no reply (connect, I/O, timeout, protocol)
};

using PipelineDone = std::function<void(PipelineReply&&)>;

// Sends one RESP-encoded command (resp::append_command) on `client`'s connection of
// `loop` (created on first use, closed with the loop) and calls `done` with its reply,
// later, on the loop's thread — never before this returns. A connection failure fails
// every command waiting on it and starts the client's fail-fast period
// (RedisClient::report_failure); the next call reconnects. Call on the loop's thread.
void pipeline_call(boost::asio::io_context& loop, RedisClient& client, std::string_view command,
                   PipelineDone done);

// `script` (EVALSHA) on the pipeline. Redis answers NOSCRIPT once after a restart or a
// SCRIPT FLUSH: the call is then sent again as EVAL (the script's body) on the same
// connection, which runs it and caches it for the next EVALSHA.
// `done` gets the reply, or what RedisClient::eval would have thrown: StoreUnavailable
// (no reply), StoreError (an error reply).
using EvalDone = std::function<void(RedisValue&&, std::exception_ptr)>;
void pipeline_eval(boost::asio::io_context& loop, RedisClient& client, const RedisScript& script,
                   std::vector<std::string> keys, std::vector<std::string> args, EvalDone done);

// A plain command (`args`, e.g. INCRBY key n) on the pipeline; `done` as for pipeline_eval.
void pipeline_command(boost::asio::io_context& loop, RedisClient& client,
                      std::initializer_list<std::string_view> args, EvalDone done);

}  // namespace toolcalc::store
