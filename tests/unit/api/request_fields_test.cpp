// The pieces the sweep, solve and tolerance request parsers share (api/request_fields.hpp):
// each refusal word for word, since the three endpoints answer with them (docs/api.md).
#include "api/request_fields.hpp"

#include <gtest/gtest.h>

#include "catalog/descriptor_builder.hpp"

using namespace toolcalc;
using namespace toolcalc::catalog;
namespace fields = toolcalc::api::fields;

namespace {

ToolDescriptor demo_tool() {
  ToolDescriptor t;
  t.slug = "demo";
  t.inputs = {number_input({.key = "vin_v",
                            .label = "Vin",
                            .unit = "V",
                            .help = "",
                            .min = 0,
                            .max = 100,
                            .step = 1,
                            .default_value = 5}),
              choice_input({.key = "mode",
                            .label = "Mode",
                            .help = "",
                            .options = {"a", "b"},
                            .default_value = "a"}),
              integer_input({.key = "n",
                             .label = "N",
                             .unit = "",
                             .help = "",
                             .min = 1,
                             .max = 10,
                             .step = 1,
                             .default_value = 2})};
  t.outputs = {number_output({.key = "vout_v", .label = "Vout", .unit = "V", .precision = 3}),
               text_output({.key = "status", .label = "Status"}),
               number_output({.key = "i_a", .label = "I", .unit = "A", .precision = 3})};
  return t;
}

// The members of a JSON object, parsed as a request body is.
std::vector<BodyMember> members_of(std::string_view json) {
  ParsedBody body;
  ApiError error;
  EXPECT_TRUE(parse_body(json, body, error)) << error.message;
  return body.members;
}

}  // namespace

TEST(RequestFields, KeyListsNameTheNumericInputsAndTheNumberOutputs) {
  const ToolDescriptor t = demo_tool();
  EXPECT_EQ(fields::numeric_input_keys(t), "vin_v, n");
  EXPECT_EQ(fields::numeric_output_keys(t), "vout_v, i_a");
}

TEST(RequestFields, ANumericInputIsNamedByItsKey) {
  const ToolDescriptor t = demo_tool();
  size_t index = 99;
  ApiError error;
  const auto m = members_of(R"({"vary":"n"})");
  ASSERT_TRUE(fields::numeric_input_named(t, &m[0], "vary", "solve for", index, error));
  EXPECT_EQ(index, 2u);

  EXPECT_FALSE(fields::numeric_input_named(t, nullptr, "vary.key", "vary", index, error));
  EXPECT_EQ(error.field, "vary.key");
  EXPECT_EQ(error.message, "vary.key is required: the numeric input to vary (vin_v, n)");

  const auto choice = members_of(R"({"vary":"mode"})");
  EXPECT_FALSE(fields::numeric_input_named(t, &choice[0], "vary", "solve for", index, error));
  EXPECT_EQ(error.field, "vary");
  EXPECT_EQ(error.message,
            "vary 'mode' is not a numeric input of demo; solve for one of: vin_v, n");

  const auto number = members_of(R"({"key":3})");
  EXPECT_FALSE(fields::numeric_input_named(t, &number[0], "vary.key", "vary", index, error));
  EXPECT_EQ(error.message, "vary.key must be a string, got a number; vary one of: vin_v, n");
}

TEST(RequestFields, ANumberOutputIsNamedByItsKey) {
  const ToolDescriptor t = demo_tool();
  size_t index = 99;
  ApiError error;
  const auto m = members_of(R"({"output":"i_a"})");
  ASSERT_TRUE(fields::number_output_named(t, &m[0], "target.output", "reach", index, error));
  EXPECT_EQ(index, 2u);

  EXPECT_FALSE(fields::number_output_named(t, nullptr, "target.output", "reach", index, error));
  EXPECT_EQ(error.field, "target.output");
  EXPECT_EQ(error.message, "target.output is required: the number output to reach (vout_v, i_a)");

  const auto text = members_of(R"({"output":"status"})");
  EXPECT_FALSE(fields::number_output_named(t, &text[0], "target.output", "reach", index, error));
  EXPECT_EQ(error.message,
            "target.output 'status' is not a number output of demo; reach one of: vout_v, i_a");
}

TEST(RequestFields, ABodyHasOnlyTheMembersItAllows) {
  ApiError error;
  const ParsedBody* body =
      fields::parse_body_of(R"({"vary":{},"inputs":{"x":1}})", {"inputs", "vary"}, "-", error);
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->members.size(), 2u);

  EXPECT_EQ(fields::parse_body_of(R"({"inputs":{},"colour":1})", {"inputs", "vary"},
                                  "a sweep body has only 'inputs' and 'vary'", error),
            nullptr);
  EXPECT_EQ(error.field, "colour");
  EXPECT_EQ(error.message, "unknown member 'colour'; a sweep body has only 'inputs' and 'vary'");

  EXPECT_EQ(fields::parse_body_of("[1]", {"inputs"}, "-", error), nullptr);
  EXPECT_EQ(error.code, ErrorCode::InvalidJson);

  const auto vary = members_of(R"({"vary":{"key":"a","step":1}})");
  EXPECT_FALSE(fields::only_members(vary[0], "vary", {"key", "from", "to", "points"},
                                    "key, from, to and points", error));
  EXPECT_EQ(error.field, "vary.step");
  EXPECT_EQ(error.message, "unknown member 'vary.step'; vary has key, from, to and points");
}

TEST(RequestFields, InputsAreAnObjectValidatedUnderInputs) {
  const ToolDescriptor t = demo_tool();
  ApiError error;
  ParsedBody inputs;
  EXPECT_FALSE(fields::read_inputs(members_of(R"({"inputs":[1]})"), inputs, error));
  EXPECT_EQ(error.field, "inputs");
  EXPECT_EQ(error.message, "inputs must be an object of the tool's inputs, got an array");

  inputs.members = members_of(R"({"stale":1})");
  ASSERT_TRUE(fields::read_inputs(members_of(R"({"vary":"n"})"), inputs, error));
  EXPECT_TRUE(inputs.members.empty());  // absent: {}

  ASSERT_TRUE(fields::read_inputs(members_of(R"({"inputs":{"vin_v":500}})"), inputs, error));
  Inputs checked;
  EXPECT_FALSE(fields::validate_body_inputs(inputs, t, checked, error));
  EXPECT_EQ(error.field, "inputs.vin_v");
}

TEST(RequestFields, RefusalsOfMissingMembersAndOfOtherKinds) {
  const auto m = members_of(R"({"vary":"x"})");
  const ApiError missing = fields::missing("tolerances", "a tolerance for 1 to 12 inputs");
  EXPECT_EQ(missing.field, "tolerances");
  EXPECT_EQ(missing.message, "tolerances is required: a tolerance for 1 to 12 inputs");
  EXPECT_EQ(fields::not_an_object("vary", m[0]).message, "vary must be an object, got a string");
  EXPECT_EQ(fields::not_an_object("target", m[0], " {shape}").message,
            "target must be an object {shape}, got a string");
}
