// hash-collision-probability: descriptor, the worked examples of
// docs/tools/hash-collision-probability.md (expected texts copied from that page), the exact
// product against high-precision references, the pigeonhole rule, and properties over random
// valid inputs. The tool has no 422 condition (N > 2^b gives P = 1, see the doc page).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tools/tool_factories.hpp"
#include "tools/tool_test_support.hpp"

namespace toolcalc::tools {
namespace {

using catalog::InputType;
using catalog::OutputType;
using tool_test::compute_body;
using tool_test::expected_result;
using tool_test::RequestBody;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_hash_collision_probability();
  return t;
}

std::string body(double items, double bits) {
  return RequestBody().number("item_count", items).number("hash_bits", bits).json();
}

catalog::Outputs outputs(double items, double bits) {
  return std::get<catalog::Outputs>(compute_body(tool(), body(items, bits)));
}

TEST(HashCollisionProbability, Descriptor) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "hash-collision-probability");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.1.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d, {
                                  {"item_count", InputType::Integer, "", 2, 1e15, 1, 100000.0},
                                  {"hash_bits", InputType::Integer, "bit", 1, 512, 1, 32.0},
                              });
  tool_test::expect_outputs(d, {
                                   {"probability", OutputType::Number, "", 6},
                                   {"probability_log10", OutputType::Number, "", 3},
                                   {"probability_approx", OutputType::Number, "", 6},
                                   {"probability_approx_log10", OutputType::Number, "", 3},
                                   {"expected_colliding_pairs", OutputType::Number, "", 6},
                                   {"expected_colliding_pairs_log10", OutputType::Number, "", 3},
                                   {"collision_odds_one_in", OutputType::Number, "", 2},
                               });
  // Each small or near-zero value has an output that carries it.
  EXPECT_EQ(d.outputs[0].small_values_in, "collision_odds_one_in");
  EXPECT_EQ(d.outputs[1].small_values_in, "probability");
  EXPECT_EQ(d.outputs[2].small_values_in, "probability_approx_log10");
  EXPECT_EQ(d.outputs[3].small_values_in, "probability_approx");
  EXPECT_EQ(d.outputs[4].small_values_in, "expected_colliding_pairs_log10");
  EXPECT_EQ(d.outputs[5].small_values_in, "expected_colliding_pairs");
}

// 10^15 version-4 UUIDs: 9.4·10^−8 expected colliding pairs, which printed 0.000000 at six
// decimals. Its log10 now carries it.
TEST(HashCollisionProbability, ExpectedPairsForAQuadrillionUuidsAreNotHiddenByRounding) {
  const std::string result = run_tool(tool(), body(1e15, 122));
  EXPECT_EQ(tool_test::result_field(result, "expected_colliding_pairs"), "0.000000");
  EXPECT_EQ(tool_test::result_field(result, "expected_colliding_pairs_log10"), "-7.027");
}

struct WorkedExample {
  const char* name;
  std::string body;
  // P, log10 P, P approx, log10 P approx, expected pairs, log10 pairs, 1 in N
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/hash-collision-probability.md, row by row. The odds
// of rows 3 and 4 are 1/P to double precision: 2^512 exactly for row 4.
TEST(HashCollisionProbability, WorkedExamplesFromDocPage) {
  const std::string kOdds3 = "2681561585988522" + std::string(109, '0') + ".00";
  const std::string kOdds4 = "13407807929942597" + std::string(138, '0') + ".00";
  const std::vector<WorkedExample> rows = {
      {"1 defaults",
       body(100000, 32),
       {"0.687812", "-0.163", "0.687809", "-0.163", "1.164142", "0.066", "1.45"}},
      {"2 every input at its minimum",
       body(2, 1),
       {"0.500000", "-0.301", "0.393469", "-0.405", "0.500000", "-0.301", "2.00"}},
      {"3 every input at its maximum",
       body(1e15, 512),
       {"0.000000", "-124.428", "0.000000", "-124.428", "0.000000", "-124.428", kOdds3}},
      {"4 smallest probability",
       body(2, 512),
       {"0.000000", "-154.127", "0.000000", "-154.127", "0.000000", "-154.127", kOdds4}},
      {"5 N = M (16 items, 4 bits)",
       body(16, 4),
       {"0.999999", "0.000", "0.999447", "0.000", "7.500000", "0.875", "1.00"}},
      {"6 N = M + 1: pigeonhole",
       body(17, 4),
       {"1.000000", "0.000", "0.999797", "0.000", "8.500000", "0.929", "1.00"}},
      {"7 N > M",
       body(3, 1),
       {"1.000000", "0.000", "0.776870", "-0.110", "1.500000", "0.176", "1.00"}},
      {"8 birthday paradox, 8 bits",
       body(23, 8),
       {"0.638892", "-0.195", "0.627784", "-0.202", "0.988281", "-0.005", "1.57"}},
      {"9 last term-by-term N",
       body(1000, 20),
       {"0.379054", "-0.421", "0.378960", "-0.421", "0.476360", "-0.322", "2.64"}},
      {"10 first Stirling N",
       body(1001, 20),
       {"0.379647", "-0.421", "0.379552", "-0.421", "0.477314", "-0.321", "2.63"}},
      {"11 about 50 %, 32 bits",
       body(77163, 32),
       {"0.500000", "-0.301", "0.499998", "-0.301", "0.693143", "-0.159", "2.00"}},
      {"12 a billion UUIDv4",
       body(1e9, 122),
       {"0.000000", "-19.027", "0.000000", "-19.027", "0.000000", "-19.027",
        "10633823976913150000.00"}},
      {"13 a million 64-bit hashes",
       body(1e6, 64),
       {"0.000000", "-7.567", "0.000000", "-7.567", "0.000000", "-7.567", "36893525.54"}},
      {"14 2^32 + 1 items in 32 bits",
       body(4294967297, 32),
       {"1.000000", "0.000", "1.000000", "0.000", "2147483648.500000", "9.332", "1.00"}},
      {"15 beyond the exponent limit",
       body(100000, 20),
       {"1.000000", "0.000", "1.000000", "0.000", "4768.323898", "3.678", "1.00"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

// The exact product against references computed with 100+ significant digits
// (mpmath: 1 − exp(lnΓ(M+1) − lnΓ(M−N+1) − N·ln M)), on both sides of the method switch.
TEST(HashCollisionProbability, ExactProductMatchesHighPrecisionReferences) {
  struct Reference {
    double items;
    int bits;
    double probability;
  };
  const std::vector<Reference> references = {
      {300, 16, 0.49611216392770914},       {1000, 20, 0.37905436699322017},
      {1001, 20, 0.37964654689530335},      {2000, 24, 0.11232928268026087},
      {20000, 28, 0.52528436140747922},     {500000, 36, 0.83781054912855258},
      {10001, 40, 4.547824853313972e-5},    {123456, 48, 2.7073550803495516e-5},
      {1000000, 64, 2.7105026839742542e-8}, {1e9, 122, 9.4039547971743453e-20},
      {1e12, 128, 1.4693679385263889e-15},  {1e15, 256, 4.318084277547218e-48},
  };
  for (const auto& r : references) {
    SCOPED_TRACE(std::to_string(r.items) + " items, " + std::to_string(r.bits) + " bits");
    EXPECT_NEAR(outputs(r.items, r.bits).number("probability"), r.probability,
                1e-13 * r.probability);
  }
}

TEST(HashCollisionProbability, PigeonholeGivesCertainty) {
  for (int bits = 1; bits <= 30; ++bits) {
    SCOPED_TRACE(bits);
    const double space = std::ldexp(1.0, bits);
    // N = M + 1: certain, exactly.
    EXPECT_EQ(outputs(space + 1, bits).number("probability"), 1.0);
    // N = M: 1 − M!/M^M, below 1 (in double only while M!/M^M is above 2^−53, i.e. b ≤ 5).
    const double p = outputs(space, bits).number("probability");
    const double q = std::exp(std::lgamma(space + 1) - space * std::log(space));
    EXPECT_NEAR(p, 1 - q, 1e-12);
    if (bits <= 5) {
      EXPECT_LT(p, 1.0);
    }
  }
}

TEST(HashCollisionProbability, MethodSwitchIsContinuous) {
  // N = 10^3 is summed term by term, N = 10^3 + 1 through Stirling's series: the step
  // between them must be the true step, P(N+1) − P(N) = Q(N)·N/M, for any b.
  for (int bits = 10; bits <= 200; ++bits) {
    SCOPED_TRACE(bits);
    const double p0 = outputs(1000, bits).number("probability");
    const double p1 = outputs(1001, bits).number("probability");
    const double step = (1 - p0) * std::ldexp(1000.0, -bits);
    EXPECT_NEAR(p1 - p0, step, 1e-12 * p1 + 1e-300);
  }
}

TEST(HashCollisionProbability, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(1, 32)), "400:item_count:item_count must be at least 2");
  EXPECT_EQ(run_tool(tool(), body(100, 513)), "400:hash_bits:hash_bits must be at most 512");
  EXPECT_EQ(run_tool(tool(), body(100, 31.5)),
            "400:hash_bits:hash_bits must be an integer, got 31.5");
}

TEST(HashCollisionProbability, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(4122);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double items = std::round(tool_test::draw_number(d.inputs[0], rng));
    const double bits = std::round(tool_test::draw_number(d.inputs[1], rng));
    const auto out = outputs(items, bits);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double p = out.number("probability");
    const double pa = out.number("probability_approx");
    ASSERT_GT(p, 0);
    ASSERT_LE(p, 1);
    ASSERT_GT(pa, 0);
    ASSERT_LE(pa, 1);
    // ln(1 − x) ≤ −x: the exact no-collision product is at most exp(−pairs), so the exact
    // probability is never below the approximation (allow for rounding).
    ASSERT_GE(p, pa * (1 - 1e-12)) << items << " items, " << bits << " bits";
    ASSERT_NEAR(out.number("probability_log10"), std::log10(p), 1e-12);
    ASSERT_NEAR(out.number("collision_odds_one_in") * p, 1, 1e-12);
    ASSERT_NEAR(out.number("expected_colliding_pairs_log10"),
                std::log10(out.number("expected_colliding_pairs")), 1e-12);
    ASSERT_NEAR(out.number("expected_colliding_pairs"),
                items * (items - 1) / 2 / std::ldexp(1.0, static_cast<int>(bits)),
                1e-12 * out.number("expected_colliding_pairs"));
    // More items, higher probability; more bits, lower (while not already certain).
    if (items < 1e15) {
      const double p_more = outputs(items + 1, bits).number("probability");
      ASSERT_GE(p_more, p * (1 - 1e-13));
      if (p < 0.5 && items < 1e6) {
        ASSERT_GT(p_more, p);
      }
    }
    if (bits < 512 && p < 0.5) {
      ASSERT_LT(outputs(items, bits + 1).number("probability"), p);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
