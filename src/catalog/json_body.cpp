#include "catalog/json_body.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <charconv>

namespace toolcalc::catalog {
namespace {

namespace json = boost::json;

// SAX handler: collects top-level members and, for an object-valued member, that
// object's members, and for those that are objects their members in turn (depth 3: the
// analysis bodies' "tolerances":{"r1":{"pct":1}}); anything deeper is recorded by kind
// only. Values are recorded where `recording()` holds: every container between the top
// level and the value is a recorded object.
struct BodyHandler {
  static constexpr std::size_t max_object_size = 4096;
  static constexpr std::size_t max_array_size = 1'000'000;
  static constexpr std::size_t max_key_size = 1024;
  static constexpr std::size_t max_string_size = 65536;
  // Members are recorded down to this depth (1: the top-level object's own members).
  static constexpr int kRecordedDepth = 3;

  ParsedBody* out = nullptr;
  int depth = 0;  // 1 inside the top-level object
  bool top_is_object = false;
  // The recorded objects enclosing the current value, outermost first: open[i] is the
  // member at depth i + 1 whose object is open. A member's object is opened only after
  // its siblings before it are complete, and its parent's `fields` (or out->members) do
  // not grow while it is open, so these pointers stay valid.
  BodyMember* open[kRecordedDepth - 1] = {};
  int open_count = 0;  // never more than depth - 1
  // Top-level members filled so far: out->members is reused from the request before
  // (thread_local in execute.cpp), so its elements keep their strings' capacity.
  std::size_t used = 0;
  BodyMember* current = nullptr;  // the member whose key came last
  std::string key;                // a key that arrived in parts (rare)
  std::string text;
  std::string number_text;
  std::string duplicate_key;

  // Inside the top-level object, with every enclosing container a recorded object (a
  // top-level array's items have no key and are not kept).
  bool recording() const {
    return top_is_object && depth >= 1 && depth <= kRecordedDepth && open_count == depth - 1;
  }

  // A key opens the member its value fills: a reused or new top-level one, or a field of
  // the innermost open object member.
  void claim_member(std::string_view name) {
    if (depth == 1) {
      for (std::size_t i = 0; i < used && duplicate_key.empty(); ++i)
        if (out->members[i].key == name) duplicate_key = name;
      if (used < out->members.size()) {
        current = &out->members[used];
        current->reset();
      } else {
        current = &out->members.emplace_back();
      }
      ++used;
    } else {
      BodyMember& parent = *open[open_count - 1];
      if (duplicate_key.empty())
        for (const auto& f : parent.fields)
          if (f.key == name) {
            for (int i = 0; i < open_count; ++i) duplicate_key += open[i]->key + ".";
            duplicate_key += name;
            break;
          }
      current = &parent.fields.emplace_back();
    }
    current->key.assign(name);
  }

  BodyMember& begin_member(BodyMember::Kind kind) {
    current->kind = kind;
    return *current;
  }

  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  bool on_array_begin(json::error_code&) {
    if (recording()) begin_member(BodyMember::Kind::Array);
    ++depth;
    return true;
  }
  bool on_array_end(std::size_t, json::error_code&) {
    --depth;
    return true;
  }
  bool on_object_begin(json::error_code&) {
    if (depth == 0) top_is_object = true;
    if (recording()) {
      begin_member(BodyMember::Kind::Object);
      if (depth < kRecordedDepth) open[open_count++] = current;
    }
    ++depth;
    return true;
  }
  bool on_object_end(std::size_t, json::error_code&) {
    --depth;
    // The object just closed began at this depth; it was opened above exactly when
    // open_count reached this depth then (open_count never exceeds depth - 1 otherwise).
    if (depth >= 1 && open_count == depth) --open_count;
    return true;
  }
  bool on_string_part(json::string_view s, std::size_t, json::error_code&) {
    if (recording()) text.append(s.data(), s.size());
    return true;
  }
  bool on_string(json::string_view s, std::size_t, json::error_code&) {
    if (recording()) {
      BodyMember& m = begin_member(BodyMember::Kind::String);
      if (text.empty()) {
        m.text.assign(s.data(), s.size());
      } else {
        text.append(s.data(), s.size());
        m.text.assign(text);
        text.clear();
      }
    }
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    if (recording()) key.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    if (recording()) {
      if (key.empty()) {
        claim_member({s.data(), s.size()});
      } else {
        key.append(s.data(), s.size());
        claim_member(key);
        key.clear();
      }
    }
    return true;
  }
  bool on_number_part(json::string_view s, json::error_code&) {
    if (recording()) number_text.append(s.data(), s.size());
    return true;
  }
  bool on_int64(int64_t i, json::string_view, json::error_code&) {
    number_text.clear();
    if (recording()) begin_member(BodyMember::Kind::Int).int_value = i;
    return true;
  }
  bool on_uint64(uint64_t u, json::string_view, json::error_code&) {
    number_text.clear();
    if (recording()) begin_member(BodyMember::Kind::Uint).uint_value = u;
    return true;
  }
  bool on_double(double d, json::string_view s, json::error_code&) {
    if (recording()) {
      // Boost.JSON 1.81's fast path can be one ulp off for 16–17 digit inputs; from_chars
      // is correctly rounded, so a value sent exactly at a bound compares exactly.
      number_text.append(s.data(), s.size());
      double exact = d;
      const char* first = number_text.data();
      const char* last = first + number_text.size();
      auto r = std::from_chars(first, last, exact);
      if (r.ec != std::errc() || r.ptr != last) exact = d;  // out of range: keep ±inf
      begin_member(BodyMember::Kind::Double).double_value = exact;
    }
    number_text.clear();
    return true;
  }
  bool on_bool(bool b, json::error_code&) {
    if (recording()) begin_member(BodyMember::Kind::Bool).boolean = b;
    return true;
  }
  bool on_null(json::error_code&) {
    if (recording()) begin_member(BodyMember::Kind::Null);
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

json::parse_options body_parse_options() {
  json::parse_options opt;
  opt.max_depth = 64;  // deep nesting is refused, not recursed into
  return opt;
}

}  // namespace

const char* kind_name(BodyMember::Kind kind) {
  switch (kind) {
    case BodyMember::Kind::Null:
      return "null";
    case BodyMember::Kind::Bool:
      return "a boolean";
    case BodyMember::Kind::Int:
    case BodyMember::Kind::Uint:
    case BodyMember::Kind::Double:
      return "a number";
    case BodyMember::Kind::String:
      return "a string";
    case BodyMember::Kind::Object:
      return "an object";
    case BodyMember::Kind::Array:
      return "an array";
  }
  return "a value";
}

bool parse_body(std::string_view body, ParsedBody& parsed, ApiError& error) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    parsed.members.clear();
    error = invalid_json("request body is empty; send a JSON object of the tool's inputs");
    return false;
  }
  json::basic_parser<BodyHandler> parser(body_parse_options());
  parser.handler().out = &parsed;
  json::error_code ec;
  const std::size_t used = parser.write_some(false, body.data(), body.size(), ec);
  parsed.members.resize(parser.handler().used);  // members of an earlier body go
  if (ec) {
    error = invalid_json(std::string("malformed JSON at byte ") + std::to_string(used) + ": " +
                         ec.message());
    return false;
  }
  if (body.substr(used).find_first_not_of(" \t\r\n") != std::string_view::npos) {
    error = invalid_json("unexpected data after the JSON object at byte " + std::to_string(used));
    return false;
  }
  if (!parser.handler().top_is_object) {
    error = invalid_json("request body must be a JSON object of the tool's inputs");
    return false;
  }
  if (!parser.handler().duplicate_key.empty()) {
    const auto& k = parser.handler().duplicate_key;
    error = validation_error(k, k + " appears more than once in the request body");
    return false;
  }
  return true;
}

}  // namespace toolcalc::catalog
