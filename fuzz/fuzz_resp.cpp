// fuzz_resp: the Redis pipeline's RESP codec (store/resp.hpp), which reads whatever the
// peer on the Redis connection sends. The input is that byte stream; it also gives the
// arguments of one command. Checked, beyond the sanitizers:
//
// 1. Replies, against hiredis's reader (the blocking client's parser) as the oracle: the
//    replies at the start of the input are parsed one after another by both, and each
//    must come out the same — the same value (type, integer, string, elements; an error
//    reply as an error) taking the same bytes, or both incomplete, or both a protocol
//    error. Where the codec is stricter than hiredis 0.14 on bytes Redis never sends, it
//    may refuse what hiredis accepts or still waits for, and only there: a CR not followed
//    by LF inside a line (hiredis reads it as part of the line), a bulk string not ended
//    by CRLF (hiredis skips two bytes unchecked), a bulk length over 512 MiB (hiredis
//    waits for the bytes). Any other exception than StoreError is a finding.
// 2. A reply that parses is incomplete when cut anywhere before its end (the pipeline
//    parses whatever a read delivered and must wait for the rest).
// 3. Commands: the input cut at each 0xFF into arguments (at most 64) encodes to exactly
//    the bytes of hiredis's redisFormatCommandArgv, and parses back into those arguments.
#include <hiredis/hiredis.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "store/resp.hpp"
#include "store/store_errors.hpp"

namespace {

using toolcalc::store::RedisValue;
namespace resp = toolcalc::store::resp;
using toolcalc::fuzz::fail;

constexpr int kMaxReplies = 64;

struct Outcome {
  enum class Kind { Incomplete, Value, ProtocolError } kind = Kind::Incomplete;
  RedisValue value;
  bool error_reply = false;
  std::size_t used = 0;
  std::string why;  // the protocol error's message
};

const char* kind_name(Outcome::Kind k) {
  switch (k) {
    case Outcome::Kind::Incomplete:
      return "incomplete";
    case Outcome::Kind::Value:
      return "a value";
    case Outcome::Kind::ProtocolError:
      return "a protocol error";
  }
  return "?";
}

Outcome ours(std::string_view in) {
  Outcome o;
  try {
    const resp::ParseResult r = resp::parse_reply(in, o.value);
    if (r.status == resp::ParseStatus::Incomplete) {
      if (r.used != 0) fail("resp: incomplete with bytes used", in);
      return o;
    }
    o.kind = Outcome::Kind::Value;
    o.error_reply = r.status == resp::ParseStatus::ErrorReply;
    o.used = r.used;
    if (o.used == 0 || o.used > in.size()) fail("resp: a reply took no bytes or too many", in);
  } catch (const toolcalc::store::StoreError& e) {
    o.kind = Outcome::Kind::ProtocolError;
    o.why = e.what();
  }
  return o;
}

// ---------------------------------------------------------------- hiredis's reader

// Reply-object functions that build RedisValues: the root is the Target the reader's
// privdata points to, an element is appended to its parent's elements as hiredis creates
// it (elements arrive in order). Nothing is allocated from a count the peer sent: the
// input is hostile, and the default functions would calloc the whole array up front.
struct Target {
  RedisValue root;
  bool root_error = false;
};

RedisValue* slot(const redisReadTask* task) {
  if (!task->parent) return &static_cast<Target*>(task->privdata)->root;
  auto& elements = static_cast<RedisValue*>(task->parent->obj)->elements;
  const auto idx = static_cast<std::size_t>(task->idx);
  if (elements.size() != idx) fail("hiredis: elements out of order", {});
  return &elements.emplace_back();
}

redisReplyObjectFunctions value_functions() {
  redisReplyObjectFunctions f{};
  f.createString = [](const redisReadTask* task, char* str, std::size_t len) -> void* {
    RedisValue* v = slot(task);
    v->type =
        task->type == REDIS_REPLY_STRING ? RedisValue::Type::String : RedisValue::Type::Status;
    v->str.assign(str, len);
    if (task->type == REDIS_REPLY_ERROR && !task->parent)
      static_cast<Target*>(task->privdata)->root_error = true;
    return v;
  };
  // `auto`: the count is an int in hiredis 0.14, a size_t from 1.0 on.
  f.createArray = [](const redisReadTask* task, auto) -> void* {
    RedisValue* v = slot(task);
    v->type = RedisValue::Type::Array;
    return v;
  };
  f.createInteger = [](const redisReadTask* task, long long value) -> void* {
    RedisValue* v = slot(task);
    v->type = RedisValue::Type::Integer;
    v->integer = value;
    return v;
  };
  f.createNil = [](const redisReadTask* task) -> void* {
    RedisValue* v = slot(task);
    v->type = RedisValue::Type::Nil;
    return v;
  };
  f.freeObject = [](void*) {};  // the values belong to the Target
  return f;
}

redisReplyObjectFunctions kValueFunctions = value_functions();

// The replies of `in`, one per call, as hiredis reads them from one feed of all of it.
class HiredisReplies {
 public:
  explicit HiredisReplies(std::string_view in) : size_(in.size()) {
    reader_ = redisReaderCreateWithFunctions(&kValueFunctions);
    if (!reader_) fail("hiredis: no reader", {});
    reader_->privdata = &target_;
    if (redisReaderFeed(reader_, in.data(), in.size()) != REDIS_OK) fail("hiredis: feed", in);
  }
  ~HiredisReplies() { redisReaderFree(reader_); }
  HiredisReplies(const HiredisReplies&) = delete;
  HiredisReplies& operator=(const HiredisReplies&) = delete;

  Outcome next() {
    Outcome o;
    void* reply = nullptr;
    if (redisReaderGetReply(reader_, &reply) != REDIS_OK) {
      o.kind = Outcome::Kind::ProtocolError;
      o.why = reader_->errstr;
      return o;
    }
    if (!reply) return o;  // incomplete: the partial value stays where the reader left it
    o.kind = Outcome::Kind::Value;
    o.value = std::move(target_.root);
    o.error_reply = target_.root_error;
    target_ = Target{};
    // The reader drops consumed bytes from its buffer now and then: count what is left.
    const std::size_t consumed = size_ - (reader_->len - reader_->pos);
    o.used = consumed - consumed_;
    consumed_ = consumed;
    return o;
  }

 private:
  redisReader* reader_ = nullptr;
  Target target_;
  std::size_t size_ = 0;
  std::size_t consumed_ = 0;
};

// ---------------------------------------------------------------- comparison

// Equal values; an error inside an array is a Status element for both (the codec keeps
// no error flag below the top).
bool same(const RedisValue& a, const RedisValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case RedisValue::Type::Nil:
      return true;
    case RedisValue::Type::Integer:
      return a.integer == b.integer;
    case RedisValue::Type::String:
    case RedisValue::Type::Status:
      return a.str == b.str;
    case RedisValue::Type::Array:
      if (a.elements.size() != b.elements.size()) return false;
      for (std::size_t i = 0; i < a.elements.size(); ++i)
        if (!same(a.elements[i], b.elements[i])) return false;
      return true;
  }
  return false;
}

// The codec refuses where hiredis accepts or waits, for one of the documented reasons.
bool stricter_by_design(const Outcome& o) {
  return o.kind == Outcome::Kind::ProtocolError &&
         (o.why.ends_with("CR without LF") || o.why.ends_with("bulk string without CRLF") ||
          o.why.ends_with("bulk string longer than 512 MiB"));
}

// Check 2: every cut of a parsed reply is incomplete.
void check_cuts(std::string_view reply) {
  const std::size_t n = reply.size();
  for (const std::size_t cut : {std::size_t{0}, std::size_t{1}, n / 2, n - 1}) {
    if (cut >= n) continue;
    const Outcome o = ours(reply.substr(0, cut));
    if (o.kind != Outcome::Kind::Incomplete)
      fail("resp: a reply cut at " + std::to_string(cut) + " is " + kind_name(o.kind) +
               " (not incomplete) " + o.why,
           reply);
  }
}

void check_replies(std::string_view in) {
  HiredisReplies theirs(in);
  std::size_t at = 0;
  for (int i = 0; i < kMaxReplies; ++i) {
    const std::string_view rest = in.substr(at);
    const Outcome o = ours(rest);
    const Outcome h = theirs.next();
    if (o.kind != h.kind) {
      if (stricter_by_design(o) && h.kind != Outcome::Kind::ProtocolError) return;
      fail(std::string("resp: reply ") + std::to_string(i) + " is " + kind_name(o.kind) + " " +
               o.why + "; hiredis: " + kind_name(h.kind) + " " + h.why,
           rest);
    }
    if (o.kind != Outcome::Kind::Value) return;
    if (o.used != h.used || o.error_reply != h.error_reply || !same(o.value, h.value))
      fail("resp: reply " + std::to_string(i) + " differs from hiredis's (bytes " +
               std::to_string(o.used) + " vs " + std::to_string(h.used) + ")",
           rest);
    check_cuts(rest.substr(0, o.used));
    at += o.used;
  }
}

// ---------------------------------------------------------------- commands

void check_command(std::string_view in) {
  std::vector<std::string_view> args;
  for (std::size_t start = 0; args.size() < 64;) {
    const std::size_t end = in.find('\xff', start);
    args.push_back(in.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  std::string encoded;
  resp::append_command(encoded, args.data(), args.size());

  std::vector<const char*> ptrs;
  std::vector<std::size_t> lens;
  for (std::string_view a : args) {
    ptrs.push_back(a.data());
    lens.push_back(a.size());
  }
  char* formatted = nullptr;
  const int n =
      redisFormatCommandArgv(&formatted, static_cast<int>(args.size()), ptrs.data(), lens.data());
  if (n < 0) fail("hiredis: redisFormatCommandArgv failed", in);
  const bool equal = std::string_view(formatted, static_cast<std::size_t>(n)) == encoded;
  redisFreeCommand(formatted);
  if (!equal) fail("resp: a command's bytes differ from redisFormatCommandArgv's", encoded);

  const Outcome back = ours(encoded);
  if (back.kind != Outcome::Kind::Value || back.used != encoded.size() ||
      back.value.type != RedisValue::Type::Array || back.value.elements.size() != args.size())
    fail("resp: a command does not parse back as its arguments", encoded);
  for (std::size_t i = 0; i < args.size(); ++i)
    if (back.value.elements[i].type != RedisValue::Type::String ||
        back.value.elements[i].str != args[i])
      fail("resp: argument " + std::to_string(i) + " does not parse back", encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  check_replies(in);
  check_command(in);
  return 0;
}
