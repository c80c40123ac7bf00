#include "accounts/webhook_client.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "accounts/host_resolver.hpp"

namespace toolcalc::accounts {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kMaxUrlLength = 2000;

bool fail(std::string* why, std::string text) {
  if (why) *why = std::move(text);
  return false;
}

int ms_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(left.count());
}

// A socket closed when it goes out of scope.
struct Socket {
  int fd = -1;
  ~Socket() {
    if (fd >= 0) ::close(fd);
  }
};

// Waits until `fd` is readable or writable; false on timeout.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int rc = ::poll(&p, 1, ms_left(deadline));
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) return false;
  }
}

// A non-blocking TCP connection to the first address of `url.host` that `policy` accepts
// and that answers in time. The name is resolved under the same deadline, and the socket
// connects to the very address that was checked.
bool connect_to(const WebhookUrl& url, const ReceiverPolicy& policy, Socket& sock,
                Clock::time_point deadline, std::string& error, bool& postponed) {
  const auto addresses = resolve_host(url.host, url.port, deadline, error, &postponed);
  if (addresses.empty()) return false;
  std::string refused;
  for (const ResolvedAddress& a : addresses) {
    if (auto why = policy.refusal(a.sa())) {
      if (refused.empty()) refused = "refused: " + *why;
      continue;
    }
    Socket s;
    s.fd = ::socket(a.family(), a.socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a.protocol);
    if (s.fd < 0) continue;
    if (::connect(s.fd, &a.sa(), a.len) != 0) {
      if (errno != EINPROGRESS) {
        error = std::string("connect: ") + std::strerror(errno);
        continue;
      }
      if (!wait_for(s.fd, POLLOUT, deadline)) {
        error = "connect: timed out";
        continue;
      }
      int so_error = 0;
      socklen_t len = sizeof so_error;
      ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
      if (so_error != 0) {
        error = std::string("connect: ") + std::strerror(so_error);
        continue;
      }
    }
    sock.fd = s.fd;
    s.fd = -1;
    return true;
  }
  // No address tried: why they were refused; else the last connect error stands.
  if (error.empty()) error = refused.empty() ? "no address of the host" : refused;
  return false;
}

// Plain or TLS I/O on a non-blocking socket, each call bounded by the deadline.
class Stream {
 public:
  Stream(int fd, Clock::time_point deadline) : fd_(fd), deadline_(deadline) {}
  ~Stream() {
    if (ssl_) SSL_free(ssl_);
    if (ctx_) SSL_CTX_free(ctx_);
  }

  bool start_tls(const std::string& host, std::string& error) {
    ctx_ = SSL_CTX_new(TLS_client_method());
    if (!ctx_ || SSL_CTX_set_default_verify_paths(ctx_) != 1) return tls_error("TLS setup", error);
    SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    ssl_ = SSL_new(ctx_);
    if (!ssl_ || SSL_set_fd(ssl_, fd_) != 1 || SSL_set_tlsext_host_name(ssl_, host.c_str()) != 1 ||
        SSL_set1_host(ssl_, host.c_str()) != 1)
      return tls_error("TLS setup", error);
    for (;;) {
      const int rc = SSL_connect(ssl_);
      if (rc == 1) return true;
      if (!wait_ssl(rc)) return tls_error("TLS handshake", error);
    }
  }

  bool write_all(std::string_view data, std::string& error) {
    while (!data.empty()) {
      ssize_t n = 0;
      if (ssl_) {
        size_t written = 0;
        const int rc = SSL_write_ex(ssl_, data.data(), data.size(), &written);
        if (rc != 1) {
          if (!wait_ssl(rc)) return tls_error("TLS write", error);
          continue;
        }
        n = static_cast<ssize_t>(written);
      } else {
        n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0) {
          if (errno == EINTR) continue;
          if (errno == EAGAIN && wait_for(fd_, POLLOUT, deadline_)) continue;
          error =
              errno == EAGAIN ? "send: timed out" : std::string("send: ") + std::strerror(errno);
          return false;
        }
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // Some bytes into `buf`; 0 at the end of the stream, -1 on an error (set).
  ssize_t read_some(char* buf, size_t size, std::string& error) {
    for (;;) {
      if (ssl_) {
        size_t got = 0;
        const int rc = SSL_read_ex(ssl_, buf, size, &got);
        if (rc == 1) return static_cast<ssize_t>(got);
        if (SSL_get_error(ssl_, rc) == SSL_ERROR_ZERO_RETURN) return 0;
        if (!wait_ssl(rc)) {
          tls_error("TLS read", error);
          return -1;
        }
        continue;
      }
      const ssize_t n = ::recv(fd_, buf, size, 0);
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      if (errno == EAGAIN && wait_for(fd_, POLLIN, deadline_)) continue;
      error = errno == EAGAIN ? "no answer in time" : std::string("recv: ") + std::strerror(errno);
      return -1;
    }
  }

 private:
  // After an SSL call that did not complete: waits for what it needs, false when it failed.
  bool wait_ssl(int rc) {
    const int e = SSL_get_error(ssl_, rc);
    if (e == SSL_ERROR_WANT_READ) return wait_for(fd_, POLLIN, deadline_);
    if (e == SSL_ERROR_WANT_WRITE) return wait_for(fd_, POLLOUT, deadline_);
    return false;
  }
  bool tls_error(const char* what, std::string& error) {
    char buf[256] = "timed out or closed";
    if (const unsigned long e = ERR_get_error()) ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    error = std::string(what) + ": " + buf;
    return false;
  }

  int fd_;
  Clock::time_point deadline_;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
};

bool has_cr_lf(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

}  // namespace

std::optional<WebhookUrl> parse_webhook_url(std::string_view url, std::string* why) {
  WebhookUrl u;
  if (url.size() > kMaxUrlLength)
    return fail(why, "the URL is longer than 2000 bytes"), std::nullopt;
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return fail(why, "the URL contains a space or a control character"), std::nullopt;
  std::string_view rest;
  if (url.starts_with("https://")) {
    u.tls = true;
    u.port = 443;
    rest = url.substr(8);
  } else if (url.starts_with("http://")) {
    u.port = 80;
    rest = url.substr(7);
  } else {
    return fail(why, "the URL must start with https:// or http://"), std::nullopt;
  }
  if (rest.find('#') != std::string_view::npos)
    return fail(why, "the URL must not have a fragment (#…)"), std::nullopt;
  const size_t path_at = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, path_at);
  u.target = path_at == std::string_view::npos ? "/" : std::string(rest.substr(path_at));
  if (u.target.front() == '?') u.target.insert(u.target.begin(), '/');
  if (authority.find('@') != std::string_view::npos)
    return fail(why, "the URL must not carry a user name or password"), std::nullopt;
  std::string_view port;
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return fail(why, "unclosed [ in the host"), std::nullopt;
    u.host = std::string(authority.substr(1, close - 1));
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return fail(why, "bad characters after the host"), std::nullopt;
      port = after.substr(1);
    }
  } else {
    const size_t colon = authority.rfind(':');
    u.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (u.host.empty()) return fail(why, "the URL has no host"), std::nullopt;
  if (!port.empty()) {
    int p = 0;
    const auto r = std::from_chars(port.data(), port.data() + port.size(), p);
    if (r.ec != std::errc() || r.ptr != port.data() + port.size() || p < 1 || p > 65535)
      return fail(why, "the port must be 1..65535"), std::nullopt;
    u.port = p;
  }
  return u;
}

WebhookResponse post_webhook(const WebhookUrl& url, std::string_view body,
                             const std::vector<std::pair<std::string, std::string>>& headers,
                             std::chrono::milliseconds timeout, const ReceiverPolicy& policy) {
  WebhookResponse out;
  const auto deadline = Clock::now() + timeout;
  Socket sock;
  if (!connect_to(url, policy, sock, deadline, out.error, out.postponed)) return out;
  Stream stream(sock.fd, deadline);
  if (url.tls && !stream.start_tls(url.host, out.error)) return out;

  const bool default_port = url.port == (url.tls ? 443 : 80);
  const bool ipv6 = url.host.find(':') != std::string::npos;
  std::string host = ipv6 ? "[" + url.host + "]" : url.host;
  if (!default_port) host += ":" + std::to_string(url.port);
  std::string request = "POST " + url.target + " HTTP/1.1\r\nHost: " + host +
                        "\r\nUser-Agent: toolcalc/" TOOLCALC_VERSION
                        "\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\nConnection: close\r\n";
  for (const auto& [name, value] : headers) {
    if (has_cr_lf(name) || has_cr_lf(value)) {
      out.error = "a header holds CR or LF";
      return out;
    }
    request += name + ": " + value + "\r\n";
  }
  request += "\r\n";
  request += body;
  if (!stream.write_all(request, out.error)) return out;

  // "HTTP/1.1 204 No Content\r\n": the status line is all a delivery needs.
  std::string head;
  char buf[1024];
  while (head.find("\r\n") == std::string::npos && head.size() < 8192) {
    const ssize_t n = stream.read_some(buf, sizeof buf, out.error);
    if (n < 0) return out;
    if (n == 0) break;
    head.append(buf, static_cast<size_t>(n));
  }
  const std::string_view line = std::string_view(head).substr(0, head.find("\r\n"));
  int status = 0;
  if (line.size() >= 12 && line.starts_with("HTTP/1.")) {
    const auto r = std::from_chars(line.data() + 9, line.data() + 12, status);
    if (r.ec != std::errc() || r.ptr != line.data() + 12) status = 0;
  }
  if (status < 100 || status > 599) {
    out.error = head.empty() ? "the connection closed without an answer" : "not an HTTP answer";
    return out;
  }
  out.status = status;
  return out;
}

std::string webhook_signature(std::string_view secret, int64_t timestamp_s, std::string_view body) {
  const std::string ts = std::to_string(timestamp_s);
  std::string signed_payload;
  signed_payload.reserve(ts.size() + 1 + body.size());
  signed_payload += ts;
  signed_payload += '.';
  signed_payload += body;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
            reinterpret_cast<const unsigned char*>(signed_payload.data()), signed_payload.size(),
            mac, &len))
    throw std::runtime_error("OpenSSL: HMAC-SHA256 failed");
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "t=" + ts + ",v1=";
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[mac[i] >> 4];
    out += hex[mac[i] & 15];
  }
  return out;
}

}  // namespace toolcalc::accounts
