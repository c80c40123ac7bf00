#pragma once
// Parses a request body into the list of top-level members that validation needs, with
// one SAX pass (no DOM). An object-valued member also records its own members, down to
// three levels (the sweep's "inputs" and "vary"; the tolerance body's
// "tolerances":{"r1_ohm":{"pct":1}}); deeper values are recorded by kind only. Rejects what
// Boost.JSON's DOM would silently accept: duplicate keys, at any depth (the DOM keeps the
// last one) — a client must never have one of two values ignored without being told.
// Every body the server reads goes through these rules (parse_body or parse_json), in
// time linear in its size.
#include <boost/json/fwd.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/api_error.hpp"

namespace toolcalc::catalog {

// Limits of every body (docs/api.md, "Validation"; docs/security.md): nesting deeper than
// kMaxJsonDepth is INVALID_JSON, not recursed into; a member name is at most
// kMaxMemberNameBytes bytes.
inline constexpr int kMaxJsonDepth = 64;
inline constexpr std::size_t kMaxMemberNameBytes = 1024;

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

// The same rules for a body its reader takes as a DOM (the MCP endpoint's JSON-RPC
// messages, the admin API's bodies): one JSON value, no key repeated in any object at any
// depth (named by its path: "params.arguments.x"), numbers correctly rounded and, past the
// range of a double, ±infinity, which the reader of the field refuses as "must be a
// finite number". Returns false and fills `error` as parse_body does; when the only fault
// is a repeated key, `out` still holds the document (with the last of the repeated
// members), so that the caller can answer in its own protocol (a JSON-RPC id).
bool parse_json(std::string_view body, boost::json::value& out, ApiError& error);

// Key comparisons and hash look-ups made by the repeated-key checks on this thread so
// far: constant per key whatever the body's size (tests/unit/catalog).
std::uint64_t duplicate_check_steps();

const char* kind_name(BodyMember::Kind kind);

}  // namespace toolcalc::catalog
