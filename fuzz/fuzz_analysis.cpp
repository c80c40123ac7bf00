// fuzz_analysis: the bodies of POST /v1/{domain}/{slug}/tolerance and …/solve through their
// parsers, the analyses and the rendering, for every tool of the catalog (the work the
// analysis pool does after auth, rate limiting and the quota).
//
// Input: the first byte selects the tool (index in slug order, modulo the tool count, as in
// fuzz_tools), the second the endpoint (even: tolerance, odd: solve), the rest is the body.
// A tolerance analysis runs with at most kFuzzSamples samples (the parser's accepted value
// is checked first), so that one input stays fast. Oracles, beyond the sanitizers:
//   - a body is accepted or refused with a 400 ApiError with a message; any exception is a
//     crash;
//   - an accepted tolerance body has 1 to 12 toleranced inputs in descriptor order, each a
//     numeric input with input bounds ≤ min ≤ nominal ≤ max ≤ input bounds and min < max,
//     samples 100..100000, and evaluations = 1 + 2k + 2^k + samples;
//   - the analysis computes or fails with a 422 (never anything else); a result is strict
//     JSON with plain decimals holding every output, worst case ⊇ Monte Carlo extremes,
//     ordered percentiles, histogram counts summing to the samples that computed; running
//     it again gives the same bytes;
//   - an accepted solve body names a numeric input and a number output; every solution is
//     within the input's bounds and the result strict JSON.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/evaluator.hpp"
#include "api/analysis_render.hpp"
#include "api/envelope.hpp"
#include "api/solve_request.hpp"
#include "api/tolerance_request.hpp"
#include "catalog/domains.hpp"
#include "catalog/registry.hpp"
#include "cli/default_catalog_dir.hpp"
#include "fuzz_support.hpp"
#include "tools/all.hpp"

namespace {

using namespace toolcalc;

constexpr int64_t kFuzzSamples = 200;

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

void check_refusal(const ApiError& error, int status, std::string_view body) {
  if (error.status() != status)
    fuzz::fail("refused with status " + std::to_string(error.status()) + ", expected " +
                   std::to_string(status),
               body);
  if (error.message.empty()) fuzz::fail("error without a message", body);
  fuzz::check_json(api::error_body(error, "req_fuzz"), "error envelope");
}

void check_numeric(const boost::json::object& o, std::string_view out) {
  const auto num = [&](const boost::json::value& v) { return v.to_number<double>(); };
  const auto& wc = o.at("worst_case").as_object();
  const auto& mc = o.at("monte_carlo").as_object();
  if (num(wc.at("min")) > num(mc.at("min")) || num(mc.at("max")) > num(wc.at("max")))
    fuzz::fail("the worst case is narrower than the samples", out);
  double last = num(mc.at("min"));
  for (const char* p : {"p1", "p5", "p50", "p95", "p99", "max"}) {
    const double v = num(mc.at(p));
    if (v < last) fuzz::fail(std::string("percentiles out of order at ") + p, out);
    last = v;
  }
  int64_t total = 0;
  for (const auto& c : mc.at("histogram").at("counts").as_array()) total += c.to_number<int64_t>();
  if (total != mc.at("samples").to_number<int64_t>())
    fuzz::fail("histogram counts do not add up to the samples", out);
}

void tolerance(const catalog::Tool& tool, std::string_view body) {
  const auto& d = tool.descriptor;
  api::ToleranceRequest request;
  ApiError error;
  if (!api::parse_tolerance_request(d, body, request, error))
    return check_refusal(error, 400, body);
  const auto& specs = request.options.inputs;
  if (specs.empty() || specs.size() > static_cast<size_t>(analysis::kMaxToleranced))
    fuzz::fail("accepted a tolerance body with 0 or more than 12 inputs", body);
  for (size_t i = 0; i < specs.size(); ++i) {
    const auto& s = specs[i];
    const auto& in = d.inputs.at(s.input);
    if (!in.is_numeric()) fuzz::fail("accepted a tolerance on a non-numeric input", body);
    if (i && specs[i - 1].input >= s.input) fuzz::fail("toleranced inputs out of order", body);
    if (!(s.low < s.high) || s.low > s.nominal || s.nominal > s.high)
      fuzz::fail("accepted an empty or off-nominal range", body);
    if ((in.min && s.low < *in.min) || (in.max && s.high > *in.max))
      fuzz::fail("accepted a range past the input's bounds", body);
  }
  if (request.options.samples < analysis::kMinSamples ||
      request.options.samples > analysis::kMaxSamples)
    fuzz::fail("accepted samples out of range", body);
  if (request.evaluations != analysis::tolerance_evaluations(specs.size(), request.options.samples))
    fuzz::fail("evaluations differ from 1 + 2k + 2^k + samples", body);

  request.options.samples = std::min(request.options.samples, kFuzzSamples);
  std::string first;
  for (int run = 0; run < 2; ++run) {
    const analysis::ToleranceOutcome outcome =
        analysis::run_tolerance(tool, request.nominal, request.options);
    if (const auto* failure = std::get_if<analysis::ToleranceFailure>(&outcome)) {
      if (failure->error.message.empty()) fuzz::fail("a tool failure without a message", body);
      return;
    }
    std::string out;
    api::render_tolerance_result(out, d, request, std::get<analysis::ToleranceResult>(outcome));
    if (run == 1) {
      if (out != first) fuzz::fail("the same tolerance body gave different bytes", body);
      return;
    }
    const boost::json::value v = fuzz::check_json(out, d.slug + " tolerance result");
    const auto& outputs = v.at("outputs").as_object();
    if (outputs.size() != d.outputs.size()) fuzz::fail("outputs missing from the result", out);
    for (const auto& o : d.outputs)
      if (o.type == catalog::OutputType::Number) check_numeric(outputs.at(o.key).as_object(), out);
    first = std::move(out);
  }
}

void solve(const catalog::Tool& tool, std::string_view body) {
  const auto& d = tool.descriptor;
  api::SolveRequest request;
  ApiError error;
  if (!api::parse_solve_request(d, body, request, error)) return check_refusal(error, 400, body);
  const auto& in = d.inputs.at(request.options.input);
  if (!in.is_numeric()) fuzz::fail("accepted vary on a non-numeric input", body);
  if (d.outputs.at(request.options.output).type != catalog::OutputType::Number)
    fuzz::fail("accepted a text output as the target", body);
  const analysis::SolveResult r = analysis::run_solve(tool, request.nominal, request.options);
  if (r.evaluations > analysis::kSolveEvaluationBudget) fuzz::fail("over the budget", body);
  if (r.solutions.size() > analysis::kMaxSolutions) fuzz::fail("too many solutions", body);
  for (const auto& s : r.solutions)
    if ((in.min && s.value < *in.min) || (in.max && s.value > *in.max))
      fuzz::fail("a solution outside the input's bounds", body);
  if (r.solutions.empty()) return;
  std::string out;
  api::render_solve_result(out, d, request, r);
  fuzz::check_json(out, d.slug + " solve result");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)tools_by_slug();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const auto& tools = tools_by_slug();
  const catalog::Tool& tool = *tools[data[0] % tools.size()];
  const std::string_view body(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (data[1] % 2 == 0)
    tolerance(tool, body);
  else
    solve(tool, body);
  return 0;
}
