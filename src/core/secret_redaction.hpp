#pragma once
// API keys (`tc_live_` or `tc_test_` and base62 characters) found in text that is logged
// or echoed back: the access log's path, the operational log's fields, error messages that
// quote a path or a member. A key is kept to its 12-character prefix (what `toolcalc keys
// list` shows) and the rest becomes "[redacted]", however the text spells it: as it is, or
// percent-encoded in any part, with either case of hex digit (`tc%5Flive%5f…`), or encoded
// again up to kMaxPercentLayers times (`tc%255Flive…`). The text keeps its own spelling
// around the redaction. `+` is not decoded: it is a space only in form-encoded query
// strings, which are never logged, and neither a space nor `+` is in a key's alphabet.
#include <cstddef>
#include <string>
#include <string_view>

namespace toolcalc {

inline constexpr int kMaxPercentLayers = 4;

// True when `text` holds a key: `out` is then `text` with each key redacted. False (and
// `out` untouched) otherwise, the common case, decided by two scans for "tc_" and '%'.
bool redact_keys(std::string_view text, std::string& out);

// `text`, or its redacted copy kept in `scratch`.
inline std::string_view without_keys(std::string_view text, std::string& scratch) {
  return redact_keys(text, scratch) ? std::string_view(scratch) : text;
}

}  // namespace toolcalc
