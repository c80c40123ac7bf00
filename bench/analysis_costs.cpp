// `make analysis-costs`: measures what one evaluation of each tool costs inside a tolerance
// analysis at the tool's dearest inputs, and prints src/catalog/analysis_cost_table.cpp, the
// table of cost classes the quota charges analyses by (docs/analysis.md, "What an analysis
// costs"). With --markdown PATH it also writes that page's price list (the tools above
// class 1) to PATH.
//
// A tool's cost per evaluation can depend on its inputs (erlang-c's recursion runs once per
// server, up to 1000), and a client chooses the inputs, so the price is the dearest found:
// for every starting point (the defaults, then each published example), every input moved
// alone to each end of its range (each option of a choice, both values of a true/false), a
// tolerance analysis of kSamples samples with every numeric input ±1 % (within its bounds,
// at most 12) is timed, and the most expensive point that computes sets the class. Each
// point is timed kRepeats times in the thread's CPU time and its fastest run kept (noise
// only ever adds time).
//
// The class is the smallest power of two at least cost / kReferenceNs, so that a quota unit
// (kEvaluationsPerQuotaUnit evaluations × the class) buys between half and all of
// kReferenceNs × 1000 of CPU on every tool whose class is above 1.
#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/evaluator.hpp"
#include "analysis/tolerance.hpp"
#include "catalog/json_body.hpp"
#include "catalog/render.hpp"
#include "catalog/validate.hpp"
#include "cli/default_catalog_dir.hpp"
#include "tools/all.hpp"

namespace {

using namespace toolcalc;

constexpr int64_t kSamples = 2000;
constexpr int kRepeats = 3;
// The CPU one evaluation may cost at class 1, on the machine the table was measured on:
// above what the analysis engine and the light tools cost per evaluation (0.2–1.4 µs in the
// RelWithDebInfo build), so that their price, one unit per 1,000 evaluations, stays.
constexpr double kReferenceNs = 2000;

std::string literal(const boost::json::value& v) {
  return boost::json::serialize(v);
}

// The default body as a JSON object (every input at its default).
boost::json::object defaults(const catalog::ToolDescriptor& tool) {
  return boost::json::parse(catalog::default_body(tool)).as_object();
}

// The starting points and every one-input move from each, as bodies.
std::vector<std::string> candidate_bodies(const catalog::ToolDescriptor& tool) {
  std::vector<boost::json::object> starts = {defaults(tool)};
  for (const auto& ex : tool.examples) {
    boost::json::object o = defaults(tool);
    const boost::json::value body = boost::json::parse(ex.request_json);
    for (const auto& [k, v] : body.as_object()) o[k] = v;
    starts.push_back(std::move(o));
  }
  std::vector<std::string> out;
  for (const auto& start : starts) {
    out.push_back(literal(start));
    for (const auto& in : tool.inputs) {
      std::vector<boost::json::value> moves;
      switch (in.type) {
        case catalog::InputType::Number:
        case catalog::InputType::Integer:
          moves = {*in.min, *in.max};
          break;
        case catalog::InputType::Enum:
          for (const auto& o : in.options) moves.emplace_back(o);
          break;
        case catalog::InputType::Boolean:
          moves = {true, false};
          break;
      }
      for (auto& m : moves) {
        boost::json::object o = start;
        o[in.key] = m;
        out.push_back(literal(o));
      }
    }
  }
  return out;
}

// ±1 % of every numeric input's non-zero value (at least ±1 for an integer input), within
// its bounds, at most 12 inputs; empty when no input can be toleranced.
analysis::ToleranceOptions tolerances(const catalog::ToolDescriptor& tool,
                                      const catalog::Inputs& at) {
  analysis::ToleranceOptions options;
  options.samples = kSamples;
  for (size_t i = 0; i < tool.inputs.size(); ++i) {
    const auto& in = tool.inputs[i];
    if (!in.is_numeric() || options.inputs.size() == analysis::kMaxToleranced) continue;
    const double x0 = at.number(in.key);
    if (x0 == 0) continue;
    const bool integer = in.type == catalog::InputType::Integer;
    double half = std::fabs(x0) / 100;
    if (integer) half = std::max(1.0, std::round(half));
    const double lo = std::max(*in.min, x0 - half), hi = std::min(*in.max, x0 + half);
    if (!(lo < hi)) continue;
    options.inputs.push_back({i, x0, lo, hi, analysis::Distribution::Normal, integer});
  }
  return options;
}

struct Measured {
  double ns_per_evaluation = 0;
  std::string body;  // where
};

// CPU time of this thread: what the analysis costs, whatever else the machine runs.
double thread_cpu_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// The fastest of kRepeats runs per evaluation; 0 when the analysis gives no result.
double time_analysis(const catalog::Tool& tool, const catalog::Inputs& at,
                     const analysis::ToleranceOptions& options) {
  double best = 0;
  for (int r = 0; r < kRepeats; ++r) {
    const double start = thread_cpu_ns();
    const auto outcome = analysis::run_tolerance(tool, at, options);
    const double ns = thread_cpu_ns() - start;
    const auto* result = std::get_if<analysis::ToleranceResult>(&outcome);
    if (!result || result->failed_samples * 2 > options.samples) return 0;
    const double per = ns / static_cast<double>(result->evaluations);
    best = r == 0 ? per : std::min(best, per);
  }
  return best;
}

Measured dearest(const catalog::Tool& tool) {
  Measured m;
  for (const auto& body : candidate_bodies(tool.descriptor)) {
    catalog::ParsedBody parsed;
    catalog::Inputs at;
    ApiError error;
    if (!catalog::parse_body(body, parsed, error) ||
        !catalog::validate_inputs(parsed, tool.descriptor, at, error))
      continue;
    const auto options = tolerances(tool.descriptor, at);
    if (options.inputs.empty()) continue;
    const double ns = time_analysis(tool, at, options);
    if (ns > m.ns_per_evaluation) m = {ns, body};
  }
  return m;
}

int cost_class(double ns) {
  int c = 1;
  while (c * kReferenceNs < ns) c *= 2;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const char* markdown = argc > 2 && std::strcmp(argv[1], "--markdown") == 0 ? argv[2] : nullptr;
  auto tools = tools::all_tools({cli::default_catalog_dir()});
  std::sort(tools.begin(), tools.end(),
            [](const auto& a, const auto& b) { return a.descriptor.slug < b.descriptor.slug; });
  struct Row {
    std::string slug;
    int cls;
    double ns;
  };
  std::vector<Row> rows;
  for (const auto& tool : tools) {
    const Measured m = dearest(tool);
    // A tool without a numeric input has no analysis; it is priced as the light tools.
    const Row row{tool.descriptor.slug, cost_class(m.ns_per_evaluation), m.ns_per_evaluation};
    std::fprintf(stderr, "%-36s %8.0f ns  class %d  at %s\n", row.slug.c_str(), row.ns, row.cls,
                 m.body.c_str());
    rows.push_back(row);
  }
  if (markdown) {
    std::ofstream md(markdown);
    md << "| tool | cost class | ns per evaluation |\n|---|---:|---:|\n";
    for (const auto& r : rows)
      if (r.cls > 1)
        md << "| `" << r.slug << "` | " << r.cls << " | " << std::llround(r.ns) << " |\n";
  }
  std::printf(
      "// Generated by `make analysis-costs` (bench/analysis_costs.cpp): the cost class of each\n"
      "// tool's analyses, from the CPU one evaluation takes at the tool's dearest inputs (the\n"
      "// second figure, in nanoseconds, on the machine that measured it; class = the smallest\n"
      "// power of two at least that over %.0f ns). Generate it again when a tool is added or\n"
      "// its compute changes; tests/unit/catalog/analysis_costs_test.cpp fails for a tool with\n"
      "// no row. docs/analysis.md, \"What an analysis costs\".\n"
      "#include \"catalog/analysis_costs.hpp\"\n\n"
      "namespace toolcalc::catalog {\n\n"
      "const std::vector<AnalysisCost>& analysis_cost_table() {\n"
      "  static const std::vector<AnalysisCost> table = {\n",
      kReferenceNs);
  for (const auto& r : rows)
    std::printf("      {\"%s\", %d, %.0f},\n", r.slug.c_str(), r.cls, r.ns);
  std::printf("  };\n  return table;\n}\n\n}  // namespace toolcalc::catalog\n");
  return 0;
}
