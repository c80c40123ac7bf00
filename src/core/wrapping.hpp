#pragma once
// TOOLCALC_WRAPPING marks a function whose unsigned arithmetic wraps around on purpose:
// hashes and pseudo-random generators, where the result modulo 2^64 is the point. The
// fuzz build reports unsigned wrap-around everywhere else (-fsanitize=integer,
// fuzz/CMakeLists.txt), where it would be a defect. Clang only: no other compiler the
// project builds with has the check.
#if defined(__clang__)
#define TOOLCALC_WRAPPING __attribute__((no_sanitize("unsigned-integer-overflow")))
#else
#define TOOLCALC_WRAPPING
#endif
