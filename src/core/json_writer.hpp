#pragma once
// A small streaming JSON writer. Boost.JSON's serializer prints doubles in exponent form
// (3.433E2); responses need plain fixed-precision decimals, so we write JSON ourselves.
#include <cstdint>
#include <string>
#include <string_view>

namespace toolcalc {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  // A key that needs no escaping, copied as is: only for identifiers checked once at
  // start-up (descriptor keys, see catalog::check_catalog) or literals.
  JsonWriter& plain_key(std::string_view k);
  // A key rendered beforehand with its separator, `,"key":` (member_text), written in one
  // append: the response's fixed keys.
  JsonWriter& member(std::string_view comma_key_colon);

  JsonWriter& string(std::string_view s);
  JsonWriter& boolean(bool b);
  JsonWriter& null();
  JsonWriter& integer(int64_t v);
  JsonWriter& fixed(double v, int places);  // plain decimal at `places`
  JsonWriter& shortest(double v);           // shortest round-trip plain decimal
  // Inserts already-rendered JSON (e.g. a descriptor rendered once at start-up).
  JsonWriter& raw(std::string_view json);

  // Convenience: key + value.
  JsonWriter& field(std::string_view k, std::string_view v) { return key(k).string(v); }
  JsonWriter& field(std::string_view k, const char* v) { return key(k).string(v); }
  JsonWriter& field(std::string_view k, bool v) { return key(k).boolean(v); }
  JsonWriter& field(std::string_view k, int64_t v) { return key(k).integer(v); }
  JsonWriter& field(std::string_view k, int v) { return key(k).integer(v); }

 private:
  void separate();
  std::string& out_;
  bool need_comma_ = false;
};

// `,"key":` for JsonWriter::member; `key` as plain_key requires.
std::string member_text(std::string_view key);

// Appends `s` as a quoted JSON string with the required escapes.
void append_json_string(std::string& out, std::string_view s);

}  // namespace toolcalc
