#include "store/resp.hpp"

#include <charconv>
#include <cstdint>

#include "store/store_errors.hpp"

namespace toolcalc::store::resp {
namespace {

// Nesting deeper than any reply of ours (counter scripts answer flat arrays): a guard
// against a hostile or broken peer, not a limit of the protocol. hiredis's reader stops at
// the same depth (arrays nested 8 deep), as it does at the same element count.
constexpr int kMaxDepth = 8;
constexpr int64_t kMaxElements = INT32_MAX;
constexpr int64_t kMaxBulk = 512LL * 1024 * 1024;  // Redis's proto-max-bulk-len default

void append_length(std::string& out, char type, std::size_t n) {
  char digits[24];
  const auto r = std::to_chars(digits, digits + sizeof digits, n);
  out += type;
  out.append(digits, r.ptr);
  out += "\r\n";
}

[[noreturn]] void protocol_error(const char* what) {
  throw StoreError(std::string("redis: protocol error in a reply: ") + what);
}

// The line at `in[at]` up to CRLF; npos when the CRLF has not arrived yet.
std::size_t line_end(std::string_view in, std::size_t at) {
  const std::size_t cr = in.find('\r', at);
  if (cr == std::string_view::npos || cr + 1 >= in.size()) return std::string_view::npos;
  if (in[cr + 1] != '\n') protocol_error("CR without LF");
  return cr;
}

// An integer as Redis writes one: decimal, no sign but '-', no leading zero, no "-0" (the
// form hiredis's reader requires too).
int64_t parse_integer(std::string_view text) {
  int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    protocol_error("not an integer");
  const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
  if (digits.starts_with('0') && (digits.size() > 1 || digits.size() < text.size()))
    protocol_error("not an integer");
  return v;
}

// Parses from in[at]; returns the position after the reply, or npos when incomplete.
std::size_t parse_at(std::string_view in, std::size_t at, RedisValue& out, bool& error, int depth) {
  if (at >= in.size()) return std::string_view::npos;
  // The type byte is judged as soon as it arrives, as hiredis's reader does: bytes that
  // are not RESP fail the connection now, not at the command timeout.
  if (std::string_view("+-:$*").find(in[at]) == std::string_view::npos)
    protocol_error("unknown type byte");
  if (in[at] == '*' && depth >= kMaxDepth) protocol_error("arrays nested too deep");
  const std::size_t end = line_end(in, at + 1);
  if (end == std::string_view::npos) return std::string_view::npos;
  const std::string_view line = in.substr(at + 1, end - at - 1);
  const std::size_t next = end + 2;
  switch (in[at]) {
    case '+':
      out.type = RedisValue::Type::Status;
      out.str.assign(line);
      return next;
    case '-':
      out.type = RedisValue::Type::Status;
      out.str.assign(line);
      error = true;
      return next;
    case ':':
      out.type = RedisValue::Type::Integer;
      out.integer = parse_integer(line);
      return next;
    case '$': {
      const int64_t n = parse_integer(line);
      if (n == -1) {
        out.type = RedisValue::Type::Nil;
        return next;
      }
      if (n < 0) protocol_error("bad bulk length");
      if (n > kMaxBulk) protocol_error("bulk string longer than 512 MiB");
      const auto len = static_cast<std::size_t>(n);
      if (in.size() < next + len + 2) return std::string_view::npos;
      if (in[next + len] != '\r' || in[next + len + 1] != '\n')
        protocol_error("bulk string without CRLF");
      out.type = RedisValue::Type::String;
      out.str.assign(in.substr(next, len));
      return next + len + 2;
    }
    case '*': {
      const int64_t n = parse_integer(line);
      if (n == -1) {
        out.type = RedisValue::Type::Nil;
        return next;
      }
      if (n < 0 || n > kMaxElements) protocol_error("bad array length");
      // No reserve from the peer's count: elements are appended as they parse.
      out.type = RedisValue::Type::Array;
      out.elements.clear();
      std::size_t pos = next;
      for (int64_t i = 0; i < n; ++i) {
        RedisValue element;
        bool element_error = false;  // an error inside an array (EXEC) stays a value
        pos = parse_at(in, pos, element, element_error, depth + 1);
        if (pos == std::string_view::npos) return pos;
        out.elements.push_back(std::move(element));
      }
      return pos;
    }
    default:
      protocol_error("unknown type byte");
  }
}

}  // namespace

void append_command(std::string& out, const std::string_view* args, std::size_t count) {
  append_length(out, '*', count);
  for (std::size_t i = 0; i < count; ++i) {
    append_length(out, '$', args[i].size());
    out += args[i];
    out += "\r\n";
  }
}

void append_command(std::string& out, std::initializer_list<std::string_view> args) {
  append_command(out, args.begin(), args.size());
}

ParseResult parse_reply(std::string_view in, RedisValue& out) {
  out = RedisValue{};
  bool error = false;
  const std::size_t end = parse_at(in, 0, out, error, 0);
  if (end == std::string_view::npos) return {};
  return {error ? ParseStatus::ErrorReply : ParseStatus::Value, end};
}

}  // namespace toolcalc::store::resp
