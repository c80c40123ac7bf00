// Hash collision probability (the birthday problem) for N items in a b-bit hash space, exact
// and approximate. Formula, numerical method, references and worked examples:
// docs/tools/hash-collision-probability.md.
#include <cmath>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Up to this many items the exact product is summed term by term (at most 10^3 log1p calls,
// some tens of microseconds); above it the same product is evaluated through Stirling's
// series, which is exact to double precision there (see the doc page).
constexpr double kDirectSumMaxItems = 1000;
// Q ≤ exp(−N(N−1)/2M) (below). Beyond this exponent Q < e^−40 = 4.2·10^−18, less than half
// an ulp of 1 (2^−54), so P = 1 − Q is exactly 1 in double whatever Q is.
constexpr double kCertainExponent = 40;

// g(r) = (1 − r)·ln(1 − r) + r = Σ_{k≥2} r^k / (k(k−1)), summed as its series: the closed
// form cancels catastrophically for small r (both terms ≈ ±r, the result ≈ r²/2). Used with
// r < 0.08, where each term is at least 12 times smaller than the one before.
double stirling_g(double r) {
  double g = 0, power = r * r;
  for (int k = 2; k < 200; ++k) {
    const double term = power / (static_cast<double>(k) * (k - 1));
    g += term;
    if (term <= 1e-17 * g) break;
    power *= r;
  }
  return g;
}

// ln Q, Q = ∏_{i=0}^{N−1} (1 − i/M): the log of the probability of no collision, for
// 2 ≤ N ≤ M = 2^b. Returns −∞ when P = 1 − Q is 1 in double.
double log_no_collision(double n, int bits) {
  const double space = std::ldexp(1.0, bits);  // M = 2^b, exact for b ≤ 1023
  if (n <= kDirectSumMaxItems) {
    // Σ log1p(−i/M), Neumaier-compensated; i/M = ldexp(i, −b) is exact.
    double sum = 0, compensation = 0;
    for (double i = 1; i < n; ++i) {
      const double term = std::log1p(-std::ldexp(i, -bits));
      const double next = sum + term;
      compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
      sum = next;
    }
    return sum + compensation;
  }
  // Q ≤ exp(−N(N−1)/2M) because ln(1 − x) ≤ −x.
  if (std::ldexp(n * (n - 1), -(bits + 1)) > kCertainExponent) return -INFINITY;
  // Here N > 10^3 and N(N−1)/2M ≤ 40, so M > 12500, hence M ≥ 2^14 (a power of two),
  // r = N/M ≤ 80/(N − 1) < 0.08 and L = M − N > 15000. Stirling's series for ln Γ(z + 1):
  //   ln Q = ln M! − ln L! − N·ln M
  //        = −M·g(r) − ½·ln(1 − r) − N/(12·M·L) + (1/L³ − 1/M³)/360,
  // and the first omitted term, about 1/(1260·L⁵), is below 10^−23.
  const double r = std::ldexp(n, -bits);
  const double rest = space - n;
  return -space * stirling_g(r) - 0.5 * std::log1p(-r) - n / (12 * space * rest) +
         (1 / (rest * rest * rest) - 1 / (space * space * space)) / 360;
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "hash-collision-probability";
  t.domain = "programming-dev";
  t.version = "1.1.0";
  t.name = "Hash Collision Probability";
  t.description =
      "Probability that at least two of N items share a hash value in a b-bit hash space (the "
      "birthday problem), computed exactly and by the usual exponential approximation, with "
      "the expected number of colliding pairs. Log10 outputs keep tiny probabilities readable.";
  t.standard = std::nullopt;
  t.inputs = {
      integer_input({.key = "item_count",
                     .label = "Number of items (N)",
                     .unit = "",
                     .help = "Distinct items hashed (keys, documents, IDs). A collision needs at "
                             "least two; at most 10^15.",
                     .min = 2,
                     .max = 1e15,
                     .step = 1,
                     .default_value = 100000}),
      integer_input({.key = "hash_bits",
                     .label = "Hash size (b)",
                     .unit = "bit",
                     .help = "Bits of uniformly distributed hash output: 32 for CRC-32, 64 for a "
                             "64-bit hash, 122 for the random bits of a version-4 UUID, 128 for "
                             "MD5, 160 for SHA-1, 256 for SHA-256, 512 for SHA-512. Use the bits "
                             "actually kept if the hash is truncated. The result assumes the "
                             "values are uniform and independent, as for a good hash of distinct "
                             "inputs; it says nothing about deliberate (adversarial) collisions.",
                     .min = 1,
                     .max = 512,
                     .step = 1,
                     .default_value = 32}),
  };
  // A probability too small for six decimals reads in its log10 or as "1 in N"; a log10 too
  // close to 0 for three decimals (P near 1) reads in the probability itself.
  t.outputs = {
      number_output({.key = "probability",
                     .label = "Collision probability (exact)",
                     .unit = "",
                     .precision = 6,
                     .small_values_in = "collision_odds_one_in"}),
      number_output({.key = "probability_log10",
                     .label = "log10 of the collision probability (exact)",
                     .unit = "",
                     .precision = 3,
                     .small_values_in = "probability"}),
      number_output({.key = "probability_approx",
                     .label = "Collision probability, 1 − exp(−N(N−1)/2^(b+1))",
                     .unit = "",
                     .precision = 6,
                     .small_values_in = "probability_approx_log10"}),
      number_output({.key = "probability_approx_log10",
                     .label = "log10 of the approximate collision probability",
                     .unit = "",
                     .precision = 3,
                     .small_values_in = "probability_approx"}),
      number_output({.key = "expected_colliding_pairs",
                     .label = "Expected number of colliding pairs",
                     .unit = "",
                     .precision = 6,
                     .small_values_in = "expected_colliding_pairs_log10"}),
      number_output({.key = "expected_colliding_pairs_log10",
                     .label = "log10 of the expected number of colliding pairs",
                     .unit = "",
                     .precision = 3,
                     .small_values_in = "expected_colliding_pairs"}),
      number_output({.key = "collision_odds_one_in",
                     .label = "Collision odds: 1 in N (N = 1/probability, exact)",
                     .unit = "",
                     .precision = 2}),
  };
  t.references = {
      "D. E. Knuth, \"The Art of Computer Programming\", vol. 2, \"Seminumerical Algorithms\", "
      "3rd ed., Addison-Wesley, 1997, section 3.3.2 (the birthday spacings and collision "
      "tests) and vol. 3, section 6.4 (hashing: the probability of no collision)",
      "J. Preshing, \"Hash Collision Probabilities\", preshing.com, 2011 (the approximation "
      "1 − exp(−N(N−1)/2M) and its accuracy)",
      "RFC 9562, \"Universally Unique IDentifiers (UUIDs)\", 2024, section 6.7 (collision "
      "resistance; version-4 UUIDs carry 122 random bits)",
      "M. Abramowitz and I. A. Stegun, \"Handbook of Mathematical Functions\", 6.1.40 "
      "(Stirling's series for ln Γ, used to evaluate the exact product for large N)",
  };
  t.examples = {
      {.title = "Even odds in a 32-bit hash: 77,000 items",
       .request_json = R"({"item_count":77000,"hash_bits":32})",
       .expected_json = R"({"probability":0.5})",
       .tolerance_pct = 1,
       .source = "B. Yu, \"Birthday Attack\" (ben-yu.com/hash-collisions/), table \"# of hashes "
                 "to get for 50% chance of collision\": 32 bits, output size 4.3 × 10^9, 77,000 "
                 "hashes (the item count is rounded to two digits: 77,000 gives 0.4985)"},
      {.title = "A million 64-bit hashes: 1 in 3.7 × 10^7",
       .request_json = R"({"item_count":1000000,"hash_bits":64})",
       .expected_json = R"({"collision_odds_one_in":37000000})",
       .tolerance_pct = 1.5,
       .source = "Mathematica Stack Exchange, \"Probability of 64bit Hash Code Collisions\" "
                 "(answer: for n = 2^64, p(1,000,000) ≈ 1 out of 3.7 × 10^7), as archived in "
                 "the NVIDIA Nemotron-CC-Math-v1 dataset (huggingface.co/datasets/nvidia/"
                 "Nemotron-CC-Math-v1); two significant digits"},
      {.title = "Ten thousand 64-bit hashes: 1 in 3.7 × 10^11",
       .request_json = R"({"item_count":10000,"hash_bits":64})",
       .expected_json = R"({"collision_odds_one_in":370000000000})",
       .tolerance_pct = 1.5,
       .source = "Mathematica Stack Exchange, \"Probability of 64bit Hash Code Collisions\" "
                 "(answer: p(10,000) ≈ 1 out of 3.7 × 10^11), as archived in the NVIDIA "
                 "Nemotron-CC-Math-v1 dataset; two significant digits"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double n = in.number("item_count");
  const int bits = static_cast<int>(in.number("hash_bits"));
  // Expected colliding pairs C(N,2)/M, which is also the exponent of the approximation.
  const double pairs = std::ldexp(n * (n - 1), -(bits + 1));
  // More items than hash values: a collision is certain (pigeonhole), P = 1 exactly.
  const double exact = n > std::ldexp(1.0, bits) ? 1.0 : -std::expm1(log_no_collision(n, bits));
  const double approx = -std::expm1(-pairs);
  Outputs out;
  out.set("probability", exact)
      .set("probability_log10", std::log10(exact))
      .set("probability_approx", approx)
      .set("probability_approx_log10", std::log10(approx))
      .set("expected_colliding_pairs", pairs)
      .set("expected_colliding_pairs_log10", std::log10(pairs))
      .set("collision_odds_one_in", 1 / exact);
  return out;
}

}  // namespace

Tool make_hash_collision_probability() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
