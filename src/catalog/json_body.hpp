#pragma once
// Parses a request body into the list of top-level members that validation needs, with
// one SAX pass (no DOM). An object-valued member also records its own members, down to
// three levels (the sweep's "inputs" and "vary"; the tolerance body's
// "tolerances":{"r1_ohm":{"pct":1}}); deeper values are recorded by kind only. Rejects what
// Boost.JSON's DOM would silently accept: duplicate keys (the DOM keeps the last one) — a client
// must never have one of two values ignored without being told.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/api_error.hpp"

namespace toolcalc::catalog {

struct BodyMember {
  enum class Kind { Null, Bool, Int, Uint, Double, String, Object, Array };
  std::string key;
  Kind kind = Kind::Null;
  bool boolean = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string text;  // String
  // An object at depth 1 or 2: its members, in request order (an object at depth 3 keeps
  // its `fields` empty). Empty, and never allocated, for every other member.
  std::vector<BodyMember> fields;

  // Empty again, keeping the capacity of key and text (parse_body reuses members).
  void reset() {
    key.clear();
    kind = Kind::Null;
    boolean = false;
    int_value = 0;
    uint_value = 0;
    double_value = 0;
    text.clear();
    fields.clear();
  }
};

struct ParsedBody {
  std::vector<BodyMember> members;  // in request order
};

// Returns false and fills `error` (400 INVALID_JSON, or VALIDATION_ERROR naming a
// duplicate key) when the body is not one JSON object with unique keys. A key repeated
// inside a recorded object is named with its parents: "inputs.x", "tolerances.r1.pct".
bool parse_body(std::string_view body, ParsedBody& parsed, ApiError& error);

const char* kind_name(BodyMember::Kind kind);

}  // namespace toolcalc::catalog
