// The bodies of tool_test_support.hpp's helpers, compiled once for all the tool tests.
#include "tools/tool_test_support.hpp"

namespace toolcalc::tool_test {

catalog::ComputeResult compute_body(const catalog::Tool& tool, std::string_view body) {
  catalog::ParsedBody parsed;
  ApiError error;
  catalog::Inputs inputs;
  if (!catalog::parse_body(body, parsed, error) ||
      !catalog::validate_inputs(parsed, tool.descriptor, inputs, error))
    throw std::invalid_argument(std::to_string(error.status()) + ":" + error.field + ":" +
                                error.message);
  return tool.compute(inputs);
}

std::string run_tool(const catalog::Tool& tool, std::string_view body) {
  catalog::ParsedBody parsed;
  ApiError error;
  catalog::Inputs inputs;
  if (!catalog::parse_body(body, parsed, error) ||
      !catalog::validate_inputs(parsed, tool.descriptor, inputs, error))
    return std::to_string(error.status()) + ":" + error.field + ":" + error.message;
  catalog::ComputeResult result = tool.compute(inputs);
  if (const auto* failure = std::get_if<catalog::ToolError>(&result))
    return "422:" + failure->field + ":" + failure->message;
  std::string json;
  JsonWriter w(json);
  catalog::render_result(w, tool.descriptor, std::get<catalog::Outputs>(result));
  return json;
}

std::string result_field(std::string_view json, std::string_view key) {
  const std::string needle = "\"" + std::string(key) + "\":";
  const size_t at = json.find(needle);
  if (at == std::string_view::npos)
    throw std::out_of_range("no member \"" + std::string(key) + "\" in " + std::string(json));
  size_t i = at + needle.size();
  if (i < json.size() && json[i] == '"') {
    std::string text;
    for (++i; i < json.size() && json[i] != '"'; ++i) {
      if (json[i] == '\\' && i + 1 < json.size()) ++i;
      text += json[i];
    }
    return text;
  }
  const size_t end = json.find_first_of(",}", i);
  return std::string(json.substr(i, end - i));
}

std::string json_number(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

std::string expected_result(const catalog::Tool& tool, const std::vector<std::string>& texts) {
  const auto& outputs = tool.descriptor.outputs;
  if (texts.size() != outputs.size())
    throw std::invalid_argument(tool.descriptor.slug + " has " + std::to_string(outputs.size()) +
                                " outputs, the expectation " + std::to_string(texts.size()));
  std::string json = "{";
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i) json += ',';
    append_json_string(json, outputs[i].key);
    json += ':';
    if (outputs[i].type == catalog::OutputType::String)
      append_json_string(json, texts[i]);
    else
      json += texts[i];
  }
  return json + "}";
}

double draw_number(const catalog::InputDescriptor& in, std::mt19937& rng) {
  const double lo = in.min.value(), hi = in.max.value();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double v =
      (lo > 0 && hi / lo > 100) ? lo * std::pow(hi / lo, unit(rng)) : lo + (hi - lo) * unit(rng);
  return std::fmin(std::fmax(v, lo), hi);  // pow may overshoot by an ulp
}

std::string random_body(const catalog::Tool& tool, std::mt19937& rng) {
  RequestBody body;
  for (const auto& in : tool.descriptor.inputs) {
    switch (in.type) {
      case catalog::InputType::Number:
        body.number(in.key, draw_number(in, rng));
        break;
      case catalog::InputType::Integer:
        body.number(in.key, std::round(draw_number(in, rng)));
        break;
      case catalog::InputType::Enum:
        body.text(in.key,
                  in.options[std::uniform_int_distribution<size_t>(0, in.options.size() - 1)(rng)]);
        break;
      case catalog::InputType::Boolean:
        body.boolean(in.key, std::bernoulli_distribution(0.5)(rng));
        break;
    }
  }
  return body.json();
}

void expect_inputs(const catalog::ToolDescriptor& d, const std::vector<InputRow>& rows) {
  ASSERT_EQ(d.inputs.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& in = d.inputs[i];
    const auto& row = rows[i];
    SCOPED_TRACE(row.key);
    EXPECT_EQ(in.key, row.key);
    EXPECT_EQ(in.type, row.type);
    EXPECT_EQ(in.unit, row.unit);
    EXPECT_EQ(in.required, row.required);
    EXPECT_EQ(in.default_value, row.default_value);
    if (row.type == catalog::InputType::Number || row.type == catalog::InputType::Integer) {
      EXPECT_EQ(in.min, row.min);
      EXPECT_EQ(in.max, row.max);
      EXPECT_EQ(in.step, row.step);
    }
    EXPECT_EQ(in.options, row.options);
  }
}

void expect_outputs(const catalog::ToolDescriptor& d, const std::vector<OutputRow>& rows) {
  ASSERT_EQ(d.outputs.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& out = d.outputs[i];
    const auto& row = rows[i];
    SCOPED_TRACE(row.key);
    EXPECT_EQ(out.key, row.key);
    EXPECT_EQ(out.type, row.type);
    EXPECT_EQ(out.unit, row.unit);
    if (row.type == catalog::OutputType::Number) {
      EXPECT_EQ(out.precision, row.precision);
    }
    EXPECT_EQ(out.options, row.options);
  }
}

}  // namespace toolcalc::tool_test
