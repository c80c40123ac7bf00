#include "http/common_request.hpp"

#include <array>
#include <cstring>
#include <optional>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/text.hpp"

namespace toolcalc::http {
namespace {

using Table = std::array<bool, 256>;

// tchar (RFC 9110 §5.6.2): the characters of a header name, as Beast's parser checks them.
constexpr Table kNameChar = [] {
  Table t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = t[c + 32] = true;
  for (unsigned char c : std::string_view("!#$%&'*+-.^_`|~")) t[c] = true;
  return t;
}();

// What Beast's parser takes inside a header value (parse_token_to_eol): HTAB, SP, VCHAR
// and obs-text. Any other byte ends the scan; only CR LF may end it here.
constexpr Table kValueChar = [] {
  Table t{};
  t['\t'] = true;
  for (int c = 0x20; c < 0x7F; ++c) t[c] = true;
  for (int c = 0x80; c < 0x100; ++c) t[c] = true;
  return t;
}();

// The first byte in [p, end) that a header value cannot hold (a control byte other than
// HTAB, or DEL; CR is where a well-formed value ends). Values are most of a request's
// bytes (a bearer key is 47), so with SSE2 it checks 16 bytes per step.
const char* end_of_value(const char* p, const char* end) {
#ifdef __SSE2__
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // As signed bytes, the controls 0x00..0x1F are those in [0, 0x20); obs-text is < 0.
    const __m128i control =
        _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(-1)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    const __m128i stop =
        _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                         _mm_or_si128(control, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F))));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  while (p < end && kValueChar[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

// What this parser takes in a target: 0x21..0x7E (visible ASCII).
bool is_target_char(char c) {
  const auto b = static_cast<unsigned char>(c);
  return b > 0x20 && b < 0x7F;
}

// The first byte in [p, end) outside 0x21..0x7E.
const char* end_of_target(const char* p, const char* end) {
#ifdef __SSE2__
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // As signed bytes, everything below 0x21 (controls, SP, and 0x80..0xFF) or DEL.
    const __m128i stop = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  while (p < end && is_target_char(*p)) ++p;
  return p;
}

// What the header fields said about framing and the connection.
struct Framing {
  std::optional<std::uint64_t> content_length;
  bool close = false;
  bool keep_alive = false;
};

// Records one field; false declines the request (a field this parser leaves to Beast).
bool take_field(std::string_view name, std::string_view value, RequestHead& head,
                Framing& framing) {
  switch (name.size()) {
    case 4:
      if (!iequals(name, "host")) return true;
      record_field(head, HeadField::Host, value);
      return head.host_fields == 1;  // Beast's path refuses a second
    case 6:
      if (iequals(name, "origin")) record_field(head, HeadField::Origin, value);
      return !iequals(name, "expect");
    case 7:
      return !iequals(name, "upgrade");
    case 10:
      if (iequals(name, "connection")) {
        if (iequals(value, "close"))
          framing.close = true;
        else if (iequals(value, "keep-alive"))
          framing.keep_alive = true;
        else
          return false;
      }
      return true;
    case 12:
      if (iequals(name, "content-type")) record_field(head, HeadField::ContentType, value);
      return true;
    case 13:
      if (iequals(name, "authorization"))
        record_field(head, HeadField::Authorization, value);
      else if (iequals(name, "if-none-match"))
        record_field(head, HeadField::IfNoneMatch, value);
      return true;
    case 14:
      if (iequals(name, "content-length")) {
        // One plain decimal, short enough not to overflow; lists and repeats go to Beast.
        if (framing.content_length || value.empty() || value.size() > 18) return false;
        std::uint64_t n = 0;
        for (char c : value) {
          if (c < '0' || c > '9') return false;
          n = n * 10 + static_cast<std::uint64_t>(c - '0');
        }
        framing.content_length = n;
      }
      return true;
    case 16:
      return !iequals(name, "proxy-connection");
    case 17:
      return !iequals(name, "transfer-encoding");
    case 20:
      if (iequals(name, "mcp-protocol-version"))
        record_field(head, HeadField::McpProtocolVersion, value);
      return true;
    default:
      return true;
  }
}

}  // namespace

CommonRequest parse_common_request(std::string_view bytes, std::size_t header_limit,
                                   std::uint64_t body_limit, RequestHead& head) {
  const char* const begin = bytes.data();
  const char* const end = begin + bytes.size();
  const char* p = begin;
  const auto left = [&] { return static_cast<std::size_t>(end - p); };

  // request-line = method SP request-target SP HTTP-version CRLF
  const char* const method = p;
  while (p < end && *p >= 'A' && *p <= 'Z') ++p;
  if (p == method || p == end || *p != ' ') return {};
  const std::string_view method_text(method, static_cast<std::size_t>(p - method));
  ++p;
  const char* const target = p;
  p = end_of_target(p, end);
  // SP "HTTP/1.x" CRLF
  if (p == target || left() < 11 || *p != ' ') return {};
  const std::string_view target_text(target, static_cast<std::size_t>(p - target));
  ++p;
  if (std::memcmp(p, "HTTP/1.", 7) != 0 || (p[7] != '0' && p[7] != '1') || p[8] != '\r' ||
      p[9] != '\n')
    return {};
  const unsigned version = p[7] == '1' ? 11 : 10;
  p += 10;

  // header-field = field-name ":" OWS field-value OWS, each line ending in CRLF, then an
  // empty line.
  Framing framing;
  for (;;) {
    if (left() < 2) return {};
    if (p[0] == '\r') {
      if (p[1] != '\n') return {};
      p += 2;
      break;
    }
    const char* const name = p;
    while (p < end && kNameChar[static_cast<unsigned char>(*p)]) ++p;
    if (p == name || p == end || *p != ':') return {};
    const std::string_view name_text(name, static_cast<std::size_t>(p - name));
    ++p;
    while (p < end && is_optional_whitespace(*p)) ++p;
    const char* const value = p;
    p = end_of_value(p, end);
    // CRLF, and a next line that does not start with whitespace (obs-fold, left to Beast).
    if (left() < 3 || p[0] != '\r' || p[1] != '\n' || is_optional_whitespace(p[2])) return {};
    const char* value_end = p;
    while (value_end > value && is_optional_whitespace(value_end[-1])) --value_end;
    p += 2;
    if (static_cast<std::size_t>(p - begin) > header_limit) return {};
    if (!take_field(name_text, std::string_view(value, static_cast<std::size_t>(value_end - value)),
                    head, framing))
      return {};
  }
  if (static_cast<std::size_t>(p - begin) > header_limit) return {};

  // A request without Content-Length (and, here, without Transfer-Encoding) has no body.
  const std::uint64_t length = framing.content_length.value_or(0);
  if (length > body_limit || length > left()) return {};
  head.method.assign(method_text.data(), method_text.size());
  head.target.assign(target_text.data(), target_text.size());
  head.version = version;
  head.body.assign(p, static_cast<std::size_t>(length));
  p += length;
  // Beast: HTTP/1.1 persists unless "close" was said; HTTP/1.0 only if "keep-alive" was.
  return {static_cast<std::size_t>(p - begin), version == 11 ? !framing.close : framing.keep_alive};
}

}  // namespace toolcalc::http
