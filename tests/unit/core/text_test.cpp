#include "core/text.hpp"

#include <gtest/gtest.h>

namespace toolcalc {
namespace {

TEST(Text, TrimRemovesOnlySpacesAndTabsAtTheEnds) {
  EXPECT_EQ(trim(" \t a b \t "), "a b");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim("\r\na\r\n"), "\r\na\r\n");  // CR and LF are not optional whitespace
}

TEST(Text, IequalsFoldsAsciiLettersOnly) {
  EXPECT_TRUE(iequals("Content-Length", "content-length"));
  EXPECT_TRUE(iequals("APPLICATION/JSON", "application/json"));
  EXPECT_FALSE(iequals("content-length", "content-lengt"));
  // '[' (0x5B) and '{' (0x7B) differ only in the case bit, but are not letters.
  EXPECT_FALSE(iequals("[", "{"));
  EXPECT_FALSE(iequals("\r", "-"));
  EXPECT_FALSE(iequals("\xC3\x89", "\xC3\xA9"));  // É and é: only ASCII folds
  EXPECT_EQ(ascii_lowercase("MiXeD-1"), "mixed-1");
}

}  // namespace
}  // namespace toolcalc
