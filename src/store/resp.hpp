#pragma once
// RESP2, the Redis wire protocol (https://redis.io/docs/latest/develop/reference/protocol-spec/),
// for the pipelined connection (redis_pipeline.hpp): commands as arrays of bulk strings,
// replies parsed incrementally from a receive buffer. The blocking client uses hiredis.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include "store/redis_client.hpp"

namespace toolcalc::store::resp {

// Appends one command: *N\r\n then $LEN\r\nARG\r\n per argument.
void append_command(std::string& out, std::initializer_list<std::string_view> args);
void append_command(std::string& out, const std::string_view* args, std::size_t count);

enum class ParseStatus { Incomplete, Value, ErrorReply };

struct ParseResult {
  ParseStatus status = ParseStatus::Incomplete;
  std::size_t used = 0;  // bytes of `in` the reply took (0 when Incomplete)
};

// Parses the reply at the start of `in` into `out` (an error reply: its message in
// out.str). Throws StoreError when the bytes are not RESP2.
ParseResult parse_reply(std::string_view in, RedisValue& out);

}  // namespace toolcalc::store::resp
