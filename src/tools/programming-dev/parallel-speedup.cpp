// Parallel speedup: Amdahl's law (fixed problem size, with its limit 1/(1 − p)) and
// Gustafson's law (scaled problem size) for a parallel fraction and N processors. Formula,
// bounds, references and worked examples: docs/tools/parallel-speedup.md.
#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "parallel-speedup";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "Parallel Speedup (Amdahl, Gustafson)";
  t.description =
      "Speedup and efficiency of running on N processors (cores, workers, nodes) when a share p "
      "of the work is parallel: Amdahl's law for a fixed problem, S = 1/((1 − p) + p/N), with "
      "its limit 1/(1 − p), and Gustafson's law for a problem grown with N, S = (1 − p) + p·N.";
  t.standard = std::nullopt;
  t.inputs = {
      number_input({.key = "parallel_fraction_pct",
                    .label = "Parallel share p",
                    .unit = "%",
                    .help = "Share of the run time that can be spread over the processors, 0 to "
                            "99.9999 (the rest runs serially). Amdahl reads it on one processor, "
                            "Gustafson on N processors.",
                    .min = 0,
                    .max = 99.9999,
                    .step = 0.0001,
                    .default_value = 95}),
      integer_input({.key = "processors",
                     .label = "Processors N",
                     .unit = "processors",
                     .help = "Cores, threads, workers or nodes sharing the parallel part, 1 to "
                             "100 000.",
                     .min = 1,
                     .max = 100000,
                     .step = 1,
                     .default_value = 16}),
  };
  t.outputs = {
      number_output(
          {.key = "amdahl_speedup", .label = "Amdahl speedup", .unit = "×", .precision = 3}),
      number_output({.key = "amdahl_efficiency_pct",
                     .label = "Amdahl efficiency (speedup / N)",
                     .unit = "%",
                     .precision = 5}),
      number_output({.key = "amdahl_limit",
                     .label = "Amdahl limit for N → ∞, 1/(1 − p)",
                     .unit = "×",
                     .precision = 3}),
      number_output({.key = "gustafson_speedup",
                     .label = "Gustafson scaled speedup",
                     .unit = "×",
                     .precision = 3}),
      number_output({.key = "gustafson_efficiency_pct",
                     .label = "Gustafson efficiency (scaled speedup / N)",
                     .unit = "%",
                     .precision = 5}),
  };
  t.references = {
      "G. M. Amdahl, \"Validity of the single processor approach to achieving large scale "
      "computing capabilities\", AFIPS Spring Joint Computer Conference, 1967, pp. 483–485",
      "J. L. Gustafson, \"Reevaluating Amdahl's Law\", Communications of the ACM 31(5):532–533, "
      "1988 (scaled speedup s' + p'·N = N + (1 − N)·s', after E. Barsis)",
      "R. E. Bryant, D. R. O'Hallaron, \"Computer Systems: A Programmer's Perspective\", 3rd ed., "
      "Pearson, 2016, §1.9.1 (Amdahl's law S = 1/((1 − α) + α/k) and its limit 1/(1 − α))",
  };
  t.examples = {
      {.title = "60 % sped up threefold",
       .request_json = R"({"parallel_fraction_pct":60,"processors":3})",
       .expected_json = R"({"amdahl_speedup":1.67,"amdahl_limit":2.5})",
       .tolerance_pct = 0.3,
       .source = "Bryant & O'Hallaron, Computer Systems: A Programmer's Perspective, 3rd ed., "
                 "§1.9.1, Amdahl's law example (α = 0.6, k = 3: speedup 1/(0.4 + 0.6/3) = 1.67×; "
                 "k → ∞: 2.5×), read in the course notes at kok-s0s.top/index.php/archives/223"},
      {.title = "90 % parallel: at most tenfold",
       .request_json = R"({"parallel_fraction_pct":90,"processors":1024})",
       .expected_json = R"({"amdahl_limit":10})",
       .tolerance_pct = 0,
       .source = "Wikipedia, \"Amdahl's law\", section Parallelization (\"if P is 90%, then (1 − "
                 "P) is 10%, and the problem can be sped up by a maximum of a factor of 10, no "
                 "matter how large the value of N\"), read in the liquisearch.com mirror"},
      {.title = "99 % parallel: at most a hundredfold",
       .request_json = R"({"parallel_fraction_pct":99,"processors":1000})",
       .expected_json = R"({"amdahl_limit":100})",
       .tolerance_pct = 0,
       .source = "M. Hjorth-Jensen, Computational Physics II lecture notes, week 10, \"Amdahl's "
                 "law\" (compphysics.github.io/ComputationalPhysics2): f = 0.99 gives a maximum "
                 "speedup of 1/(1 − 0.99) = 100"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double p = in.number("parallel_fraction_pct") / 100;
  const double n = in.number("processors");
  const double serial = 1 - p;
  const double amdahl = 1 / (serial + p / n);
  const double gustafson = serial + p * n;
  Outputs out;
  out.set("amdahl_speedup", amdahl)
      .set("amdahl_efficiency_pct", amdahl / n * 100)
      .set("amdahl_limit", 1 / serial)
      .set("gustafson_speedup", gustafson)
      .set("gustafson_efficiency_pct", gustafson / n * 100);
  return out;
}

}  // namespace

Tool make_parallel_speedup() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
