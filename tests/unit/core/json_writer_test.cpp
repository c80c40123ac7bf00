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
  EXPECT_EQ(as_json("25 \xc2\xb0"
                    "C, 5 \xce\xbc"
                    "A, \xf0\x9f\x94\x8b"),
            "\"25 \xc2\xb0"
            "C, 5 \xce\xbc"
            "A, \xf0\x9f\x94\x8b\"");
  EXPECT_EQ(as_json("a\xff"
                    "b"),
            R"("a\ufffdb")");
  EXPECT_EQ(as_json("\xc0\xaf"), R"("\ufffd\ufffd")");            // overlong '/'
  EXPECT_EQ(as_json("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // UTF-16 surrogate
  EXPECT_EQ(as_json("\xe2\x82"), R"("\ufffd\ufffd")");            // truncated sequence
}

// Long strings take the 16-bytes-at-a-time scan: a byte that needs escaping (or is not
// ASCII) must be found at every position of a block, and in the tail after the blocks.
TEST(JsonString, FindsEveryEscapeAtEveryPositionOfALongString) {
  const std::pair<std::string, std::string> specials[] = {
      {"\"", "\\\""},           {"\\", "\\\\"},      {"\n", "\\n"},
      {"\x01", "\\u0001"},      {"\x1f", "\\u001f"}, {"\x7f", "\x7f"},
      {"\xc3\xa9", "\xc3\xa9"}, {"\xff", "\\ufffd"}};
  const std::string plain = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLM";  // 49
  for (size_t at = 0; at <= plain.size(); ++at)
    for (const auto& [raw, escaped] : specials) {
      const std::string input = plain.substr(0, at) + raw + plain.substr(at);
      const std::string expected = "\"" + plain.substr(0, at) + escaped + plain.substr(at) + "\"";
      ASSERT_EQ(as_json(input), expected) << "at " << at << " byte " << int(uint8_t(raw[0]));
    }
  EXPECT_EQ(as_json(plain), "\"" + plain + "\"");
}

// A pre-rendered member writes what plain_key writes, its comma only after a value.
TEST(JsonWriter, MemberTextWritesWhatPlainKeyWrites) {
  std::string by_member, by_key;
  toolcalc::JsonWriter m(by_member), k(by_key);
  const std::string first = toolcalc::member_text("voltage_v");
  const std::string second = toolcalc::member_text("n");
  EXPECT_EQ(first, R"(,"voltage_v":)");
  m.begin_object().member(first).integer(5).member(second).begin_object().member(second);
  m.boolean(true).end_object().end_object();
  k.begin_object().plain_key("voltage_v").integer(5).plain_key("n").begin_object().plain_key("n");
  k.boolean(true).end_object().end_object();
  EXPECT_EQ(by_member, R"({"voltage_v":5,"n":{"n":true}})");
  EXPECT_EQ(by_member, by_key);
}
