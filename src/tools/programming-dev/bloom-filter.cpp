// Bloom filter sizing: bits, bytes and hash functions for n items at a target false-positive
// rate, and the rate the rounded (integer) sizes actually give. Formula, bounds, references and
// worked examples: docs/tools/bloom-filter.md.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "bloom-filter";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "Bloom Filter Size";
  t.description =
      "Sizes a Bloom filter: the number of bits m and hash functions k for n items at a target "
      "false-positive rate p (m = ⌈−n·ln p / (ln 2)²⌉, k = round(m/n · ln 2)), and the "
      "false-positive rate those whole numbers actually give.";
  t.standard = std::nullopt;
  t.inputs = {
      integer_input({.key = "expected_items",
                     .label = "Expected items n",
                     .unit = "items",
                     .help = "Distinct items the filter will hold at most (keys, URLs, IDs). The "
                             "false-positive rate rises above the target once more are added.",
                     .min = 1,
                     .max = 10000000000,
                     .step = 1,
                     .default_value = 1000000}),
      number_input({.key = "false_positive_rate",
                    .label = "Target false-positive rate p",
                    .unit = "",
                    .help = "Probability that a lookup of an item never added answers \"maybe "
                            "present\", as a fraction: 0.01 = 1 %, 0.000001 = one in a million. "
                            "From 0.000001 to 0.5.",
                    .min = 0.000001,
                    .max = 0.5,
                    .step = 0.000001,
                    .default_value = 0.01}),
  };
  t.outputs = {
      number_output({.key = "bits", .label = "Filter size m", .unit = "bits", .precision = 0}),
      number_output(
          {.key = "bytes", .label = "Filter size in bytes ⌈m/8⌉", .unit = "B", .precision = 0}),
      number_output(
          {.key = "hash_functions", .label = "Hash functions k", .unit = "", .precision = 0}),
      number_output(
          {.key = "bits_per_item", .label = "Bits per item m/n", .unit = "bits", .precision = 2}),
      // The rate ranges from about 1e-6 (8 decimals keep 3 digits down to 1e-6 only) to 0.39;
      // "1 in N" carries the small rates, and the rate carries the small N (N < 100).
      number_output({.key = "actual_false_positive_rate",
                     .label = "False-positive rate with these m and k",
                     .unit = "",
                     .precision = 8,
                     .small_values_in = "actual_one_in"}),
      number_output({.key = "actual_one_in",
                     .label = "False positives: one lookup in",
                     .unit = "lookups",
                     .precision = 0,
                     .small_values_in = "actual_false_positive_rate"}),
  };
  t.references = {
      "B. H. Bloom, \"Space/Time Trade-offs in Hash Coding with Allowable Errors\", "
      "Communications of the ACM 13(7):422–426, 1970 (the filter and its false-positive "
      "probability)",
      "A. Broder, M. Mitzenmacher, \"Network Applications of Bloom Filters: A Survey\", Internet "
      "Mathematics 1(4):485–509, 2004, §2.1 (f = (1 − e^(−kn/m))^k, optimal k = (m/n)·ln 2, "
      "m/n = −log2(p)/ln 2 ≈ 1.44·log2(1/p))",
      "L. Fan, P. Cao, J. Almeida, A. Z. Broder, \"Summary Cache: A Scalable Wide-Area Web Cache "
      "Sharing Protocol\", IEEE/ACM Transactions on Networking 8(3):281–293, 2000, §V.A (table "
      "of false-positive rates by bits per item and k)",
  };
  t.examples = {
      {.title = "100 000 items at one false positive in a million",
       .request_json = R"({"expected_items":100000,"false_positive_rate":0.000001})",
       .expected_json = R"({"bits":2875518,"hash_functions":20})",
       .tolerance_pct = 0,
       .source = "best-for-bloom (npm), README usage and test.js: bestForBloom(100000, 1e-6) "
                 "returns { bits: 2875518, hash: 20 } (github.com/Richienb/best-for-bloom, "
                 "README.md and test.js)"},
      {.title = "10 bits per item: 1 000 000 items at p = 0.00819",
       .request_json = R"({"expected_items":1000000,"false_positive_rate":0.00819})",
       .expected_json =
           R"({"bits_per_item":10,"hash_functions":7,"actual_false_positive_rate":0.00819})",
       .tolerance_pct = 0.1,
       .source = "Fan, Cao, Almeida, Broder, Summary Cache (2000), false-positive table as "
                 "carried in Apache Cassandra src/java/org/apache/cassandra/utils/"
                 "BloomCalculations.java, row 10 buckets per element: k = 7 gives 0.00819, "
                 "the row's minimum"},
      {.title = "One byte per item: 1 000 000 items at p = 0.0214",
       .request_json = R"({"expected_items":1000000,"false_positive_rate":0.0214})",
       .expected_json =
           R"({"bits_per_item":8,"hash_functions":6,"actual_false_positive_rate":0.0216})",
       .tolerance_pct = 0.25,
       .source = "Fan, Cao, Almeida, Broder, Summary Cache (2000), false-positive table as "
                 "carried in Apache Cassandra src/java/org/apache/cassandra/utils/"
                 "BloomCalculations.java, row 8 buckets per element: k = 6 gives 0.0216, the "
                 "row's minimum"},
      {.title = "Rule of thumb: 0.1 % needs 14.4 bits per item",
       .request_json = R"({"expected_items":10000,"false_positive_rate":0.001})",
       .expected_json = R"({"bits_per_item":14.4})",
       .tolerance_pct = 0.35,
       .source = "App-BloomUtils 0.007 (Perl, CPAN), bloom-filter-calculator documentation "
                 "(metacpan.org/dist/App-BloomUtils/view/script/bloom-filter-calculator): "
                 "\"10% - 4.8 bits per item 1% - 9.6 bits per item 0.1% - 14.4 bits per item\""},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double n = in.number("expected_items");
  const double p = in.number("false_positive_rate");
  const double ln2 = std::numbers::ln2;
  // m ≤ 1e10 · 13.82 / 0.48 ≈ 2.9e11 and k ≤ 21: exact in a double.
  const double m = std::ceil(-n * std::log(p) / (ln2 * ln2));
  const double k = std::max(1.0, std::round(m / n * ln2));
  // 1 − e^(−x) as −expm1(−x) keeps its digits when k·n/m is small.
  const double rate = std::pow(-std::expm1(-k * n / m), k);
  Outputs out;
  out.set("bits", m)
      .set("bytes", std::ceil(m / 8))
      .set("hash_functions", k)
      .set("bits_per_item", m / n)
      .set("actual_false_positive_rate", rate)
      .set("actual_one_in", 1 / rate);
  return out;
}

}  // namespace

Tool make_bloom_filter() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
