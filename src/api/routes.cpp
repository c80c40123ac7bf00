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

// Literals a name may not be where it stands (reserve_literals); more would not fit.
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
  for (size_t i = 0; p.has_tail && i + 1 < p.count; ++i)
    if (p.segments[i].kind != SegmentKind::Literal)
      bad_pattern(e.path, "the segments before {operation} or a trailing '/' are literals");
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

// Patterns tried in turn, in the table's order.
struct PatternList {
  std::array<const Pattern*, kRouteKindCount> items{};
  size_t count = 0;
  void add(const Pattern* p) { items[count++] = p; }
};

// The patterns of one mount (the rows served at the root too, or the others): those
// without a tail by their number of segments, so that a path meets only the patterns of
// its length; then those with a tail, which are tried after every pattern without one (an
// exact path is preferred to a directory's file or an operation).
struct MountPatterns {
  std::array<PatternList, kMaxPathSegments + 1> exact;  // by segment count
  PatternList tails;
};

// The rows' patterns, compiled once.
struct RouteTable {
  std::array<Pattern, kRouteKindCount> all;
  MountPatterns root, base_only;

  RouteTable() {
    size_t n = 0;
    for (const Endpoint& e : kEndpoints)
      if (!e.path.empty()) all[n++] = compile_pattern(e);  // the unknown path has none
    for (size_t i = 0; i < n; ++i) reserve_literals(all[i], all, n);
    for (size_t i = 0; i < n; ++i) {
      MountPatterns& m = all[i].at_root ? root : base_only;
      if (all[i].has_tail)
        m.tails.add(&all[i]);
      else
        m.exact[all[i].count].add(&all[i]);
    }
  }
};

const RouteTable& route_table() {
  static const RouteTable table;
  return table;
}

// A pattern without a tail, of as many segments as the path.
bool match_exact(const Pattern& p, const Segments& parts, Route& route) {
  std::string_view domain, slug;
  for (size_t i = 0; i < p.count; ++i) {
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
  route.kind = p.kind;
  route.domain = domain;
  route.slug = slug;
  return true;
}

// A pattern with a tail: its literal segments, then the rest of the path.
bool match_tail(const Pattern& p, std::string_view path, const Segments& parts, Route& route) {
  const size_t fixed = p.count - 1;
  if (parts.count < p.count) return false;
  for (size_t i = 0; i < fixed; ++i)
    if (p.segments[i].kind != SegmentKind::Literal || parts.text[i] != p.segments[i].literal)
      return false;
  const std::string_view rest = path.substr(parts.start[fixed]);
  if (p.segments[fixed].kind == SegmentKind::Directory && !rest.empty() && !is_embedded_file(rest))
    return false;
  route.kind = p.kind;
  route.slug = rest;
  return true;
}

bool match_exact(const MountPatterns& m, const Segments& parts, Route& route) {
  if (parts.count > kMaxPathSegments) return false;
  const PatternList& list = m.exact[parts.count];
  for (size_t i = 0; i < list.count; ++i)
    if (match_exact(*list.items[i], parts, route)) return true;
  return false;
}

bool match_tail(const MountPatterns& m, std::string_view path, const Segments& parts,
                Route& route) {
  for (size_t i = 0; i < m.tails.count; ++i)
    if (match_tail(*m.tails.items[i], path, parts, route)) return true;
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

  // The rows served at the root as well (Mount::RootAndBasePath) at the path, then every row
  // under the base path; the patterns with a tail after all the others.
  const RouteTable& table = route_table();
  Segments parts;
  if (!split(path, parts)) return route;
  if (match_exact(table.root, parts, route)) return route;
  std::string_view under = path;  // the path under the base path
  Segments under_parts;
  const Segments* below = &parts;
  if (!base_path.empty()) {
    below = nullptr;
    if (path.substr(0, base_path.size()) == base_path) {
      under.remove_prefix(base_path.size());
      if (split(under, under_parts)) below = &under_parts;
    }
    if (below && match_exact(table.root, *below, route)) return route;
  }
  if (below && match_exact(table.base_only, *below, route)) return route;
  if (match_tail(table.root, path, parts, route)) return route;
  if (below && !base_path.empty() && match_tail(table.root, under, *below, route)) return route;
  if (below) match_tail(table.base_only, under, *below, route);
  return route;
}

std::string_view route_name(RouteKind kind) {
  return endpoint(kind).name;
}

std::string_view allowed_methods(RouteKind kind) {
  return endpoint(kind).methods;
}

}  // namespace toolcalc::api
