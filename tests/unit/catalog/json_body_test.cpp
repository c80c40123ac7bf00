// The SAX body parser's nested members, two levels below the top (the sweep body
// {"inputs":{…},"vary":{…}} and the tolerance body {"tolerances":{"r1":{"pct":1}}}), with
// duplicate keys refused at those levels too.
#include "catalog/json_body.hpp"

#include <gtest/gtest.h>

using namespace toolcalc;
using namespace toolcalc::catalog;

namespace {

const BodyMember* field(const BodyMember& parent, std::string_view key) {
  for (const auto& f : parent.fields)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace

TEST(JsonBody, ObjectMemberRecordsItsOwnMembersInOrder) {
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(parse_body(
      R"({"inputs":{"r1":10000,"r2":4.7e3,"mode":"x","on":true,"none":null,"big":18446744073709551615},)"
      R"("vary":{"key":"vin","from":-1.5,"to":12,"points":5},"flat":3})",
      parsed, error))
      << error.message;
  ASSERT_EQ(parsed.members.size(), 3u);
  const BodyMember& inputs = parsed.members[0];
  EXPECT_EQ(inputs.key, "inputs");
  EXPECT_EQ(inputs.kind, BodyMember::Kind::Object);
  ASSERT_EQ(inputs.fields.size(), 6u);
  EXPECT_EQ(inputs.fields[0].key, "r1");
  EXPECT_EQ(inputs.fields[0].kind, BodyMember::Kind::Int);
  EXPECT_EQ(inputs.fields[0].int_value, 10000);
  EXPECT_EQ(inputs.fields[1].kind, BodyMember::Kind::Double);
  EXPECT_EQ(inputs.fields[1].double_value, 4700.0);
  EXPECT_EQ(inputs.fields[2].text, "x");
  EXPECT_TRUE(inputs.fields[3].boolean);
  EXPECT_EQ(inputs.fields[4].kind, BodyMember::Kind::Null);
  EXPECT_EQ(inputs.fields[5].kind, BodyMember::Kind::Uint);
  EXPECT_EQ(inputs.fields[5].uint_value, 18446744073709551615u);

  const BodyMember& vary = parsed.members[1];
  ASSERT_EQ(vary.fields.size(), 4u);
  EXPECT_EQ(field(vary, "key")->text, "vin");
  EXPECT_EQ(field(vary, "from")->double_value, -1.5);
  EXPECT_EQ(field(vary, "to")->int_value, 12);
  EXPECT_EQ(field(vary, "points")->int_value, 5);
  EXPECT_EQ(parsed.members[2].key, "flat");
  EXPECT_EQ(parsed.members[2].int_value, 3);
  EXPECT_TRUE(parsed.members[2].fields.empty());
}

TEST(JsonBody, DeeperValuesAreRecordedByKindOnly) {
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(parse_body(
      R"({"a":{"o":{"deep":1,"x":{"d4":1,"d4":2}},"l":[1,{"x":1}],"s":"t"},"b":[{"y":1}]})", parsed,
      error))
      << error.message;  // a duplicate three levels down is not this parser's concern
  ASSERT_EQ(parsed.members.size(), 2u);
  const BodyMember& a = parsed.members[0];
  ASSERT_EQ(a.fields.size(), 3u);
  EXPECT_EQ(a.fields[0].kind, BodyMember::Kind::Object);
  ASSERT_EQ(a.fields[0].fields.size(), 2u);  // depth 3: recorded
  EXPECT_EQ(a.fields[0].fields[0].key, "deep");
  EXPECT_EQ(a.fields[0].fields[0].int_value, 1);
  EXPECT_EQ(a.fields[0].fields[1].kind, BodyMember::Kind::Object);
  EXPECT_TRUE(a.fields[0].fields[1].fields.empty());  // depth 4: by kind only
  EXPECT_EQ(a.fields[1].kind, BodyMember::Kind::Array);
  EXPECT_TRUE(a.fields[1].fields.empty());
  EXPECT_EQ(a.fields[2].text, "t");
  // Objects inside a top-level array are not members of anything.
  EXPECT_EQ(parsed.members[1].kind, BodyMember::Kind::Array);
  EXPECT_TRUE(parsed.members[1].fields.empty());
}

TEST(JsonBody, ThirdLevelMembersAfterASiblingObject) {
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(parse_body(R"({"t":{"r1":{"pct":1,"distribution":"uniform"},"r2":{"min":1,"max":2}},)"
                         R"("inputs":{"r1":5}})",
                         parsed, error))
      << error.message;
  ASSERT_EQ(parsed.members.size(), 2u);
  const BodyMember& t = parsed.members[0];
  ASSERT_EQ(t.fields.size(), 2u);
  ASSERT_EQ(t.fields[0].fields.size(), 2u);
  EXPECT_EQ(t.fields[0].fields[1].text, "uniform");
  ASSERT_EQ(t.fields[1].fields.size(), 2u);
  EXPECT_EQ(t.fields[1].fields[1].key, "max");
  EXPECT_EQ(t.fields[1].fields[1].int_value, 2);
  ASSERT_EQ(parsed.members[1].fields.size(), 1u);
  EXPECT_EQ(parsed.members[1].fields[0].int_value, 5);
}

TEST(JsonBody, DuplicateNestedKeyIsNamedWithItsParent) {
  ParsedBody parsed;
  ApiError error;
  EXPECT_FALSE(parse_body(R"({"inputs":{"x":1,"y":2,"x":3},"vary":{}})", parsed, error));
  EXPECT_EQ(error.status(), 400);
  EXPECT_EQ(error.code_name(), "VALIDATION_ERROR");
  EXPECT_EQ(error.field, "inputs.x");
  EXPECT_NE(error.message.find("inputs.x"), std::string::npos) << error.message;

  EXPECT_FALSE(parse_body(R"({"vary":{"points":2,"points":3}})", parsed, error));
  EXPECT_EQ(error.field, "vary.points");
  // The same key in two different objects is no duplicate.
  EXPECT_TRUE(parse_body(R"({"inputs":{"key":1},"vary":{"key":"key"}})", parsed, error));
  // Two levels down, named with both parents.
  EXPECT_FALSE(parse_body(R"({"tolerances":{"r1":{"pct":1,"pct":2}}})", parsed, error));
  EXPECT_EQ(error.field, "tolerances.r1.pct");
  EXPECT_FALSE(parse_body(R"({"tolerances":{"r1":{"pct":1},"r1":{"abs":2}}})", parsed, error));
  EXPECT_EQ(error.field, "tolerances.r1");
  // The first duplicate found is reported, top level or nested.
  EXPECT_FALSE(parse_body(R"({"a":1,"inputs":{"z":1,"z":2},"a":2})", parsed, error));
  EXPECT_EQ(error.field, "inputs.z");
}

TEST(JsonBody, ReusedBodyForgetsEarlierFields) {
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(parse_body(R"({"inputs":{"a":1,"b":2}})", parsed, error));
  ASSERT_TRUE(parse_body(R"({"inputs":{}})", parsed, error));
  ASSERT_EQ(parsed.members.size(), 1u);
  EXPECT_EQ(parsed.members[0].kind, BodyMember::Kind::Object);
  EXPECT_TRUE(parsed.members[0].fields.empty());
  ASSERT_TRUE(parse_body(R"({"a":1})", parsed, error));
  EXPECT_TRUE(parsed.members[0].fields.empty());
}
