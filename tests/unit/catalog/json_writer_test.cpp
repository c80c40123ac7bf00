#include "core/json_writer.hpp"

#include <gtest/gtest.h>

using toolcalc::append_json_string;

namespace {
std::string as_json(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}
}  // namespace

TEST(JsonString, CopiesPlainTextAndEscapesWhatJsonRequires) {
  EXPECT_EQ(as_json(""), R"("")");
  EXPECT_EQ(as_json("battery_capacity_mah"), R"("battery_capacity_mah")");
  EXPECT_EQ(as_json("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(as_json("l1\nl2\r\t"), R"("l1\nl2\r\t")");
  EXPECT_EQ(as_json(std::string("x\x01y\x1f", 4)), R"("x\u0001y\u001f")");
  EXPECT_EQ(as_json("end\""), R"("end\"")");
}

TEST(JsonString, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(as_json("25 \xc2\xb0""C, 5 \xce\xbc""A, \xf0\x9f\x94\x8b"),
            "\"25 \xc2\xb0""C, 5 \xce\xbc""A, \xf0\x9f\x94\x8b\"");
  EXPECT_EQ(as_json("a\xff" "b"), R"("a\ufffdb")");
  EXPECT_EQ(as_json("\xc0\xaf"), R"("\ufffd\ufffd")");          // overlong '/'
  EXPECT_EQ(as_json("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // UTF-16 surrogate
  EXPECT_EQ(as_json("\xe2\x82"), R"("\ufffd\ufffd")");          // truncated sequence
}
