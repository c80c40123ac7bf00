#include "core/json_writer.hpp"

#include <charconv>

#include "core/decimal.hpp"

namespace toolcalc {

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += hex[u >> 4];
          out += hex[u & 0xF];
        } else {
          out += c;
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
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
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
