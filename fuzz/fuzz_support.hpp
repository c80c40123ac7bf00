#pragma once
// Checks shared by the fuzz targets. A failed check prints what was wrong and aborts, which
// libFuzzer reports as a crash and saves the input (docs/reliability.md "Fuzzing").
#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/decimal.hpp"

namespace toolcalc::fuzz {

[[noreturn]] inline void fail(std::string_view what, std::string_view text) {
  const size_t shown = std::min<size_t>(text.size(), 4096);
  std::fprintf(stderr, "\n==fuzz check failed: %.*s\n--- text (%zu bytes) ---\n%.*s\n---\n",
               static_cast<int>(what.size()), what.data(), text.size(), static_cast<int>(shown),
               text.data());
  std::abort();
}

// `text` must be one strict JSON document (RFC 8259: valid UTF-8, no NaN/Infinity, no
// comments) with plain-decimal numbers. Returns the parsed value for further checks.
inline boost::json::value check_json(std::string_view text, std::string_view what) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec) fail(std::string(what) + ": not valid JSON (" + ec.message() + ")", text);
  if (toolcalc::has_exponent_number(text))
    fail(std::string(what) + ": number in exponent form", text);
  return v;
}

// A scratch directory for one fuzzing process, removed at exit. Heap-held and never
// destroyed, so that the exit handler cannot run after the path's destructor.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path* dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "toolcalc-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    auto* path = new std::filesystem::path(pattern);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return path;
  }();
  return *dir;
}

}  // namespace toolcalc::fuzz
