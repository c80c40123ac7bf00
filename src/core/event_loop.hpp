#pragma once
// The Asio event loop the calling thread runs, if any. The HTTP workers set it for their
// threads; a shared store uses it to wait for a reply without blocking the thread (the
// Redis pipeline, store/redis_pipeline.hpp). Everything else runs without one.
namespace boost::asio {
class io_context;
}

namespace toolcalc {

inline thread_local boost::asio::io_context* this_thread_event_loop_ = nullptr;

inline boost::asio::io_context* this_thread_event_loop() {
  return this_thread_event_loop_;
}

// Sets the calling thread's loop for the lifetime of the object (nullptr afterwards).
class EventLoopScope {
 public:
  explicit EventLoopScope(boost::asio::io_context& loop) { this_thread_event_loop_ = &loop; }
  ~EventLoopScope() { this_thread_event_loop_ = nullptr; }
  EventLoopScope(const EventLoopScope&) = delete;
  EventLoopScope& operator=(const EventLoopScope&) = delete;
};

}  // namespace toolcalc
