// fuzz_tools: request bodies through parse → validate → compute → render, for every tool
// of the catalog (the path POST /v1/{domain}/{slug} takes after auth and rate limiting).
//
// Input: the first byte selects the tool (index in slug order, modulo the tool count), the
// rest is the request body. Oracles, beyond the sanitizers:
//   - a body is either accepted (result rendered) or refused with a 400/422 ApiError; any
//     exception (e.g. render_result's std::logic_error on a non-finite output) is a crash;
//   - a rendered result is a strict JSON object holding exactly the descriptor's outputs in
//     order, numbers plain decimals with at most the output's precision and never "-0",
//     string outputs among their options when the descriptor lists some;
//   - an error becomes an envelope that is strict JSON.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/envelope.hpp"
#include "api/execute.hpp"
#include "catalog/domains.hpp"
#include "catalog/registry.hpp"
#include "cli/default_catalog_dir.hpp"
#include "fuzz_support.hpp"
#include "tools/all.hpp"

namespace {

using namespace toolcalc;

// Every tool of the catalog, sorted by slug: the first input byte indexes this list
// (fuzz/make_seeds.py writes the seeds in the same order).
const std::vector<const catalog::Tool*>& tools_by_slug() {
  // Built once, reachable from these statics until exit (not a leak for LeakSanitizer).
  static const catalog::Registry* registry = [] {
    const std::filesystem::path dir = cli::default_catalog_dir();
    return new catalog::Registry(tools::all_tools(tools::ToolContext{dir}),
                                 catalog::load_domains(dir / "domains.toml"));
  }();
  static const std::vector<const catalog::Tool*>* sorted = [] {
    auto* v = new std::vector<const catalog::Tool*>;
    for (const auto& t : registry->tools()) v->push_back(&t.tool);
    std::sort(v->begin(), v->end(), [](const catalog::Tool* a, const catalog::Tool* b) {
      return a->descriptor.slug < b->descriptor.slug;
    });
    return v;
  }();
  return *sorted;
}

// The number token that follows `"key":` at or after `from` in `json`.
std::string_view number_after(std::string_view json, std::string_view key, size_t& from) {
  const std::string needle = "\"" + std::string(key) + "\":";
  const size_t at = json.find(needle, from);
  if (at == std::string_view::npos) return {};
  size_t end = at + needle.size();
  while (end < json.size() && json[end] != ',' && json[end] != '}') ++end;
  from = end;
  return json.substr(at + needle.size(), end - at - needle.size());
}

void check_result(const catalog::ToolDescriptor& tool, std::string_view out) {
  const boost::json::value v = fuzz::check_json(out, tool.slug + " result");
  const boost::json::object* obj = v.if_object();
  if (!obj) fuzz::fail(tool.slug + ": result is not an object", out);
  if (obj->size() != tool.outputs.size())
    fuzz::fail(tool.slug + ": result does not hold exactly the descriptor's outputs", out);
  size_t from = 0;
  for (const auto& o : tool.outputs) {
    const boost::json::value* value = obj->if_contains(o.key);
    if (!value) fuzz::fail(tool.slug + ": output " + o.key + " missing", out);
    if (o.type == catalog::OutputType::Number) {
      if (!value->is_number()) fuzz::fail(tool.slug + ": output " + o.key + " not a number", out);
      const std::string_view token = number_after(out, o.key, from);
      const size_t dot = token.find('.');
      const size_t places = dot == std::string_view::npos ? 0 : token.size() - dot - 1;
      if (places > static_cast<size_t>(o.precision))
        fuzz::fail(tool.slug + ": output " + o.key + " has more places than its precision", out);
      if (token.starts_with('-') && token.find_first_of("123456789") == std::string_view::npos)
        fuzz::fail(tool.slug + ": output " + o.key + " is a negative zero", out);
    } else {
      const boost::json::string* s = value->if_string();
      if (!s) fuzz::fail(tool.slug + ": output " + o.key + " not a string", out);
      if (!o.options.empty()) {
        bool listed = false;
        for (const auto& option : o.options) listed = listed || *s == option;
        if (!listed) fuzz::fail(tool.slug + ": output " + o.key + " not among its options", out);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)tools_by_slug();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& tools = tools_by_slug();
  const catalog::Tool& tool = *tools[data[0] % tools.size()];
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);

  catalog::Inputs inputs;
  ApiError error;
  std::string out;
  if (api::prepare_inputs(tool.descriptor, body, inputs, error)) {
    if (inputs.size() != tool.descriptor.inputs.size())
      fuzz::fail(tool.descriptor.slug + ": validated inputs do not match the descriptor", body);
    if (api::compute_result(tool, inputs, out, error)) {
      check_result(tool.descriptor, out);
      return 0;
    }
    if (error.status() != 422) fuzz::fail("compute refused with a status other than 422", body);
  } else if (error.status() != 400) {
    fuzz::fail("validation refused with a status other than 400", body);
  }
  if (error.code_name().empty() || error.message.empty())
    fuzz::fail("error without code or message", body);
  fuzz::check_json(api::error_body(error, "req_fuzz"), tool.descriptor.slug + " error envelope");
  return 0;
}
