#pragma once
// A small blocking Redis client over hiredis (Debian's libhiredis): one connection per
// thread and client (thread_local), connect and command timeouts, Lua scripts by EVALSHA
// with EVAL when the server does not know them (after a restart), and a short back-off
// after a failure so that an unreachable Redis costs a request a failed check, not a
// connect timeout. Used by the Redis account store and counters (redis_store.hpp).
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace toolcalc::store {

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  int db = 0;
  std::string password;  // AUTH when not empty
  int connect_timeout_ms = 1000;
  int command_timeout_ms = 2000;
  int retry_after_failure_ms = 500;  // fail fast for this long after a failure
  // Report on stderr when Redis becomes unreachable and when it answers again (once each):
  // set for the server's counters, whose failures clients see as 503s.
  bool log_state_changes = false;

  std::string url() const;  // redis://HOST:PORT/DB, never the password (for logs)
};

// redis://[:PASSWORD@]HOST[:PORT][/DB]. Throws std::invalid_argument naming the part.
RedisOptions parse_redis_url(std::string_view url);

// One reply, copied out of hiredis's reply object.
struct RedisValue {
  enum class Type { Nil, Integer, String, Status, Array };
  Type type = Type::Nil;
  int64_t integer = 0;
  std::string str;
  std::vector<RedisValue> elements;

  bool is_nil() const { return type == Type::Nil; }
  int64_t as_integer() const;  // Integer, or a String holding a decimal integer; else throws
};

// A Lua script and its SHA-1 (computed once).
struct RedisScript {
  explicit RedisScript(std::string body);
  std::string body;
  std::string sha1_hex;
};

// EVALSHA SHA1 NUMKEYS KEY… ARG…, as views into the arguments; `numkeys` receives the
// text of the key count. For the blocking client and the pipeline (redis_pipeline.hpp).
std::vector<std::string_view> evalsha_command(const RedisScript& script,
                                              const std::vector<std::string>& keys,
                                              const std::vector<std::string>& args,
                                              std::string& numkeys);

class RedisClient {
 public:
  explicit RedisClient(RedisOptions options);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Throws StoreUnavailable when Redis cannot be reached or does not answer in time,
  // StoreError when it answers with an error (store_errors.hpp).
  RedisValue command(std::initializer_list<std::string_view> args);
  RedisValue command(const std::vector<std::string>& args);
  RedisValue eval(const RedisScript& script, const std::vector<std::string>& keys,
                  const std::vector<std::string>& args);

  const RedisOptions& options() const { return options_; }

  // For the pipelined connection of the same server (redis_pipeline.hpp), which shares
  // this client's view of Redis: true while calls fail fast after a failure; a failure
  // (starts the fail-fast period, logged once) and a success (logs the recovery).
  bool failing_fast() const;
  void report_failure(const std::string& why);
  void report_success();
  uint64_t id() const { return id_; }

  struct Connection;  // one thread's connection (redis_client.cpp)

 private:
  RedisValue run(const std::vector<std::string_view>& args);
  RedisValue run_once(Connection& c, const std::vector<std::string_view>& args, bool& io_error);
  Connection& connection();
  void drop_connection();
  [[noreturn]] void unreachable(const std::string& why);

  RedisOptions options_;
  uint64_t id_;  // tells this client's thread_local connections from another client's
  std::atomic<int64_t> retry_at_ms_{0};  // steady-clock ms before which calls fail fast
  std::atomic<bool> failing_{false};     // state change reported once on stderr
};

}  // namespace toolcalc::store
