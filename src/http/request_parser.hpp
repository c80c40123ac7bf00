#pragma once
// An HTTP/1.1 request parser on Beast's basic_parser (its documented extension point) that
// keeps only what the API reads: method, target, six headers and the body. Everything
// goes into a RequestHead that the connection reuses from one request to the next, so a
// request costs no allocation once the strings have grown, and no field container is
// built (Beast's request_parser<string_body> allocates a node per header).
// Content-Length, Transfer-Encoding framing, Connection/keep-alive and the header and body
// limits are handled by basic_parser itself.
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/text.hpp"
#include "http/request_head.hpp"

namespace toolcalc::http {

namespace bhttp = boost::beast::http;

class RequestParser final : public bhttp::basic_parser<true> {
 public:
  explicit RequestParser(RequestHead& head) : head_(head) {}

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  static void assign(std::string& to, string_view from) { to.assign(from.data(), from.size()); }

  void on_request_impl(bhttp::verb, string_view method, string_view target, int version,
                       error_code&) override {
    head_.version = static_cast<unsigned>(version);
    assign(head_.method, method);
    assign(head_.target, target);
  }
  void on_response_impl(int, string_view, int, error_code&) override {}

  // The first occurrence of a header wins (as Beast's fields::find answered before);
  // Transfer-Encoding and Host are counted, since more than one is refused by the
  // connection.
  void on_field_impl(bhttp::field name, string_view name_string, string_view value,
                     error_code&) override {
    const std::string_view v(value.data(), value.size());
    switch (name) {
      case bhttp::field::content_type:
        return record_field(head_, HeadField::ContentType, v);
      case bhttp::field::authorization:
        return record_field(head_, HeadField::Authorization, v);
      case bhttp::field::origin:
        return record_field(head_, HeadField::Origin, v);
      case bhttp::field::host:
        return record_field(head_, HeadField::Host, v);
      case bhttp::field::if_none_match:
        return record_field(head_, HeadField::IfNoneMatch, v);
      case bhttp::field::transfer_encoding:
        assign(head_.transfer_encoding, value);
        ++head_.transfer_encoding_fields;
        break;
      case bhttp::field::expect:
        head_.expect_continue = iequals(value, "100-continue");
        break;
      case bhttp::field::unknown:
        if (iequals(name_string, "MCP-Protocol-Version"))
          record_field(head_, HeadField::McpProtocolVersion, v);
        break;
      default:
        break;
    }
  }
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                         error_code&) override {
    // basic_parser has already refused a length over the body limit.
    if (content_length) head_.body.reserve(static_cast<size_t>(*content_length));
  }
  std::size_t on_body_impl(string_view body, error_code&) override {
    head_.body.append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override {
    head_.body.append(body.data(), body.size());
    return body.size();
  }
  void on_finish_impl(error_code&) override {}

  RequestHead& head_;
};

}  // namespace toolcalc::http
