#include "api/query.hpp"

#include <boost/url/params_view.hpp>
#include <boost/url/parse_query.hpp>
#include <charconv>
#include <set>

#include "api/limits.hpp"

namespace toolcalc::api {
namespace {

// A decimal integer from `min` to `max`; anything else (a sign other than '-', spaces,
// digits past int64_t) is refused before any arithmetic uses it.
bool parse_bounded(const std::string& s, int64_t min, int64_t max, int64_t& out) {
  int64_t value = 0;
  if (s.empty() || s.size() > 18) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), value);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || value < min || value > max)
    return false;
  out = value;
  return true;
}

}  // namespace

bool parse_tools_query(std::string_view query_view, ToolsQuery& out, ApiError& error) {
  if (query_view.empty()) return true;
  // Boost.URL 1.81's parse_query measures its argument with strlen (boostorg/url#757): it
  // must get a NUL-terminated copy, not a view into the request target.
  const std::string query(query_view);
  auto parsed = boost::urls::parse_query(query);
  if (!parsed) {
    error = {ErrorCode::ValidationError, "malformed query string", {}};
    return false;
  }
  boost::urls::encoding_opts opt;
  opt.space_as_plus = true;
  std::set<std::string> seen;
  for (const auto& p : boost::urls::params_view(query, opt)) {
    if (p.key.empty() && !p.has_value) continue;  // stray '&'
    if (!seen.insert(p.key).second) {
      error = validation_error(p.key, p.key + " is given more than once");
      return false;
    }
    if (p.key == "domain") {
      out.domain = p.value;
    } else if (p.key == "page") {
      if (!parse_bounded(p.value, 1, kMaxPage, out.page)) {
        error = validation_error("page",
                                 "page must be an integer from 1 to " + std::to_string(kMaxPage));
        return false;
      }
    } else if (p.key == "limit") {
      if (!parse_bounded(p.value, 1, kMaxPageSize, out.limit)) {
        error = validation_error(
            "limit", "limit must be an integer from 1 to " + std::to_string(kMaxPageSize));
        return false;
      }
    } else {
      error = validation_error(
          p.key, "unknown query parameter '" + p.key + "' (expected domain, page, limit)");
      return false;
    }
  }
  return true;
}

}  // namespace toolcalc::api
