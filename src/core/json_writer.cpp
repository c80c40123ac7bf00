#include "core/json_writer.hpp"

#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/decimal.hpp"

namespace toolcalc {

namespace {

// Length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto cont = [&](size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// The end of the run starting at s[i] of printable ASCII that needs no escape (below
// 0x20, 0x80 and above, '"' and '\\' end it). Keys, ids, units and most messages are one
// such run, so with SSE2 it checks 16 bytes per step.
size_t end_of_plain_run(std::string_view s, size_t i) {
#ifdef __SSE2__
  while (s.size() - i >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    // As signed bytes, everything below 0x20 is a control byte or 0x80..0xFF.
    const __m128i stop = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    if (const int mask = _mm_movemask_epi8(stop); mask != 0)
      return i + static_cast<size_t>(__builtin_ctz(mask));
    i += 16;
  }
#endif
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\') break;
    ++i;
  }
  return i;
}

}  // namespace

// Strings can carry client bytes (a request path in the access log, a query value in a
// message), which need not be UTF-8. JSON text must be (RFC 8259 §8.1), so a byte that
// does not start a well-formed sequence is written as U+FFFD instead of being copied.
void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (size_t i = 0; i < s.size(); ++i) {
    // Fast path: copy a run of printable ASCII that needs no escape in one append
    // (keys, ids and most messages are entirely such a run).
    const size_t run = end_of_plain_run(s, i);
    if (run > i) {
      out.append(s.data() + i, run - i);
      i = run;
      if (i == s.size()) break;
    }
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += hex[u >> 4];
          out += hex[u & 0xF];
        } else if (u < 0x80) {
          out += c;
        } else if (const size_t n = utf8_sequence_length(s, i); n > 0) {
          out.append(s.data() + i, n);
          i += n - 1;
        } else {
          out += "\\ufffd";
        }
    }
  }
  out += '"';
}

void JsonWriter::separate() {
  if (need_comma_) out_ += ',';
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ += '{';
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ += '[';
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  append_json_string(out_, k);
  out_ += ':';
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::plain_key(std::string_view k) {
  // Separator, quotes, key and colon in one append: keys are short identifiers, written
  // several times per response.
  char text[64];
  if (k.size() > sizeof text - 4) {
    separate();
    out_ += '"';
    out_.append(k);
    out_ += "\":";
  } else {
    char* p = text;
    if (need_comma_) *p++ = ',';
    *p++ = '"';
    std::memcpy(p, k.data(), k.size());
    p += k.size();
    *p++ = '"';
    *p++ = ':';
    out_.append(text, static_cast<size_t>(p - text));
  }
  need_comma_ = false;
  return *this;
}
JsonWriter& JsonWriter::member(std::string_view comma_key_colon) {
  out_.append(need_comma_ ? comma_key_colon : comma_key_colon.substr(1));
  need_comma_ = false;
  return *this;
}
std::string member_text(std::string_view key) {
  std::string text = ",\"";
  text.append(key).append("\":");
  return text;
}
JsonWriter& JsonWriter::string(std::string_view s) {
  separate();
  append_json_string(out_, s);
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::boolean(bool b) {
  separate();
  out_ += b ? "true" : "false";
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::integer(int64_t v) {
  separate();
  char buf[kMaxDecimalChars];
  out_.append(buf, write_decimal(buf, v));
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::fixed(double v, int places) {
  separate();
  append_fixed(out_, v, places);
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::shortest(double v) {
  separate();
  append_shortest(out_, v);
  need_comma_ = true;
  return *this;
}
JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_ += json;
  need_comma_ = true;
  return *this;
}

}  // namespace toolcalc
