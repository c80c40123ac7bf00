#pragma once
// One parsed request as the connection keeps it (reused from request to request), and
// how both request parsers record the headers the API reads (request_parser.hpp on
// Beast, common_request.hpp for the common case).
#include <string>
#include <string_view>

#include "api/request.hpp"

namespace toolcalc::http {

struct RequestHead {
  std::string method;
  std::string target;
  unsigned version = 11;  // 10 for HTTP/1.0
  std::string content_type;
  std::string authorization;
  bool has_authorization = false;
  std::string origin;
  std::string host;
  int host_fields = 0;  // more than one is refused (RFC 9112 §3.2)
  std::string mcp_protocol_version;
  std::string if_none_match;
  std::string transfer_encoding;
  int transfer_encoding_fields = 0;
  bool expect_continue = false;
  std::string body;

  // Empties every value and keeps every capacity.
  void clear() {
    method.clear();
    target.clear();
    version = 11;
    content_type.clear();
    authorization.clear();
    has_authorization = false;
    origin.clear();
    host.clear();
    host_fields = 0;
    mcp_protocol_version.clear();
    if_none_match.clear();
    transfer_encoding.clear();
    transfer_encoding_fields = 0;
    expect_continue = false;
    body.clear();
  }
};

// The request headers the API reads. Both parsers (RequestParser on Beast, and
// parse_common_request for the common case) store them through record_field, so they
// keep the same rules: the first occurrence wins, and Host is counted, since a request
// with more than one is refused (RFC 9112 §3.2: a proxy that took the last one would
// route it to another host than this server checks).
enum class HeadField { ContentType, Authorization, Origin, Host, IfNoneMatch, McpProtocolVersion };

inline void record_field(RequestHead& head, HeadField field, std::string_view value) {
  const auto first = [&](std::string& to) {
    if (to.empty()) to.assign(value.data(), value.size());
  };
  switch (field) {
    case HeadField::ContentType:
      return first(head.content_type);
    case HeadField::Authorization:
      if (!head.has_authorization) {
        head.authorization.assign(value.data(), value.size());
        head.has_authorization = true;
      }
      return;
    case HeadField::Origin:
      return first(head.origin);
    case HeadField::Host:
      if (++head.host_fields == 1) head.host.assign(value.data(), value.size());
      return;
    case HeadField::IfNoneMatch:
      return first(head.if_none_match);
    case HeadField::McpProtocolVersion:
      return first(head.mcp_protocol_version);
  }
}

// The API's view of a parsed request: views into `head`, valid while it is unchanged.
inline api::Request to_api_request(const RequestHead& head, std::string_view peer_ip) {
  api::Request request;
  request.method = head.method;
  request.target = head.target;
  request.content_type = head.content_type;
  if (head.has_authorization) request.authorization = std::string_view(head.authorization);
  request.origin = head.origin;
  request.host = head.host;
  request.mcp_protocol_version = head.mcp_protocol_version;
  request.if_none_match = head.if_none_match;
  request.body = head.body;
  request.peer_ip = peer_ip;
  return request;
}

}  // namespace toolcalc::http
