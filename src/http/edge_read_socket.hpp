#pragma once
// A TCP socket whose reads skip the recv that cannot succeed.
//
// Asio's reactor tries every read at once before waiting for epoll ("speculative"
// reads), and forgets that the last read drained the socket: a connection's next read,
// started while its client still waits for the answer, is a recv that fails with EAGAIN,
// one system call per request for nothing (about 0.5 µs on this VM: session 16 in
// docs/history/performance-and-reliability-log.md).
// nginx keeps that knowledge (ngx_unix_recv clears `rev->ready` when a read returns less
// than it asked for) and waits for the next edge instead. This socket does the same: a
// read that returns less than its buffer reports the socket exhausted to Asio's epoll
// reactor, which then queues the next read without trying it until epoll signals data.
//
// Why that is safe: a TCP recv copies every queued segment up to the length asked
// (tcp_recvmsg), so a short read left the receive queue empty, and the edge-triggered
// registration Asio keeps for every descriptor signals the next segment, FIN or error.
// Data that arrives while no read is queued sets the reactor's "try at once" flag again
// (epoll_reactor::descriptor_state::perform_io), so it is read at once by the next read.
//
// The op below is Asio's reactive_socket_recv_op for one buffer with that one change; it
// uses Asio's detail layer, so it is built only for the Boost this project builds with
// (Debian 12's 1.81) on the epoll reactor, and any other configuration reads as Asio does.
#include <boost/asio/ip/tcp.hpp>
#include <boost/version.hpp>

#if BOOST_VERSION == 108100 && defined(BOOST_ASIO_HAS_EPOLL) && \
    !defined(BOOST_ASIO_HAS_IO_URING_AS_DEFAULT)
#define TOOLCALC_EDGE_READS 1
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/detail/bind_handler.hpp>
#include <boost/asio/detail/fenced_block.hpp>
#include <boost/asio/detail/handler_alloc_helpers.hpp>
#include <boost/asio/detail/handler_cont_helpers.hpp>
#include <boost/asio/detail/handler_work.hpp>
#include <boost/asio/detail/memory.hpp>
#include <boost/asio/detail/reactor.hpp>
#include <boost/asio/detail/reactor_op.hpp>
#include <boost/asio/detail/socket_ops.hpp>
#else
#define TOOLCALC_EDGE_READS 0
#endif

#include <utility>

namespace toolcalc::http {

#if TOOLCALC_EDGE_READS

namespace edge_read_detail {

namespace net = boost::asio;
namespace nd = boost::asio::detail;

template <class Handler, class IoExecutor>
class RecvOp : public nd::reactor_op {
 public:
  BOOST_ASIO_DEFINE_HANDLER_PTR(RecvOp);

  RecvOp(const boost::system::error_code& success_ec, nd::socket_type socket,
         net::mutable_buffer buffer, Handler& handler, const IoExecutor& io_ex)
      : nd::reactor_op(success_ec, &RecvOp::do_perform, &RecvOp::do_complete),
        socket_(socket),
        buffer_(buffer),
        handler_(std::move(handler)),
        work_(handler_, io_ex) {}

  static status do_perform(nd::reactor_op* base) {
    auto* o = static_cast<RecvOp*>(base);
    if (!nd::socket_ops::non_blocking_recv1(o->socket_, o->buffer_.data(), o->buffer_.size(), 0,
                                            true, o->ec_, o->bytes_transferred_))
      return not_done;  // EAGAIN: wait for epoll
    // Short (or end of stream, or an error): nothing is left to read until the next edge.
    return o->bytes_transferred_ < o->buffer_.size() ? done_and_exhausted : done;
  }

  static void do_complete(void* owner, nd::operation* base, const boost::system::error_code&,
                          std::size_t) {
    auto* o = static_cast<RecvOp*>(base);
    ptr p = {nd::addressof(o->handler_), o, o};
    nd::handler_work<Handler, IoExecutor> w(std::move(o->work_));
    // The handler is moved out before the op's memory is freed: it may own that memory.
    nd::binder2<Handler, boost::system::error_code, std::size_t> handler(o->handler_, o->ec_,
                                                                         o->bytes_transferred_);
    p.h = nd::addressof(handler.handler_);
    p.reset();
    if (owner) {
      nd::fenced_block b(nd::fenced_block::half);
      w.complete(handler, handler.handler_);
    }
  }

 private:
  nd::socket_type socket_;
  net::mutable_buffer buffer_;
  Handler handler_;
  nd::handler_work<Handler, IoExecutor> work_;
};

// Per-operation cancellation (a cancellation slot bound to the handler), as Asio's own
// reads support it.
class Cancellation {
 public:
  Cancellation(nd::reactor* r, nd::reactor::per_descriptor_data* data, int descriptor)
      : reactor_(r), data_(data), descriptor_(descriptor) {}
  void operator()(net::cancellation_type_t type) {
    if (!!(type & (net::cancellation_type::terminal | net::cancellation_type::partial |
                   net::cancellation_type::total)))
      reactor_->cancel_ops_by_key(descriptor_, *data_, nd::reactor::read_op, this);
  }

 private:
  nd::reactor* reactor_;
  nd::reactor::per_descriptor_data* data_;
  int descriptor_;
};

}  // namespace edge_read_detail

class EdgeReadSocket : public boost::asio::ip::tcp::socket {
 public:
  explicit EdgeReadSocket(boost::asio::ip::tcp::socket&& socket)
      : boost::asio::ip::tcp::socket(std::move(socket)),
        reactor_(boost::asio::use_service<boost::asio::detail::reactor>(
            boost::asio::query(get_executor(), boost::asio::execution::context))) {}

  // Hides basic_stream_socket::async_read_some for the one buffer a connection reads
  // into.
  template <class Token>
  auto async_read_some(const boost::asio::mutable_buffer& buffer, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
        [this](auto handler, const boost::asio::mutable_buffer& b) {
          this->start_read(std::move(handler), b);
        },
        token, buffer);
  }

 private:
  template <class Handler>
  void start_read(Handler handler, const boost::asio::mutable_buffer& buffer) {
    namespace nd = boost::asio::detail;
    using Op = edge_read_detail::RecvOp<Handler, executor_type>;
    auto& impl = impl_.get_implementation();
    const bool is_continuation = boost_asio_handler_cont_helpers::is_continuation(handler);
    auto slot = boost::asio::get_associated_cancellation_slot(handler);
    typename Op::ptr p = {nd::addressof(handler), Op::ptr::allocate(handler), nullptr};
    p.p = new (p.v)
        Op(boost::system::error_code(), impl.socket_, buffer, handler, impl_.get_executor());
    if (slot.is_connected())
      p.p->cancellation_key_ = &slot.template emplace<edge_read_detail::Cancellation>(
          &reactor_, &impl.reactor_data_, impl.socket_);
    if (buffer.size() == 0) {
      reactor_.post_immediate_completion(p.p, is_continuation);  // as Asio: done, 0 bytes
    } else if ((impl.state_ & nd::socket_ops::non_blocking) != 0 ||
               nd::socket_ops::set_internal_non_blocking(impl.socket_, impl.state_, true,
                                                         p.p->ec_)) {
      reactor_.start_op(nd::reactor::read_op, impl.socket_, impl.reactor_data_, p.p,
                        is_continuation, true);
    } else {
      reactor_.post_immediate_completion(p.p, is_continuation);  // with the error
    }
    p.v = p.p = nullptr;
  }

  boost::asio::detail::reactor& reactor_;
};

#else

// Another Boost or reactor: Asio's reads as they are.
class EdgeReadSocket : public boost::asio::ip::tcp::socket {
 public:
  explicit EdgeReadSocket(boost::asio::ip::tcp::socket&& socket)
      : boost::asio::ip::tcp::socket(std::move(socket)) {}
};

#endif

}  // namespace toolcalc::http
