#include "api/llms_txt.hpp"

#include "api/limits.hpp"
#include "core/decimal.hpp"

namespace toolcalc::api {

using catalog::InputDescriptor;
using catalog::InputType;
using catalog::OutputDescriptor;
using catalog::OutputType;

namespace {

std::string number(double v) {
  std::string s;
  append_shortest(s, v);
  return s;
}

std::string code(std::string_view s) {
  return "`" + std::string(s) + "`";
}

std::string options(const std::vector<std::string>& values) {
  std::string out = "one of ";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + code(values[i]);
  return out;
}

// `key` (type, unit, min to max, required | default D)
std::string describe_input(const InputDescriptor& in) {
  std::string s = code(in.key) + " (";
  switch (in.type) {
    case InputType::Number:
      s += "number";
      break;
    case InputType::Integer:
      s += "integer";
      break;
    case InputType::Enum:
      s += options(in.options);
      break;
    case InputType::Boolean:
      s += "boolean";
      break;
  }
  if (in.unit && !in.unit->empty()) s += ", " + *in.unit;
  if (in.min && in.max)
    s += ", " + number(*in.min) + " to " + number(*in.max);
  else if (in.min)
    s += ", at least " + number(*in.min);
  else if (in.max)
    s += ", at most " + number(*in.max);
  if (in.required) {
    s += ", required";
  } else {
    s += ", default ";
    if (const double* d = std::get_if<double>(&in.default_value))
      s += number(*d);
    else if (const auto* text = std::get_if<std::string>(&in.default_value))
      s += code(*text);
    else
      s += std::get<bool>(in.default_value) ? "true" : "false";
  }
  return s + ")";
}

std::string describe_output(const OutputDescriptor& out) {
  std::string s = code(out.key);
  if (out.type == OutputType::String && !out.options.empty())
    s += " (" + options(out.options) + ")";
  else if (out.unit && !out.unit->empty())
    s += " (" + *out.unit + ")";
  return s;
}

}  // namespace

std::string render_llms_txt(const catalog::Registry& registry, std::string_view base_path) {
  const std::string base(base_path);
  int domains = 0;
  for (const auto& d : registry.domains())
    if (registry.live_count(d.name) > 0) ++domains;

  std::string s;
  s += "# toolcalc\n\n";
  s += "> Engineering and cost calculators over JSON/HTTP: " +
       std::to_string(registry.tools().size()) + " tools in " + std::to_string(domains) +
       " domains. Each tool is a pure function of its inputs, with its formula, bounds and "
       "references documented and worked examples checked against published sources.\n\n";
  s += "Run a tool with `POST " + base +
       "/v1/{domain}/{slug}`, a JSON object of its inputs as the body "
       "(`Content-Type: application/json`) and `Authorization: Bearer <API key>`. Inputs "
       "left out take their defaults; numbers are JSON numbers, never strings. The answer is "
       "`{\"ok\": true, \"result\": {output: value, ...}, \"meta\": {...}}`, each number "
       "rounded to its output's precision, or `{\"ok\": false, \"error\": {\"code\", "
       "\"message\", \"field\"}}` where `field` names the input at fault and `message` the "
       "bound it breaks. `POST " +
       base +
       "/v1/{domain}/{slug}/sweep` runs a tool over a range of one input; `/tolerance` (same "
       "path) gives each output's worst case, RSS and Monte Carlo spread for toleranced "
       "inputs, and `/solve` finds the value of one input that gives a target output. "
       "Discovery needs no key. Agents that speak the Model Context Protocol can use the "
       "Streamable HTTP "
       "endpoint `" +
       base + "/mcp` instead, where each tool is named `{domain}_{slug}`.\n\n";
  s += "## API\n\n";
  s += "- [OpenAPI document](" + base +
       "/v1/openapi.json): every endpoint, with the exact JSON Schema of each tool's inputs "
       "and outputs\n";
  s += "- [Tools](" + base + "/v1/tools?limit=" + std::to_string(kMaxPageSize) +
       "): the tools as JSON\n";
  s += "- [Domains](" + base + "/v1/domains): the domains with their tool counts\n";

  for (const auto& d : registry.domains()) {
    if (registry.live_count(d.name) == 0) continue;
    s += "\n## " + d.display_name + "\n\n";
    for (const auto& r : registry.tools()) {
      const auto& t = r.tool.descriptor;
      if (t.domain != d.name) continue;
      s += "- [" + t.name + "](" + base + "/v1/tools/" + t.slug + "): " + t.description;
      if (!t.description.empty() && t.description.back() != '.') s += '.';
      if (t.standard) s += " Standard: " + *t.standard + ".";
      s += " `POST " + base + t.endpoint() + "`. Inputs: ";
      for (size_t i = 0; i < t.inputs.size(); ++i)
        s += (i ? "; " : "") + describe_input(t.inputs[i]);
      s += ". Outputs: ";
      for (size_t i = 0; i < t.outputs.size(); ++i)
        s += (i ? ", " : "") + describe_output(t.outputs[i]);
      s += ".\n";
    }
  }
  return s;
}

}  // namespace toolcalc::api
