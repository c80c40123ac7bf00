// password-entropy: the descriptor table, the published examples of
// docs/tools/password-entropy.md (expected values from those sources), the page's
// worked-example rows, and properties over random valid inputs. The tool has no 422 condition.
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
using tool_test::result_field;
using tool_test::run_tool;

const catalog::Tool& tool() {
  static const catalog::Tool t = make_password_entropy();
  return t;
}

std::string body(double alphabet, double length, double rate) {
  return RequestBody()
      .number("alphabet_size", alphabet)
      .number("length", length)
      .number("guesses_per_s", rate)
      .json();
}

double field(const std::string& result, const char* key) {
  return std::stod(result_field(result, key));
}

TEST(PasswordEntropy, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "password-entropy");
  EXPECT_EQ(d.domain, "programming-dev");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d,
                           {
                               {"alphabet_size", InputType::Integer, "symbols", 2, 65536, 1, 62.0},
                               {"length", InputType::Integer, "symbols", 1, 64, 1, 16.0},
                               {"guesses_per_s", InputType::Number, "1/s", 1, 1e15, 1, 1e10},
                           });
  tool_test::expect_outputs(d,
                            {
                                {"entropy_bits", OutputType::Number, "bits", 2},
                                {"bits_per_symbol", OutputType::Number, "bits", 3},
                                {"combinations_log10", OutputType::Number, "", 3},
                                {"average_crack_time_years", OutputType::Number, "years", 3},
                                {"average_crack_time_s", OutputType::Number, "s", 3},
                                {"average_crack_time_log10_s", OutputType::Number, "log10(s)", 2},
                            });
}

// The published numbers, as their sources print them.
TEST(PasswordEntropy, ReproducesPublishedExamples) {
  // Diceware: 12.9 bits a word; five words 64.6 bits, six 77.5.
  const std::string five = run_tool(tool(), body(7776, 5, 1e12));
  EXPECT_NEAR(field(five, "bits_per_symbol"), 12.9, 0.05);
  EXPECT_NEAR(field(five, "entropy_bits"), 64.6, 0.05);
  EXPECT_NEAR(field(run_tool(tool(), body(7776, 6, 1e12)), "entropy_bits"), 77.5, 0.05);
  // CalculatorHub: 12 of 95 at 10^12/s, 78.84 bits, about 8,500 years on average.
  const std::string ascii = run_tool(tool(), body(95, 12, 1e12));
  EXPECT_NEAR(field(ascii, "entropy_bits"), 78.84, 0.005);
  EXPECT_NEAR(field(ascii, "average_crack_time_years"), 8500, 85);
  // orankit: 8 letters and digits, 47.6 bits.
  EXPECT_NEAR(field(run_tool(tool(), body(62, 8, 1e10)), "entropy_bits"), 47.6, 0.05);
}

struct WorkedExample {
  const char* name;
  std::string body;
  std::vector<std::string> expected;  // every output, in descriptor order
};

// The "Worked examples" table of docs/tools/password-entropy.md, row by row.
TEST(PasswordEntropy, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: 16 letters and digits at 10^10/s",
       body(62, 16, 1e10),
       {"95.27", "5.954", "28.678", "75532362579.574", "2383620085341158400.000", "18.38"}},
      {"2 Diceware, five words",
       body(7776, 5, 1e12),
       {"64.62", "12.925", "19.454", "0.450", "14215144.015", "7.15"}},
      {"3 Diceware, six words",
       body(7776, 6, 1e12),
       {"77.55", "12.925", "23.345", "3502.705", "110536959860.367", "11.04"}},
      {"4 12 printable ASCII at 10^12/s",
       body(95, 12, 1e12),
       {"78.84", "6.570", "23.733", "8561.489", "270180043831.320", "11.43"}},
      {"5 8 letters and digits",
       body(62, 8, 1e10),
       {"47.63", "5.954", "14.339", "0.000", "10917.005", "4.04"}},
      {"6 one bit at 10^15/s",
       body(2, 1, 1e15),
       {"1.00", "1.000", "0.301", "0.000", "0.000", "-15.00"}},
      {"7 every number at its maximum, one guess a second",
       body(65536, 64, 1),
       {"1024.00", "16.000", "308.255",
        "284827289600953500000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "0000000000000000000000000000000.000",
        "898846567431105000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "00000000000000000000000000000000000000.000",
        "307.95"}},
      {"8 4-digit PIN, 10 guesses a second",
       body(10, 4, 10),
       {"13.29", "3.322", "4.000", "0.000", "500.000", "2.70"}},
      {"9 12 BIP-39 words at 10^12/s",
       body(2048, 12, 1e12),
       {"132.00", "11.000", "39.736", "86263180196449240000.000",
        "2722258935367466400000000000.000", "27.43"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(PasswordEntropy, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(1, 8, 1e10)),
            "400:alphabet_size:alphabet_size must be at least 2");
  EXPECT_EQ(run_tool(tool(), body(95, 65, 1e10)), "400:length:length must be at most 64");
}

TEST(PasswordEntropy, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1995);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const double n = std::round(tool_test::draw_number(d.inputs[0], rng));
    const double length = std::round(tool_test::draw_number(d.inputs[1], rng));
    const double rate = tool_test::draw_number(d.inputs[2], rng);
    const auto result = compute_body(tool(), body(n, length, rate));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result));  // never a 422
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : d.outputs) ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double bits = out.number("entropy_bits");
    ASSERT_NEAR(bits, length * std::log2(n), 1e-9 * bits);
    // Each extra symbol adds log2 N bits; a thousand times the guess rate takes 3 off log10.
    if (length < 64) {
      const auto longer =
          std::get<catalog::Outputs>(compute_body(tool(), body(n, length + 1, rate)));
      ASSERT_NEAR(longer.number("entropy_bits") - bits, std::log2(n), 1e-9 * bits);
    }
    if (rate <= 1e12) {
      const auto faster =
          std::get<catalog::Outputs>(compute_body(tool(), body(n, length, rate * 1000)));
      ASSERT_NEAR(
          out.number("average_crack_time_log10_s") - faster.number("average_crack_time_log10_s"), 3,
          1e-9 * std::fabs(out.number("average_crack_time_log10_s")) + 1e-9);
    }
    // The three time outputs are one quantity: years = s / 31 557 600, log10 of the seconds.
    const double s = out.number("average_crack_time_s");
    ASSERT_NEAR(out.number("average_crack_time_years") * 31557600, s, 1e-9 * s);
    ASSERT_NEAR(std::log10(s), out.number("average_crack_time_log10_s"), 1e-9 * bits + 1e-12);
  }
}

}  // namespace
}  // namespace toolcalc::tools
