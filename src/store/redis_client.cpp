#include "store/redis_client.hpp"

#include <hiredis/hiredis.h>
#include <openssl/evp.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "core/log.hpp"
#include "core/service_metrics.hpp"
#include "store/store_errors.hpp"

namespace toolcalc::store {
namespace {

int64_t steady_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

timeval to_timeval(int ms) {
  timeval tv;
  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  return tv;
}

int parse_int(std::string_view text, const char* what, int min, int max) {
  int v = -1;
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || v < min ||
      v > max)
    throw std::invalid_argument(std::string("redis url: ") + what + " must be an integer from " +
                                std::to_string(min) + " to " + std::to_string(max));
  return v;
}

// An error reply travels as a value of this type inside the client and becomes a
// StoreError at the public surface (eval first looks for NOSCRIPT).
constexpr auto kErrorType = static_cast<RedisValue::Type>(100);

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
      v.type = RedisValue::Type::Status;
      v.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      v.type = kErrorType;
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

std::atomic<uint64_t> next_client_id{1};

}  // namespace

std::string RedisOptions::url() const {
  return "redis://" + host + ":" + std::to_string(port) + "/" + std::to_string(db);
}

RedisOptions parse_redis_url(std::string_view url) {
  constexpr std::string_view scheme = "redis://";
  if (!url.starts_with(scheme))
    throw std::invalid_argument("redis url must start with redis:// (redis://HOST:PORT/DB)");
  std::string_view rest = url.substr(scheme.size());
  RedisOptions o;
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view cred = rest.substr(0, at);
    rest = rest.substr(at + 1);
    // redis://:PASSWORD@… (no ACL user: Redis 7's default user)
    if (!cred.starts_with(':') || cred.size() < 2)
      throw std::invalid_argument("redis url: credentials must be :PASSWORD@");
    o.password = std::string(cred.substr(1));
  }
  std::string_view hostport = rest;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    hostport = rest.substr(0, slash);
    const std::string_view db = rest.substr(slash + 1);
    if (!db.empty()) o.db = parse_int(db, "database number", 0, 1'000'000);
  }
  if (const auto colon = hostport.rfind(':'); colon != std::string_view::npos) {
    o.port = parse_int(hostport.substr(colon + 1), "port", 1, 65535);
    hostport = hostport.substr(0, colon);
  }
  if (hostport.empty()) throw std::invalid_argument("redis url: the host is missing");
  o.host = std::string(hostport);
  return o;
}

int64_t RedisValue::as_integer() const {
  if (type == Type::Integer) return integer;
  if (type == Type::String) {
    int64_t v = 0;
    auto r = std::from_chars(str.data(), str.data() + str.size(), v);
    if (r.ec == std::errc() && r.ptr == str.data() + str.size()) return v;
  }
  throw StoreError("redis: expected an integer reply, got '" + str + "'");
}

RedisScript::RedisScript(std::string b) : body(std::move(b)) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(body.data(), body.size(), digest, &n, EVP_sha1(), nullptr) != 1)
    throw std::runtime_error("SHA-1 of a Lua script failed");
  static constexpr char hex[] = "0123456789abcdef";
  for (unsigned i = 0; i < n; ++i) {
    sha1_hex += hex[digest[i] >> 4];
    sha1_hex += hex[digest[i] & 15];
  }
}

struct RedisClient::Connection {
  redisContext* ctx = nullptr;
  bool used = false;  // has answered a command: a failure may be a stale socket
  ~Connection() {
    if (ctx) redisFree(ctx);
  }
};

namespace {
// One connection per (thread, client): a server thread never waits for another's reply.
thread_local std::unordered_map<uint64_t, std::unique_ptr<RedisClient::Connection>>
    thread_connections;
}  // namespace

RedisClient::RedisClient(RedisOptions options)
    : options_(std::move(options)), id_(next_client_id.fetch_add(1)) {}

RedisClient::~RedisClient() {
  thread_connections.erase(id_);  // other threads' connections close when they exit
}

bool RedisClient::failing_fast() const {
  return steady_ms() < retry_at_ms_.load(std::memory_order_relaxed);
}

void RedisClient::report_failure(const std::string& why) {
  retry_at_ms_.store(steady_ms() + options_.retry_after_failure_ms);
  metrics::store_failures.inc();
  if (!failing_.exchange(true) && options_.log_state_changes)
    log::error(
        "redis is unreachable; requests that must be counted are answered 503 "
        "STORE_UNAVAILABLE until it answers again",
        {{"store", options_.url()}, {"error", why}});
}

void RedisClient::unreachable(const std::string& why) {
  report_failure(why);
  throw StoreUnavailable("redis " + options_.url() + ": " + why);
}

void RedisClient::report_success() {
  if (failing_.load(std::memory_order_relaxed) && failing_.exchange(false) &&
      options_.log_state_changes)
    log::info("redis answers again", {{"store", options_.url()}});
}

void RedisClient::drop_connection() {
  thread_connections.erase(id_);
}

RedisClient::Connection& RedisClient::connection() {
  auto& slot = thread_connections[id_];
  if (slot) return *slot;
  redisContext* ctx = redisConnectWithTimeout(options_.host.c_str(), options_.port,
                                              to_timeval(options_.connect_timeout_ms));
  if (!ctx || ctx->err) {
    const std::string why = ctx ? ctx->errstr : "out of memory";
    if (ctx) redisFree(ctx);
    thread_connections.erase(id_);
    unreachable("connect: " + why);
  }
  auto conn = std::make_unique<Connection>();
  conn->ctx = ctx;
  redisSetTimeout(ctx, to_timeval(options_.command_timeout_ms));
  redisEnableKeepAlive(ctx);
  slot = std::move(conn);
  auto setup = [&](std::vector<std::string_view> args) {
    bool io_error = false;
    RedisValue v = run_once(*slot, args, io_error);
    if (io_error) {
      thread_connections.erase(id_);
      unreachable("connection setup: " + v.str);
    }
    if (v.type == kErrorType) {
      thread_connections.erase(id_);
      throw StoreError("redis " + options_.url() + ": " + std::string(args[0]) + ": " + v.str);
    }
  };
  if (!options_.password.empty()) setup({"AUTH", options_.password});
  const std::string db = std::to_string(options_.db);
  if (options_.db != 0) setup({"SELECT", db});
  slot->used = false;
  return *slot;
}

RedisValue RedisClient::run_once(Connection& c, const std::vector<std::string_view>& args,
                                 bool& io_error) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  argv.reserve(args.size());
  lens.reserve(args.size());
  for (auto a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  errno = 0;
  metrics::store_round_trips.inc();
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(c.ctx, static_cast<int>(argv.size()), argv.data(), lens.data()));
  if (!reply) {
    io_error = true;
    RedisValue v;
    v.type = kErrorType;
    v.str = c.ctx->errstr[0] ? c.ctx->errstr : "no reply";
    return v;
  }
  std::unique_ptr<redisReply, void (*)(void*)> owned(reply, freeReplyObject);
  c.used = true;
  return convert(reply);
}

RedisValue RedisClient::run(const std::vector<std::string_view>& args) {
  if (failing_fast())
    throw StoreUnavailable("redis " + options_.url() +
                           ": unreachable a moment ago; not retried yet");
  for (int attempt = 0;; ++attempt) {
    Connection& c = connection();
    const bool reused = c.used;
    bool io_error = false;
    RedisValue v = run_once(c, args, io_error);
    if (!io_error) {
      report_success();
      return v;
    }
    const int err = c.ctx->err;
    const int sys_err = errno;
    drop_connection();
    // A kept connection that Redis closed (it restarted) fails at once with EOF or a
    // reset: the command never reached a server, so one retry on a new connection is
    // safe. A timeout is not retried: the command may have run.
    const bool closed = err == REDIS_ERR_EOF ||
                        (err == REDIS_ERR_IO && (sys_err == ECONNRESET || sys_err == EPIPE));
    if (reused && closed && attempt == 0) continue;
    unreachable(v.str);
  }
}

RedisValue RedisClient::command(std::initializer_list<std::string_view> args) {
  RedisValue v = run(std::vector<std::string_view>(args));
  if (v.type == kErrorType) throw StoreError("redis " + options_.url() + ": " + v.str);
  return v;
}

RedisValue RedisClient::command(const std::vector<std::string>& args) {
  RedisValue v = run(std::vector<std::string_view>(args.begin(), args.end()));
  if (v.type == kErrorType) throw StoreError("redis " + options_.url() + ": " + v.str);
  return v;
}

std::vector<std::string_view> evalsha_command(const RedisScript& script,
                                              const std::vector<std::string>& keys,
                                              const std::vector<std::string>& args,
                                              std::string& numkeys) {
  numkeys = std::to_string(keys.size());
  std::vector<std::string_view> argv{"EVALSHA", script.sha1_hex, numkeys};
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

RedisValue RedisClient::eval(const RedisScript& script, const std::vector<std::string>& keys,
                             const std::vector<std::string>& args) {
  std::string nkeys;
  std::vector<std::string_view> argv = evalsha_command(script, keys, args, nkeys);
  RedisValue v = run(argv);
  if (v.type == kErrorType && v.str.starts_with("NOSCRIPT")) {
    // First use on this server (or it restarted): EVAL sends the body and caches it.
    argv[0] = "EVAL";
    argv[1] = script.body;
    v = run(argv);
  }
  if (v.type == kErrorType) throw StoreError("redis " + options_.url() + ": " + v.str);
  return v;
}

}  // namespace toolcalc::store
