#include "api/routes.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>

#include "api/endpoints.hpp"
#include "api/limits.hpp"
#include "api/static_assets.hpp"
#include "core/log.hpp"

namespace toolcalc::api {
namespace {

// The characters of a domain or slug: one table lookup each (every request has two).
// name_pattern() states the same set.
constexpr std::array<bool, 256> kNameChar = [] {
  std::array<bool, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<size_t>(c)] = true;
  for (int c = '0'; c <= '9'; ++c) t[static_cast<size_t>(c)] = true;
  t['-'] = t['_'] = t['.'] = true;
  return t;
}();

bool valid_name(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  for (char c : s)
    if (!kNameChar[static_cast<unsigned char>(c)]) return false;
  return true;
}

// A path's segments after its leading '/': "/v1/a/b" → "v1", "a", "b"; "/" → "". Up to
// kMaxPathSegments are kept, with where each starts (a tail segment takes the rest of the
// path from there); `count` goes on past them. Views into the target: no allocation.
struct Segments {
  std::array<std::string_view, kMaxPathSegments> text;
  std::array<size_t, kMaxPathSegments> start{};
  size_t count = 0;
};

// False when `path` does not start with '/' (no endpoint's path).
bool split(std::string_view path, Segments& out) {
  if (path.empty() || path.front() != '/') return false;
  size_t at = 1;
  for (;;) {
    const size_t slash = path.find('/', at);
    const size_t end = slash == std::string_view::npos ? path.size() : slash;
    if (out.count < kMaxPathSegments) {
      out.text[out.count] = path.substr(at, end - at);
      out.start[out.count] = at;
    }
    ++out.count;
    if (slash == std::string_view::npos) return true;
    at = slash + 1;
  }
}

// One segment of a row's path pattern (Endpoint::path), compiled once.
enum class SegmentKind : uint8_t {
  Literal,    // "v1", "tools": the segment itself
  Name,       // {domain}, {slug}: a name (valid_name), not one of `reserved`
  Rest,       // {operation}: the rest of the path, whatever it is (the admin API routes it)
  Directory,  // a pattern's trailing "/": "" (its page) or an embedded file's name below it
};

// Literals a name may not be where it stands (see reserved_literals); more would not fit.
constexpr size_t kMaxReserved = 4;

struct Segment {
  SegmentKind kind = SegmentKind::Literal;
  std::string_view literal;
  bool is_domain = false;  // a Name: {domain} (else {slug}, which Rest and Directory fill too)
  std::array<std::string_view, kMaxReserved> reserved;
  size_t reserved_count = 0;
};

struct Pattern {
  RouteKind kind = RouteKind::NotFound;
  std::string_view path;  // the row's
  bool at_root = false;   // Mount::RootAndBasePath
  bool has_tail = false;  // the last segment is Rest or Directory
  size_t count = 0;
  std::array<Segment, kMaxPathSegments> segments;
};

[[noreturn]] void bad_pattern(std::string_view path, std::string_view why) {
  log::error("endpoint path pattern not understood", {{"path", path}, {"error", why}});
  std::abort();
}

Pattern compile_pattern(const Endpoint& e) {
  Pattern p;
  p.kind = e.kind;
  p.path = e.path;
  p.at_root = e.mount == Mount::RootAndBasePath;
  Segments parts;
  if (!split(e.path, parts) || parts.count > kMaxPathSegments)
    bad_pattern(e.path, "a path starts with '/' and has at most kMaxPathSegments segments");
  p.count = parts.count;
  for (size_t i = 0; i < p.count; ++i) {
    Segment& s = p.segments[i];
    const std::string_view text = parts.text[i];
    const bool last = i + 1 == p.count;
    if (text == "{domain}" || text == "{slug}") {
      s.kind = SegmentKind::Name;
      s.is_domain = text == "{domain}";
    } else if (text == "{operation}" && last) {
      s.kind = SegmentKind::Rest;
    } else if (text.empty() && last) {
      s.kind = SegmentKind::Directory;
    } else if (text.empty() || text.front() == '{') {
      bad_pattern(e.path, "a segment is a literal, {domain}, {slug}, or last {operation} or ''");
    } else {
      s.literal = text;
    }
  }
  p.has_tail = p.count > 0 && (p.segments[p.count - 1].kind == SegmentKind::Rest ||
                               p.segments[p.count - 1].kind == SegmentKind::Directory);
  return p;
}

// Whether segment i of `a` and of `b` stand for the same texts' kind: equal literals, or
// names both.
bool same_place(const Segment& a, const Segment& b) {
  if (a.kind != b.kind) return false;
  return a.kind != SegmentKind::Literal || a.literal == b.literal;
}

// A literal that leads on to more segments takes its place from a name: /v1/tools/{slug}
// makes "tools" no {domain} of /v1/{domain}/{slug} (nor of …/schema), so that /v1/tools/x
// is the tool x and /v1/tools/x/schema no path. A literal that ends a path does not
// (/v1/me/x is the tool x of the domain me).
void reserve_literals(Pattern& p, const std::array<Pattern, kRouteKindCount>& all, size_t n) {
  for (size_t i = 0; i < p.count; ++i) {
    Segment& s = p.segments[i];
    if (s.kind != SegmentKind::Name) continue;
    for (size_t k = 0; k < n; ++k) {
      const Pattern& q = all[k];
      if (q.count <= i + 1 || q.segments[i].kind != SegmentKind::Literal) continue;
      bool same_prefix = true;
      for (size_t j = 0; j < i && same_prefix; ++j)
        same_prefix = same_place(p.segments[j], q.segments[j]);
      if (!same_prefix) continue;
      bool known = false;
      for (size_t r = 0; r < s.reserved_count; ++r)
        known = known || s.reserved[r] == q.segments[i].literal;
      if (known) continue;
      if (s.reserved_count == kMaxReserved) bad_pattern(p.path, "too many literals beside a name");
      s.reserved[s.reserved_count++] = q.segments[i].literal;
    }
  }
}

// The rows' patterns, compiled once, in the order they are tried: those without a tail
// first (an exact path is preferred to a directory's file or an operation), each group in
// the table's order. `root`: the rows served at the root too; `base_only`: the others.
struct RouteTable {
  std::array<Pattern, kRouteKindCount> all;
  size_t all_count = 0;
  std::array<const Pattern*, kRouteKindCount> root{}, base_only{};
  size_t root_count = 0, base_only_count = 0;

  RouteTable() {
    std::array<Pattern, kRouteKindCount> compiled;
    size_t n = 0;
    for (const Endpoint& e : kEndpoints)
      if (!e.path.empty()) compiled[n++] = compile_pattern(e);  // the unknown path has none
    for (size_t i = 0; i < n; ++i) reserve_literals(compiled[i], compiled, n);
    for (bool tail : {false, true})
      for (size_t i = 0; i < n; ++i)
        if (compiled[i].has_tail == tail) all[all_count++] = compiled[i];
    for (size_t i = 0; i < all_count; ++i) {
      if (all[i].at_root)
        root[root_count++] = &all[i];
      else
        base_only[base_only_count++] = &all[i];
    }
  }
};

const RouteTable& route_table() {
  static const RouteTable table;
  return table;
}

bool matches(const Pattern& p, std::string_view path, const Segments& parts, Route& route) {
  const size_t fixed = p.has_tail ? p.count - 1 : p.count;
  if (p.has_tail ? parts.count < p.count : parts.count != p.count) return false;
  std::string_view domain, slug;
  for (size_t i = 0; i < fixed; ++i) {
    const Segment& s = p.segments[i];
    const std::string_view text = parts.text[i];
    if (s.kind == SegmentKind::Literal) {
      if (text != s.literal) return false;
      continue;
    }
    if (!valid_name(text)) return false;
    for (size_t r = 0; r < s.reserved_count; ++r)
      if (text == s.reserved[r]) return false;
    (s.is_domain ? domain : slug) = text;
  }
  if (p.has_tail) {
    const std::string_view rest = path.substr(parts.start[fixed]);
    if (p.segments[fixed].kind == SegmentKind::Directory && !rest.empty() &&
        !is_embedded_file(rest))
      return false;
    slug = rest;
  }
  route.kind = p.kind;
  route.domain = domain;
  route.slug = slug;
  return true;
}

// The first of `patterns` that matches `path`, split into `parts`.
bool match_any(const Pattern* const* patterns, size_t count, std::string_view path,
               const Segments& parts, Route& route) {
  for (size_t i = 0; i < count; ++i)
    if (matches(*patterns[i], path, parts, route)) return true;
  return false;
}

}  // namespace

std::string name_pattern() {
  return "^[a-z0-9._-]{1," + std::to_string(kMaxNameLength) + "}$";
}

Route match_route(std::string_view target, std::string_view base_path) {
  Route route;
  const size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  if (q != std::string_view::npos) route.query = target.substr(q + 1);

  // The rows served at the root as well (Mount::RootAndBasePath), then every row under the
  // base path.
  const RouteTable& table = route_table();
  Segments parts;
  if (!split(path, parts)) return route;
  if (match_any(table.root.data(), table.root_count, path, parts, route)) return route;
  if (base_path.empty()) {
    match_any(table.base_only.data(), table.base_only_count, path, parts, route);
    return route;
  }
  if (path.substr(0, base_path.size()) != base_path) return route;
  path.remove_prefix(base_path.size());
  Segments under_base;
  if (!split(path, under_base)) return route;
  if (match_any(table.root.data(), table.root_count, path, under_base, route)) return route;
  match_any(table.base_only.data(), table.base_only_count, path, under_base, route);
  return route;
}

std::string_view route_name(RouteKind kind) {
  return endpoint(kind).name;
}

std::string_view allowed_methods(RouteKind kind) {
  return endpoint(kind).methods;
}

}  // namespace toolcalc::api
