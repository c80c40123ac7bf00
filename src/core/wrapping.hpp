#pragma once
// TOOLCALC_WRAPPING marks a function whose unsigned arithmetic wraps around on purpose:
// hashes and pseudo-random generators, where the result modulo 2^64 is the point, masks
// made as 0 − bool, and left shifts that drop high bits on purpose (rotations). The fuzz build
// reports unsigned wrap-around and such shifts everywhere else (-fsanitize=integer,
// fuzz/CMakeLists.txt), where they would be defects. Clang only: no other compiler the project
// builds with has the checks.
#if defined(__clang__)
#define TOOLCALC_WRAPPING \
  __attribute__((no_sanitize("unsigned-integer-overflow", "unsigned-shift-base")))
#else
#define TOOLCALC_WRAPPING
#endif
