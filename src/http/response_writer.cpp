#include "http/response_writer.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/decimal.hpp"

namespace toolcalc::http {
namespace {

std::string_view reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Content";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return status < 300 ? "OK" : status < 500 ? "Client Error" : "Server Error";
  }
}

// Writes the head into a buffer sized for it beforehand: each piece is a memcpy, and the
// literals (header names, separators) have a known length, so they compile to a few
// moves instead of a checked std::string append each.
class HeadWriter {
 public:
  HeadWriter(std::string& out, size_t bound) : out_(out) {
    out_.resize(bound);
    p_ = out_.data();
  }
  template <size_t N>
  HeadWriter& operator<<(const char (&literal)[N]) {
    std::memcpy(p_, literal, N - 1);
    p_ += N - 1;
    return *this;
  }
  HeadWriter& operator<<(std::string_view text) {
    std::memcpy(p_, text.data(), text.size());
    p_ += text.size();
    return *this;
  }
  HeadWriter& operator<<(int64_t v) {
    p_ = write_decimal(p_, v);
    return *this;
  }
  void finish() { out_.resize(static_cast<size_t>(p_ - out_.data())); }

 private:
  std::string& out_;
  char* p_;
};

// The most the head can take beyond the variable text of the response: the status line,
// the names, separators and numbers of the headers the writer adds itself (Content-Type,
// Content-Length, Connection), and the closing blank line.
constexpr size_t kHeadOverhead = 512;

}  // namespace

void write_response(std::string& out, const api::Response& response, unsigned version,
                    bool keep_alive, bool head) {
  const bool with_body = !head && response.body_prefix.empty();
  size_t bound = kHeadOverhead + response.lead_headers.size() + response.content_type.size() +
                 (with_body ? response.body.size() : 0);
  for (const auto& [name, value] : response.headers) bound += name.size() + value.size() + 4;
  if (response.common_headers) bound += response.common_headers->lines.size();

  HeadWriter w(out, bound);
  w << (version == 10 ? std::string_view("HTTP/1.0 ") : std::string_view("HTTP/1.1 "))
    << int64_t{response.status} << " " << reason(response.status) << "\r\n";
  w << response.lead_headers;
  for (const auto& [name, value] : response.headers) w << name << ": " << value << "\r\n";
  if (response.common_headers) w << response.common_headers->lines;
  if (response.body_size() > 0) w << "Content-Type: " << response.content_type << "\r\n";
  // 204 and 304 have no body, hence no length (RFC 9110 §8.6); HEAD gets the length of
  // the body GET would send, without the body.
  if (response.status != 204 && response.status != 304 &&
      (response.status >= 200 || response.status < 100))
    w << "Content-Length: " << static_cast<int64_t>(response.body_size()) << "\r\n";
  if (!keep_alive)
    w << "Connection: close\r\n";
  else if (version == 10)
    w << "Connection: keep-alive\r\n";
  w << "\r\n";
  if (with_body) w << response.body;
  w.finish();
}

}  // namespace toolcalc::http
