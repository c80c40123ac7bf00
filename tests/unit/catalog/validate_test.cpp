// Validation rules, on a descriptor that has every input type.
#include "catalog/validate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

using namespace toolcalc;
using namespace toolcalc::catalog;

namespace {

ToolDescriptor sample_tool() {
  ToolDescriptor t;
  t.slug = "sample";
  t.domain = "test";
  t.version = "1.0.0";
  InputDescriptor capacity;
  capacity.key = "battery_capacity_mah";
  capacity.type = InputType::Number;
  capacity.min = 100;
  capacity.max = 30000;
  capacity.default_value = 2000.0;
  InputDescriptor calls;
  calls.key = "calls_per_month";
  calls.type = InputType::Integer;
  calls.min = 1;
  calls.max = 1e9;
  calls.default_value = 100000.0;
  InputDescriptor model;
  model.key = "model";
  model.type = InputType::Enum;
  model.required = false;
  model.options = {"a", "b"};
  model.default_value = std::string("b");
  InputDescriptor batch;
  batch.key = "use_batch_api";
  batch.type = InputType::Boolean;
  batch.required = false;
  batch.default_value = false;
  InputDescriptor fraction;
  fraction.key = "cached_input_fraction";
  fraction.type = InputType::Number;
  fraction.required = false;
  fraction.min = 0;
  fraction.max = 1;
  fraction.default_value = 0.0;
  t.inputs = {capacity, calls, model, batch, fraction};
  return t;
}

struct Outcome {
  bool ok;
  Inputs inputs;
  ApiError error;
};

Outcome run(std::string_view body) {
  Outcome o{};
  ParsedBody parsed;
  if (!parse_body(body, parsed, o.error)) {
    o.ok = false;
    return o;
  }
  // Inputs refer to the descriptor's keys: the descriptor must outlive them.
  static const ToolDescriptor tool = sample_tool();
  o.ok = validate_inputs(parsed, tool, o.inputs, o.error);
  return o;
}

void expect_error(std::string_view body, const std::string& code, const std::string& field,
                  const std::string& message) {
  Outcome o = run(body);
  ASSERT_FALSE(o.ok) << body;
  EXPECT_EQ(o.error.status(), 400) << body;
  EXPECT_EQ(o.error.code_name(), code) << body;
  EXPECT_EQ(o.error.field, field) << body;
  EXPECT_EQ(o.error.message, message) << body;
}

}  // namespace

TEST(Validate, AcceptsValidInputAndFillsDefaults) {
  Outcome o = run(R"({"battery_capacity_mah": 2500.5, "calls_per_month": 3000})");
  ASSERT_TRUE(o.ok) << o.error.message;
  EXPECT_DOUBLE_EQ(o.inputs.number("battery_capacity_mah"), 2500.5);
  EXPECT_DOUBLE_EQ(o.inputs.number("calls_per_month"), 3000);
  EXPECT_EQ(o.inputs.enumeration("model"), "b");
  EXPECT_FALSE(o.inputs.boolean("use_batch_api"));
  EXPECT_DOUBLE_EQ(o.inputs.number("cached_input_fraction"), 0);
}

TEST(Validate, BoundsAreInclusive) {
  EXPECT_TRUE(run(R"({"battery_capacity_mah":100,"calls_per_month":1})").ok);
  EXPECT_TRUE(run(R"({"battery_capacity_mah":30000,"calls_per_month":1000000000})").ok);
  expect_error(R"({"battery_capacity_mah":99.999,"calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mah", "battery_capacity_mah must be at least 100");
  expect_error(R"({"battery_capacity_mah":30000.01,"calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mah", "battery_capacity_mah must be at most 30000");
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":1000000001})", "VALIDATION_ERROR",
               "calls_per_month", "calls_per_month must be at most 1000000000");
}

TEST(Validate, UnknownKeyIsRejectedWithSuggestion) {
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":1,"use_batch":true})",
               "VALIDATION_ERROR", "use_batch",
               "unknown input 'use_batch'; did you mean 'use_batch_api'?");
  expect_error(R"({"battery_capacity_mha":200,"calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mha",
               "unknown input 'battery_capacity_mha'; did you mean 'battery_capacity_mah'?");
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":1,"zzz":1})", "VALIDATION_ERROR",
               "zzz", "unknown input 'zzz'");
}

TEST(Validate, MissingRequiredIsNamed) {
  expect_error(R"({"calls_per_month":1})", "VALIDATION_ERROR", "battery_capacity_mah",
               "battery_capacity_mah is required");
}

TEST(Validate, FirstFailingInputInDescriptorOrderIsReported) {
  expect_error(R"({"use_batch_api":"yes","calls_per_month":0,"battery_capacity_mah":5})",
               "VALIDATION_ERROR", "battery_capacity_mah",
               "battery_capacity_mah must be at least 100");
}

TEST(Validate, TypesAreStrict) {
  expect_error(R"({"battery_capacity_mah":"2000","calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mah",
               "battery_capacity_mah must be a number, got a string (send numbers without quotes)");
  expect_error(R"({"battery_capacity_mah":true,"calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mah", "battery_capacity_mah must be a number, got a boolean");
  expect_error(R"({"battery_capacity_mah":null,"calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mah", "battery_capacity_mah must be a number, got null");
  expect_error(R"({"battery_capacity_mah":[1],"calls_per_month":1})", "VALIDATION_ERROR",
               "battery_capacity_mah", "battery_capacity_mah must be a number, got an array");
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":2.5})", "VALIDATION_ERROR",
               "calls_per_month", "calls_per_month must be an integer, got 2.5");
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":1,"model":"c"})",
               "VALIDATION_ERROR", "model", "model must be one of: a, b");
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":1,"use_batch_api":1})",
               "VALIDATION_ERROR", "use_batch_api",
               "use_batch_api must be true or false, got a number");
  expect_error(R"({"battery_capacity_mah":200,"calls_per_month":1,"use_batch_api":"true"})",
               "VALIDATION_ERROR", "use_batch_api",
               "use_batch_api must be true or false, got a string");
}

TEST(Validate, IntegralDoublesAreIntegers) {
  Outcome o = run(R"({"battery_capacity_mah":200,"calls_per_month":2e3})");
  ASSERT_TRUE(o.ok) << o.error.message;
  EXPECT_DOUBLE_EQ(o.inputs.number("calls_per_month"), 2000);
}

TEST(Validate, NegativeZeroIsZero) {
  Outcome o = run(R"({"battery_capacity_mah":200,"calls_per_month":1,"cached_input_fraction":-0})");
  ASSERT_TRUE(o.ok) << o.error.message;
  EXPECT_FALSE(std::signbit(o.inputs.number("cached_input_fraction")));
}

TEST(Validate, HugeNumbersAreNotFinite) {
  Outcome o = run(R"({"battery_capacity_mah":1e400,"calls_per_month":1})");
  ASSERT_FALSE(o.ok);
  EXPECT_EQ(o.error.status(), 400);
  EXPECT_EQ(o.error.field, "battery_capacity_mah");
}

TEST(ParseBody, RejectsWhatIsNotOneObject) {
  for (std::string_view body : {"", "   ", "[1,2]", "42", "\"x\"", "null", "{", "{\"a\":1}x",
                                "{\"a\":NaN}", "{\"a\":Infinity}", "{'a':1}"}) {
    ParsedBody parsed;
    ApiError error;
    EXPECT_FALSE(parse_body(body, parsed, error)) << body;
    EXPECT_EQ(error.code_name(), "INVALID_JSON") << body;
    EXPECT_EQ(error.status(), 400) << body;
    EXPECT_TRUE(error.field.empty()) << body;
  }
}

// parse_body reuses the members of the body parsed before (execute.cpp keeps one
// ParsedBody per thread): nothing of an earlier body may show through.
TEST(ParseBody, ReusedParsedBodyHoldsOnlyTheLatestBody) {
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(parse_body(R"({"a_rather_long_key_name":"a long string value here","n":1.5,)"
                         R"("flag":true})",
                         parsed, error));
  ASSERT_EQ(parsed.members.size(), 3u);
  ASSERT_TRUE(parse_body(R"({"inputs":{"x":2,"y_is_a_long_name":"s"},"k":null})", parsed, error));
  ASSERT_EQ(parsed.members.size(), 2u);
  EXPECT_EQ(parsed.members[0].key, "inputs");
  EXPECT_EQ(parsed.members[0].kind, BodyMember::Kind::Object);
  EXPECT_TRUE(parsed.members[0].text.empty());
  ASSERT_EQ(parsed.members[0].fields.size(), 2u);
  EXPECT_EQ(parsed.members[0].fields[1].key, "y_is_a_long_name");
  EXPECT_EQ(parsed.members[0].fields[1].text, "s");
  EXPECT_EQ(parsed.members[1].key, "k");
  EXPECT_EQ(parsed.members[1].kind, BodyMember::Kind::Null);
  EXPECT_FALSE(parsed.members[1].boolean);
  ASSERT_TRUE(parse_body(R"({"n":3,"a_rather_long_key_name":"v"})", parsed, error));
  ASSERT_EQ(parsed.members.size(), 2u);
  EXPECT_EQ(parsed.members[0].key, "n");
  EXPECT_EQ(parsed.members[0].kind, BodyMember::Kind::Int);
  EXPECT_EQ(parsed.members[0].int_value, 3);
  EXPECT_TRUE(parsed.members[0].fields.empty());
  EXPECT_EQ(parsed.members[1].key, "a_rather_long_key_name");
  EXPECT_EQ(parsed.members[1].text, "v");
  // A failed parse leaves no member of the one before behind either.
  EXPECT_FALSE(parse_body(R"({"n":1,"n":2})", parsed, error));
  EXPECT_FALSE(parse_body("[1,2]", parsed, error));
  EXPECT_TRUE(parsed.members.empty());
}

TEST(ParseBody, RejectsDuplicateKeys) {
  ParsedBody parsed;
  ApiError error;
  EXPECT_FALSE(parse_body(R"({"a":1,"b":2,"a":3})", parsed, error));
  EXPECT_EQ(error.code_name(), "VALIDATION_ERROR");
  EXPECT_EQ(error.field, "a");
  EXPECT_EQ(error.message, "a appears more than once in the request body");
}

TEST(ParseBody, RejectsDeepNestingAndInvalidUtf8) {
  std::string deep = "{\"a\":" + std::string(10000, '[') + std::string(10000, ']') + "}";
  ParsedBody parsed;
  ApiError error;
  EXPECT_FALSE(parse_body(deep, parsed, error));
  EXPECT_EQ(error.code_name(), "INVALID_JSON");
  EXPECT_FALSE(parse_body("{\"a\":\"\xff\xfe\"}", parsed, error));
  EXPECT_EQ(error.code_name(), "INVALID_JSON");
  EXPECT_FALSE(parse_body("{\"a\":\"line\nbreak\"}", parsed, error));  // raw control char
  EXPECT_EQ(error.code_name(), "INVALID_JSON");
}

TEST(ParseBody, KeepsNestedMembersAsTheirKind) {
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(
      parse_body(R"({"a":{"x":[1,{"y":2}]},"b":"t\u00e9xt","c":-3,"d":1.5})", parsed, error));
  ASSERT_EQ(parsed.members.size(), 4u);
  EXPECT_EQ(parsed.members[0].kind, BodyMember::Kind::Object);
  EXPECT_EQ(parsed.members[1].text, "t\xc3\xa9xt");
  EXPECT_EQ(parsed.members[2].kind, BodyMember::Kind::Int);
  EXPECT_EQ(parsed.members[2].int_value, -3);
  EXPECT_EQ(parsed.members[3].double_value, 1.5);
}

TEST(ParseBody, DoublesAreCorrectlyRounded) {
  // Boost.JSON 1.81 alone parses this one ulp off; strtod/from_chars do not.
  ParsedBody parsed;
  ApiError error;
  ASSERT_TRUE(parse_body(R"({"a":952.8311244248257,"b":0.1,"c":-1.5e-3})", parsed, error));
  EXPECT_EQ(parsed.members[0].double_value, std::strtod("952.8311244248257", nullptr));
  EXPECT_EQ(parsed.members[1].double_value, 0.1);
  EXPECT_EQ(parsed.members[2].double_value, -1.5e-3);
}
