#include "http/response_writer.hpp"

#include <charconv>
#include <string_view>

namespace toolcalc::http {
namespace {

std::string_view reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return status < 300 ? "OK" : status < 500 ? "Client Error" : "Server Error";
  }
}

void append_number(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void write_response(std::string& out, const api::Response& response, unsigned version,
                    bool keep_alive, bool head) {
  out.clear();
  out += version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  append_number(out, static_cast<uint64_t>(response.status));
  out += ' ';
  out += reason(response.status);
  out += "\r\n";
  if (!response.request_id.empty()) {
    out += "X-Request-ID: ";
    out += response.request_id;
    out += "\r\n";
  }
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  if (response.common_headers) out += response.common_headers->lines;
  if (response.body_size() > 0) {
    out += "Content-Type: ";
    out += response.content_type;
    out += "\r\n";
  }
  // 204 and 304 have no body, hence no length (RFC 9110 §8.6); HEAD gets the length of
  // the body GET would send, without the body.
  if (response.status != 204 && response.status != 304 &&
      (response.status >= 200 || response.status < 100)) {
    out += "Content-Length: ";
    append_number(out, response.body_size());
    out += "\r\n";
  }
  if (!keep_alive)
    out += "Connection: close\r\n";
  else if (version == 10)
    out += "Connection: keep-alive\r\n";
  out += "\r\n";
  if (!head && response.body_prefix.empty()) out += response.body;
}

}  // namespace toolcalc::http
