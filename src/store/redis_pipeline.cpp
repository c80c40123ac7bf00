#include "store/redis_pipeline.hpp"

#include <sys/socket.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <unordered_map>

#include "core/service_metrics.hpp"
#include "store/resp.hpp"
#include "store/store_errors.hpp"

namespace toolcalc::store {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

class Pipeline {
 public:
  Pipeline(net::io_context& loop, RedisClient& client)
      : loop_(loop), client_(client), socket_(loop), watchdog_(loop) {}

  void call(std::string_view command, PipelineDone done) {
    out_ += command;
    ++unsent_;
    waiters_.push_back(std::move(done));
    if (running_) return;  // the running loop picks it up
    running_ = true;
    net::co_spawn(loop_, run(), net::detached);  // starts later: `done` never runs in here
  }

 private:
  // Connects if needed, then writes what is queued and reads replies until no command
  // waits. Ends when idle, so that an idle connection keeps no operation pending and
  // the loop can finish (server shutdown).
  net::awaitable<void> run() {
    std::string failure;
    try {
      if (socket_.is_open() && closed_while_idle()) {
        boost::system::error_code ignored;
        socket_.close(ignored);
      }
      if (!socket_.is_open()) failure = co_await connect();
      while (failure.empty() && !waiters_.empty()) {
        arm_watchdog();
        if (unsent_ > 0) {
          sending_.swap(out_);
          out_.clear();
          awaiting_ += unsent_;
          sent_.push_back({unsent_, std::chrono::steady_clock::now()});
          unsent_ = 0;
          metrics::store_round_trips.inc();
          auto [ec, n] = co_await net::async_write(socket_, net::buffer(sending_), use_tuple);
          (void)n;
          if (ec) {
            failure = timed_out_ ? timeout_text() : "write: " + ec.message();
            break;
          }
        }
        auto [ec, n] = co_await socket_.async_read_some(net::buffer(read_buffer_), use_tuple);
        if (ec) {
          failure = timed_out_ ? timeout_text() : "read: " + ec.message();
          break;
        }
        ++progress_;
        in_.append(read_buffer_.data(), n);
        deliver_replies();
        if (!setup_error_.empty()) failure = setup_error_;
      }
    } catch (const std::exception& e) {
      failure = e.what();  // a protocol error in a reply: the stream cannot be trusted
    }
    if (!failure.empty()) {
      fail_all(failure);  // its callbacks may start a new run: touch nothing after it
      co_return;
    }
    stop_watchdog();
    running_ = false;
  }

  // A run starts after the connection sat idle, and Redis may have closed it meanwhile (a
  // restart). Peeking without waiting tells that (EOF or a reset) from "nothing to read",
  // so the queued commands go out on a new connection instead of failing on the old one
  // with 503s: nothing was sent on it since, so nothing can be counted twice.
  bool closed_while_idle() {
    char byte;
    const ssize_t n = ::recv(socket_.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
  }

  net::awaitable<std::string> connect() {
    const RedisOptions& o = client_.options();
    timed_out_ = false;
    setup_error_.clear();
    arm_watchdog(o.connect_timeout_ms);
    boost::system::error_code ec;
    const auto address = net::ip::make_address(o.host, ec);
    if (!ec) {
      auto [cec] = co_await socket_.async_connect(tcp::endpoint(address, o.port), use_tuple);
      ec = cec;
    } else {
      tcp::resolver resolver(loop_);
      auto [rec, endpoints] =
          co_await resolver.async_resolve(o.host, std::to_string(o.port), use_tuple);
      if (rec) co_return "resolve " + o.host + ": " + rec.message();
      auto [cec, endpoint] = co_await net::async_connect(socket_, endpoints, use_tuple);
      (void)endpoint;
      ec = cec;
    }
    ++progress_;
    if (ec)
      co_return timed_out_
          ? "connect: no answer within " + std::to_string(o.connect_timeout_ms) + " ms"
          : "connect: " + ec.message();
    socket_.set_option(tcp::no_delay(true), ec);
    socket_.set_option(net::socket_base::keep_alive(true), ec);
    // AUTH and SELECT go first, ahead of the queued commands; an error fails the connection.
    std::string setup;
    auto setup_step = [this](const char* what) {
      return [this, what](PipelineReply&& r) {
        if (r.error_reply) setup_error_ = std::string(what) + ": " + r.value.str;
      };
    };
    const std::string db = std::to_string(o.db);
    if (o.db != 0) {
      resp::append_command(setup, {"SELECT", db});
      waiters_.push_front(setup_step("SELECT"));
      ++unsent_;
    }
    if (!o.password.empty()) {
      std::string auth;
      resp::append_command(auth, {"AUTH", o.password});
      setup.insert(0, auth);
      waiters_.push_front(setup_step("AUTH"));
      ++unsent_;
    }
    out_.insert(0, setup);
    co_return std::string();
  }

  // Completes the oldest waiting commands with the replies that have arrived in full.
  void deliver_replies() {
    std::size_t used = 0;
    while (awaiting_ > 0) {
      PipelineReply reply;
      const resp::ParseResult r =
          resp::parse_reply(std::string_view(in_).substr(used), reply.value);
      if (r.status == resp::ParseStatus::Incomplete) break;
      used += r.used;
      reply.error_reply = r.status == resp::ParseStatus::ErrorReply;
      --awaiting_;
      if (--sent_.front().commands == 0) sent_.pop_front();
      PipelineDone done = std::move(waiters_.front());
      waiters_.pop_front();
      done(std::move(reply));  // may queue a new command (call): the loop sends it
    }
    in_.erase(0, used);
    if (used > 0 && setup_error_.empty()) client_.report_success();
  }

  void fail_all(const std::string& failure) {
    boost::system::error_code ignored;
    socket_.close(ignored);
    stop_watchdog();
    in_.clear();
    out_.clear();
    awaiting_ = unsent_ = 0;
    sent_.clear();
    std::deque<PipelineDone> failed;
    failed.swap(waiters_);
    running_ = false;
    client_.report_failure(failure);
    for (PipelineDone& done : failed) {
      PipelineReply reply;
      reply.failure = failure;
      done(std::move(reply));
    }
  }

  std::string timeout_text() const {
    return "no reply within " + std::to_string(client_.options().command_timeout_ms) + " ms";
  }

  // Closes the connection (the pending read or write then fails, and every waiting command
  // with it) once the oldest command sent has waited a whole timeout for its reply, so that
  // no request waits longer than timeout_ms; before anything is sent (connecting), once
  // nothing has happened for a whole timeout. One timer at a time, set for the oldest
  // command's deadline, not one per command.
  void arm_watchdog(int timeout_ms = 0) {
    if (watchdog_armed_) return;
    if (timeout_ms == 0) timeout_ms = client_.options().command_timeout_ms;
    const auto timeout = std::chrono::milliseconds(timeout_ms);
    watchdog_armed_ = true;
    const uint64_t progress_at_arm = progress_;
    const uint64_t generation = watchdog_generation_;
    watchdog_.expires_at(sent_.empty() ? std::chrono::steady_clock::now() + timeout
                                       : sent_.front().at + timeout);
    watchdog_.async_wait([this, progress_at_arm, generation](const boost::system::error_code& ec) {
      if (ec || generation != watchdog_generation_) return;  // stopped (maybe re-armed since)
      watchdog_armed_ = false;
      if (!running_) return;
      const auto command_timeout = std::chrono::milliseconds(client_.options().command_timeout_ms);
      const bool late =
          sent_.empty() ? progress_ == progress_at_arm
                        : std::chrono::steady_clock::now() >= sent_.front().at + command_timeout;
      if (late) {
        timed_out_ = true;
        boost::system::error_code ignored;
        socket_.close(ignored);
      } else {
        arm_watchdog();
      }
    });
  }

  void stop_watchdog() {
    ++watchdog_generation_;
    watchdog_armed_ = false;
    watchdog_.cancel();
  }

  net::io_context& loop_;
  RedisClient& client_;
  tcp::socket socket_;
  net::steady_timer watchdog_;
  bool watchdog_armed_ = false;
  uint64_t watchdog_generation_ = 0;
  bool running_ = false;
  bool timed_out_ = false;
  uint64_t progress_ = 0;             // reads (and connects) completed: what the watchdog checks
  std::string out_;                   // commands queued, not yet written
  std::string sending_;               // the batch being written
  std::string in_;                    // bytes read, not yet parsed into replies
  std::size_t unsent_ = 0;            // commands in out_
  std::size_t awaiting_ = 0;          // commands written, reply not yet read
  std::deque<PipelineDone> waiters_;  // awaiting_ + unsent_, oldest first
  struct Sent {
    std::size_t commands;  // of this write still awaiting their reply
    std::chrono::steady_clock::time_point at;
  };
  std::deque<Sent> sent_;    // the writes of the awaiting_ commands, oldest first
  std::string setup_error_;  // AUTH or SELECT refused
  std::array<char, 16 * 1024> read_buffer_{};
};

// The pipelines of one event loop, one per Redis client; destroyed with the loop.
class Pipelines : public net::execution_context::service {
 public:
  using key_type = Pipelines;
  static inline net::execution_context::id id;

  explicit Pipelines(net::io_context& loop) : service(loop), loop_(loop) {}

  Pipeline& of(RedisClient& client) {
    auto& slot = by_client_[client.id()];
    if (!slot) slot = std::make_unique<Pipeline>(loop_, client);
    return *slot;
  }

 private:
  void shutdown() override { by_client_.clear(); }

  net::io_context& loop_;
  std::unordered_map<uint64_t, std::unique_ptr<Pipeline>> by_client_;
};

}  // namespace

void pipeline_call(net::io_context& loop, RedisClient& client, std::string_view command,
                   PipelineDone done) {
  if (!net::has_service<Pipelines>(loop)) {
    // The loop's socket services must exist before (and so shut down after) ours, whose
    // shutdown closes sockets. A server's acceptor has made them already; make sure.
    tcp::socket make_socket_services(loop);
  }
  net::use_service<Pipelines>(loop).of(client).call(command, std::move(done));
}

namespace {

// Hands `reply` to `done` as RedisClient's blocking calls answer: its value, or what they
// would throw, StoreUnavailable (no reply) or StoreError (an error reply).
void deliver(const RedisClient& client, PipelineReply&& reply, const EvalDone& done) {
  RedisValue value;
  std::exception_ptr error;
  try {
    if (!reply.failure.empty())
      throw StoreUnavailable("redis " + client.options().url() + ": " + reply.failure);
    if (reply.error_reply)
      throw StoreError("redis " + client.options().url() + ": " + reply.value.str);
    value = std::move(reply.value);
  } catch (...) {
    error = std::current_exception();
  }
  done(std::move(value), error);
}

// EVALSHA (or, with `by_body`, EVAL) of `script` on the pipeline.
void send_eval(net::io_context& loop, RedisClient& client, const RedisScript& script,
               std::vector<std::string> keys, std::vector<std::string> args, EvalDone done,
               bool by_body) {
  thread_local std::string command;  // pipeline_call copies it
  command.clear();
  std::string nkeys;
  std::vector<std::string_view> argv = evalsha_command(script, keys, args, nkeys);
  if (by_body) {
    argv[0] = "EVAL";
    argv[1] = script.body;
  }
  resp::append_command(command, argv.data(), argv.size());
  pipeline_call(loop, client, command,
                [&loop, &client, &script, by_body, keys = std::move(keys), args = std::move(args),
                 done = std::move(done)](PipelineReply&& reply) mutable {
                  if (reply.failure.empty() && reply.error_reply && !by_body &&
                      reply.value.str.starts_with("NOSCRIPT")) {
                    // Not in Redis's script cache (a restart, SCRIPT FLUSH): the EVALSHA ran
                    // nothing, so EVAL sends the body on this same live connection, runs it
                    // once and caches it. (The blocking client's connection of this thread
                    // may still point at the Redis before the restart.)
                    send_eval(loop, client, script, std::move(keys), std::move(args),
                              std::move(done), true);
                    return;
                  }
                  deliver(client, std::move(reply), done);
                });
}

}  // namespace

void pipeline_eval(net::io_context& loop, RedisClient& client, const RedisScript& script,
                   std::vector<std::string> keys, std::vector<std::string> args, EvalDone done) {
  send_eval(loop, client, script, std::move(keys), std::move(args), std::move(done), false);
}

void pipeline_command(net::io_context& loop, RedisClient& client,
                      std::initializer_list<std::string_view> args, EvalDone done) {
  thread_local std::string command;  // pipeline_call copies it
  command.clear();
  resp::append_command(command, args);
  pipeline_call(loop, client, command, [&client, done = std::move(done)](PipelineReply&& reply) {
    deliver(client, std::move(reply), done);
  });
}

}  // namespace toolcalc::store
