#include "catalog/json_body.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>
#include <charconv>
#include <cmath>
#include <memory>
#include <unordered_set>

namespace toolcalc::catalog {
namespace {

namespace json = boost::json;

// Comparisons and hash look-ups made to find repeated keys, on this thread.
thread_local std::uint64_t duplicate_steps = 0;

// The keys of one object seen so far, to refuse a repeated one in time linear in the
// object's size. While the object has few members a scan of the earlier keys (held by
// the caller) is the cheapest (the bodies execute gets: no allocation, a few
// comparisons); from kScanLimit members on, a hash set of the keys takes over, so that a
// body of thousands of distinct keys costs a constant amount per key, not one comparison
// per earlier key.
class SeenKeys {
 public:
  static constexpr std::size_t kScanLimit = 16;

  void clear() {
    if (hashing_) hashed_->clear();
    hashing_ = false;
  }

  // False when `key` is one of the `count` earlier keys; `earlier(i)` is the i-th. The
  // earlier keys include a repeated one: parsing goes on after a repeat (the first one is
  // reported), so the set is filled when `count` first reaches kScanLimit, whatever came
  // before.
  template <class Earlier>
  bool add(std::string_view key, std::size_t count, const Earlier& earlier) {
    if (!hashing_) {
      if (count < kScanLimit) [[likely]] {
        duplicate_steps += count;  // at most: a repeat ends the scan early
        for (std::size_t i = 0; i < count; ++i)
          if (earlier(i) == key) return false;
        return true;
      }
      if (!hashed_) hashed_ = std::make_unique<std::unordered_set<std::string>>();
      hashed_->reserve(4 * kScanLimit);
      for (std::size_t i = 0; i < count; ++i) hashed_->emplace(earlier(i));
      hashing_ = true;
    }
    ++duplicate_steps;
    return hashed_->emplace(key).second;
  }

 private:
  // Allocated only for an object of kScanLimit members or more, and kept for the next.
  std::unique_ptr<std::unordered_set<std::string>> hashed_;
  bool hashing_ = false;  // this object's keys are in hashed_
};

// The keys of objects whose members are not recorded (deeper than a handler keeps, or
// every object of a DOM): one level per open container, each with its own keys.
class KeyStack {
 public:
  // A container starts: a value of the enclosing array (if any), and a level of its own.
  void open(bool object) {
    next_item();
    if (depth_ == levels_.size()) levels_.emplace_back();
    Level& l = levels_[depth_++];
    l.object = object;
    l.keys.clear();
    l.seen.clear();
    l.items = 0;
  }
  void close() { --depth_; }
  // False when `key` repeats a key of the innermost open object.
  bool add(std::string_view key) {
    Level& l = levels_[depth_ - 1];
    const bool fresh = l.seen.add(key, l.keys.size(),
                                  [&](std::size_t i) -> std::string_view { return l.keys[i]; });
    l.keys.emplace_back(key);
    return fresh;
  }
  // A value of the innermost array starts (its index in a path).
  void next_item() {
    if (depth_ > 0 && !levels_[depth_ - 1].object) ++levels_[depth_ - 1].items;
  }
  // "a.b[2].c": where the innermost open object is, then `key`.
  std::string path_to(std::string_view key) const {
    std::string path;
    for (std::size_t d = 0; d + 1 < depth_; ++d) {
      const Level& l = levels_[d];
      if (l.object) {
        if (!path.empty()) path += '.';
        path += l.keys.back();
      } else {
        path += '[' + std::to_string(l.items - 1) + ']';
      }
    }
    if (!path.empty()) path += '.';
    path.append(key);
    return path;
  }

 private:
  struct Level {
    bool object = true;
    std::vector<std::string> keys;  // in order; the last one names the open member
    SeenKeys seen;
    std::size_t items = 0;  // arrays: values begun so far
  };
  std::vector<Level> levels_;
  std::size_t depth_ = 0;
};

// A number token as a double, correctly rounded: Boost.JSON 1.81's fast path can be one
// ulp off for 16–17 digit inputs, from_chars is not, so a value sent exactly at a bound
// compares exactly. A token past the double range stays ±inf (Boost.JSON's value), which
// the field's check refuses as "must be a finite number", naming the field.
double exact_double(double parsed, std::string_view token) {
  double exact = parsed;
  auto r = std::from_chars(token.data(), token.data() + token.size(), exact);
  if (r.ec != std::errc() || r.ptr != token.data() + token.size()) return parsed;
  return exact;
}

// The limits every body is parsed under, whoever reads it.
struct BodyLimits {
  static constexpr std::size_t max_object_size = 4096;
  static constexpr std::size_t max_array_size = 1'000'000;
  static constexpr std::size_t max_key_size = kMaxMemberNameBytes;
  static constexpr std::size_t max_string_size = 65536;
};

// SAX handler: collects top-level members and, for an object-valued member, that
// object's members, and for those that are objects their members in turn (depth 3: the
// analysis bodies' "tolerances":{"r1":{"pct":1}}); anything deeper is recorded by kind
// only. Values are recorded where `recording()` holds: every container between the top
// level and the value is a recorded object.
struct BodyHandler : BodyLimits {
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
  // The keys seen in the top-level object (seen[0]) and in each open recorded object
  // (seen[i]: open[i - 1]); their keys are the members' own.
  SeenKeys seen[kRecordedDepth];
  // Objects deeper than recorded: their keys are kept here only to refuse a repeated one.
  KeyStack deep;
  int deep_from = 0;  // depth of the outermost unrecorded container open (0: none)
  std::string deep_prefix;

  // Inside the top-level object, with every enclosing container a recorded object (a
  // top-level array's items have no key and are not kept).
  bool recording() const {
    return top_is_object && depth >= 1 && depth <= kRecordedDepth && open_count == depth - 1;
  }

  // A key opens the member its value fills: a reused or new top-level one, or a field of
  // the innermost open object member.
  void claim_member(std::string_view name) {
    if (depth == 1) {
      const auto& members = out->members;
      if (!seen[0].add(name, used,
                       [&](std::size_t i) -> std::string_view { return members[i].key; }) &&
          duplicate_key.empty())
        duplicate_key = name;
      if (used < out->members.size()) {
        current = &out->members[used];
        current->reset();
      } else {
        current = &out->members.emplace_back();
      }
      ++used;
    } else {
      BodyMember& parent = *open[open_count - 1];
      const auto& fields = parent.fields;
      if (!seen[open_count].add(name, fields.size(),
                                [&](std::size_t i) -> std::string_view { return fields[i].key; }) &&
          duplicate_key.empty()) {
        for (int i = 0; i < open_count; ++i) duplicate_key += open[i]->key + ".";
        duplicate_key += name;
      }
      current = &parent.fields.emplace_back();
    }
    current->key.assign(name);
  }

  // A key of an object below the recorded ones: checked for repeats only.
  void deep_key(std::string_view name) {
    if (!deep.add(name) && duplicate_key.empty()) {
      const std::string below = deep.path_to(name);
      duplicate_key = deep_prefix;
      if (!deep_prefix.empty() && below.front() != '[') duplicate_key += '.';
      duplicate_key += below;
    }
  }

  BodyMember& begin_member(BodyMember::Kind kind) {
    current->kind = kind;
    return *current;
  }

  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  // Containers below the recorded objects (or in an array) keep their keys in `deep`.
  void open_deep(bool object) {
    if (deep_from == 0) {
      deep_from = depth;
      // The recorded member this container is the value of ("" in a top-level array).
      deep_prefix.clear();
      if (recording()) {
        for (int i = 0; i < open_count; ++i) deep_prefix += open[i]->key + ".";
        deep_prefix += current->key;
      }
    }
    deep.open(object);
  }
  // A container closes (`depth` back to the one it opened at): true when it was below the
  // recorded objects.
  bool close_deep() {
    if (deep_from == 0) return false;
    deep.close();
    if (deep_from == depth) deep_from = 0;
    return true;
  }
  bool on_array_begin(json::error_code&) {
    if (recording()) begin_member(BodyMember::Kind::Array);
    if (depth >= 1) open_deep(false);
    ++depth;
    return true;
  }
  bool on_array_end(std::size_t, json::error_code&) {
    --depth;
    close_deep();
    return true;
  }
  bool on_object_begin(json::error_code&) {
    if (depth == 0) top_is_object = true;
    const bool recorded = recording();
    if (recorded) {
      begin_member(BodyMember::Kind::Object);
      if (depth < kRecordedDepth) {
        open[open_count++] = current;
        seen[open_count].clear();
      }
    }
    if (depth >= 1 && !(recorded && depth < kRecordedDepth)) open_deep(true);
    ++depth;
    return true;
  }
  bool on_object_end(std::size_t, json::error_code&) {
    --depth;
    if (close_deep()) return true;
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
    } else if (deep_from) {
      deep.next_item();
    }
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    if (recording() || deep_from) key.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    const bool recorded = recording();
    if (!recorded && !deep_from) return true;
    std::string_view name(s.data(), s.size());
    if (!key.empty()) {
      key.append(s.data(), s.size());
      name = key;
    }
    if (recorded)
      claim_member(name);
    else
      deep_key(name);
    key.clear();
    return true;
  }
  bool on_number_part(json::string_view s, json::error_code&) {
    if (recording()) number_text.append(s.data(), s.size());
    return true;
  }
  bool on_int64(int64_t i, json::string_view, json::error_code&) {
    number_text.clear();
    if (recording())
      begin_member(BodyMember::Kind::Int).int_value = i;
    else if (deep_from)
      deep.next_item();
    return true;
  }
  bool on_uint64(uint64_t u, json::string_view, json::error_code&) {
    number_text.clear();
    if (recording())
      begin_member(BodyMember::Kind::Uint).uint_value = u;
    else if (deep_from)
      deep.next_item();
    return true;
  }
  bool on_double(double d, json::string_view s, json::error_code&) {
    if (recording()) {
      number_text.append(s.data(), s.size());
      begin_member(BodyMember::Kind::Double).double_value = exact_double(d, number_text);
    } else if (deep_from) {
      deep.next_item();
    }
    number_text.clear();
    return true;
  }
  bool on_bool(bool b, json::error_code&) {
    if (recording())
      begin_member(BodyMember::Kind::Bool).boolean = b;
    else if (deep_from)
      deep.next_item();
    return true;
  }
  bool on_null(json::error_code&) {
    if (recording())
      begin_member(BodyMember::Kind::Null);
    else if (deep_from)
      deep.next_item();
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

// SAX handler building a DOM (boost::json::value_stack, as json::parse does) under the
// same rules as BodyHandler: every object's keys unique, at any depth, and numbers read
// by exact_double.
struct DomHandler : BodyLimits {
  json::value_stack values;
  KeyStack keys;
  std::string key;  // a key that arrived in parts (rare)
  std::string number_text;
  std::string duplicate_key;

  bool on_document_begin(json::error_code&) {
    values.reset();
    return true;
  }
  bool on_document_end(json::error_code&) { return true; }
  bool on_array_begin(json::error_code&) {
    keys.open(false);
    return true;
  }
  bool on_array_end(std::size_t n, json::error_code&) {
    keys.close();
    values.push_array(n);
    return true;
  }
  bool on_object_begin(json::error_code&) {
    keys.open(true);
    return true;
  }
  bool on_object_end(std::size_t n, json::error_code&) {
    keys.close();
    values.push_object(n);
    return true;
  }
  bool on_string_part(json::string_view s, std::size_t, json::error_code&) {
    values.push_chars(s);
    return true;
  }
  bool on_string(json::string_view s, std::size_t, json::error_code&) {
    keys.next_item();
    values.push_string(s);
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    values.push_chars(s);
    key.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    key.append(s.data(), s.size());
    if (!keys.add(key) && duplicate_key.empty()) duplicate_key = keys.path_to(key);
    key.clear();
    values.push_key(s);
    return true;
  }
  bool on_number_part(json::string_view s, json::error_code&) {
    number_text.append(s.data(), s.size());
    return true;
  }
  bool on_int64(int64_t i, json::string_view, json::error_code&) {
    number_text.clear();
    keys.next_item();
    values.push_int64(i);
    return true;
  }
  bool on_uint64(uint64_t u, json::string_view, json::error_code&) {
    number_text.clear();
    keys.next_item();
    values.push_uint64(u);
    return true;
  }
  bool on_double(double d, json::string_view s, json::error_code&) {
    number_text.append(s.data(), s.size());
    keys.next_item();
    values.push_double(exact_double(d, number_text));
    number_text.clear();
    return true;
  }
  bool on_bool(bool b, json::error_code&) {
    keys.next_item();
    values.push_bool(b);
    return true;
  }
  bool on_null(json::error_code&) {
    keys.next_item();
    values.push_null();
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

json::parse_options body_parse_options() {
  json::parse_options opt;
  opt.max_depth = kMaxJsonDepth;  // deep nesting is refused, not recursed into
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

namespace {

// The rules every body is read by, whatever it becomes: not empty, one JSON value with
// nothing after it, an object for a handler that records an object's members (its
// `top_is_object`; a DOM reader checks the value's kind itself, in its own protocol), no
// key repeated in any object. Returns false with `error` set; `handler` has seen the whole
// document when only a repeated key is wrong.
template <class Handler>
bool read_document(std::string_view body, json::basic_parser<Handler>& parser,
                   std::string_view object_of, ApiError& error) {
  constexpr bool object_only = requires(Handler h) {
    h.top_is_object;
  };
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    error = invalid_json("request body is empty; send a JSON object" + std::string(object_of));
    return false;
  }
  json::error_code ec;
  const std::size_t used = parser.write_some(false, body.data(), body.size(), ec);
  if (ec) {
    error = invalid_json(std::string("malformed JSON at byte ") + std::to_string(used) + ": " +
                         ec.message());
    return false;
  }
  if (body.substr(used).find_first_not_of(" \t\r\n") != std::string_view::npos) {
    error = invalid_json(std::string("unexpected data after the JSON ") +
                         (object_only ? "object" : "value") + " at byte " + std::to_string(used));
    return false;
  }
  if constexpr (object_only) {
    if (!parser.handler().top_is_object) {
      error = invalid_json("request body must be a JSON object" + std::string(object_of));
      return false;
    }
  }
  const std::string& k = parser.handler().duplicate_key;
  if (!k.empty()) {
    error = validation_error(k, k + " appears more than once in the request body");
    return false;
  }
  return true;
}

}  // namespace

bool parse_body(std::string_view body, ParsedBody& parsed, ApiError& error) {
  json::basic_parser<BodyHandler> parser(body_parse_options());
  parser.handler().out = &parsed;
  const bool ok = read_document(body, parser, " of the tool's inputs", error);
  parsed.members.resize(parser.handler().used);  // members of an earlier body go
  return ok;
}

bool parse_json(std::string_view body, boost::json::value& out, ApiError& error) {
  json::basic_parser<DomHandler> parser(body_parse_options());
  const bool ok = read_document(body, parser, "", error);
  if (parser.done()) out = parser.handler().values.release();
  return ok;
}

std::uint64_t duplicate_check_steps() {
  return duplicate_steps;
}

}  // namespace toolcalc::catalog
