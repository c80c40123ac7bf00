// Password entropy: bits of a randomly generated password or passphrase (E = L·log2 N, for L
// symbols drawn from N characters or words) and the average brute-force time at a guess rate.
// Formula, bounds, references and worked examples: docs/tools/password-entropy.md.
#include <cmath>
#include <numbers>

#include "catalog/descriptor_builder.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

constexpr double kSPerJulianYear = 31557600;  // 365.25 days

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "password-entropy";
  t.domain = "programming-dev";
  t.version = "1.0.0";
  t.name = "Password and Passphrase Entropy";
  t.description =
      "Entropy in bits of a password or passphrase generated at random, E = L·log2 N for L "
      "characters from an alphabet of N (or L words from a list of N, as with Diceware's 7776), "
      "and the average time to brute-force it, half of the N^L possibilities, at a guess rate.";
  t.standard = std::nullopt;
  t.inputs = {
      integer_input({.key = "alphabet_size",
                     .label = "Alphabet or word-list size N",
                     .unit = "symbols",
                     .help = "Characters the generator picks from (10 digits, 26 lowercase, 62 "
                             "letters and digits, 95 printable ASCII) or words in the list "
                             "(7776 for Diceware); 2 to 65 536.",
                     .min = 2,
                     .max = 65536,
                     .step = 1,
                     .default_value = 62}),
      integer_input({.key = "length",
                     .label = "Length L",
                     .unit = "symbols",
                     .help = "Characters in the password, or words in the passphrase, 1 to 64.",
                     .min = 1,
                     .max = 64,
                     .step = 1,
                     .default_value = 16}),
      number_input({.key = "guesses_per_s",
                    .label = "Attacker's guess rate",
                    .unit = "1/s",
                    .help = "Guesses per second: about 10 (throttled online login), 10⁴ (bcrypt "
                            "offline), 10¹⁰–10¹² (fast hashes on GPUs); 1 to 10¹⁵.",
                    .min = 1,
                    .max = 1e15,
                    .step = 1,
                    .default_value = 10000000000}),
  };
  // The crack time spans from 1e-15 s to 1e300 years: seconds carry the years below 0.1, and
  // log10 carries the seconds below 0.1; where log10 has fewer than 3 digits (between 0.1 s and
  // 10 s) the seconds keep them.
  t.outputs = {
      number_output(
          {.key = "entropy_bits", .label = "Entropy E = L·log2 N", .unit = "bits", .precision = 2}),
      number_output({.key = "bits_per_symbol",
                     .label = "Bits per character or word, log2 N",
                     .unit = "bits",
                     .precision = 3}),
      number_output({.key = "combinations_log10",
                     .label = "log10 of the number of possible passwords N^L",
                     .unit = "",
                     .precision = 3}),
      number_output({.key = "average_crack_time_years",
                     .label = "Average brute-force time (half of N^L guesses)",
                     .unit = "years",
                     .precision = 3,
                     .small_values_in = "average_crack_time_s"}),
      number_output({.key = "average_crack_time_s",
                     .label = "Average brute-force time in seconds",
                     .unit = "s",
                     .precision = 3,
                     .small_values_in = "average_crack_time_log10_s"}),
      number_output({.key = "average_crack_time_log10_s",
                     .label = "log10 of the average brute-force time in seconds",
                     .unit = "log10(s)",
                     .precision = 2,
                     .small_values_in = "average_crack_time_s"}),
  };
  t.references = {
      "NIST SP 800-63B, \"Digital Identity Guidelines: Authentication and Lifecycle "
      "Management\", 2017, Appendix A \"Strength of Memorized Secrets\" (entropy of randomly "
      "chosen secrets; length over composition rules)",
      "A. G. Reinhold, \"The Diceware Passphrase Home Page\" (world.std.com/~reinhold/"
      "diceware.html), 1995–2014 (7776-word list, 12.9 bits per word, five and then six words)",
      "C. E. Shannon, \"A Mathematical Theory of Communication\", Bell System Technical Journal "
      "27, 1948 (entropy of L independent uniform choices among N: L·log2 N bits)",
  };
  t.examples = {
      {.title = "Diceware, five words",
       .request_json = R"({"alphabet_size":7776,"length":5,"guesses_per_s":1000000000000})",
       .expected_json = R"({"entropy_bits":64.6,"bits_per_symbol":12.9})",
       .tolerance_pct = 0.4,
       .source = "Wikipedia, \"Diceware\" (read in the devopscloud.io snippet): each word adds "
                 "12.9 bits (log2 6⁵); five words, 64.6 bits, Reinhold's 1995 minimum"},
      {.title = "Diceware, six words",
       .request_json = R"({"alphabet_size":7776,"length":6,"guesses_per_s":1000000000000})",
       .expected_json = R"({"entropy_bits":77.5})",
       .tolerance_pct = 0.1,
       .source = "Wikipedia, \"Diceware\" (read in the devopscloud.io snippet): six words, 77.5 "
                 "bits, Reinhold's recommendation since 2014"},
      {.title = "12 printable ASCII characters at 10¹² guesses per second",
       .request_json = R"({"alphabet_size":95,"length":12,"guesses_per_s":1000000000000})",
       .expected_json = R"({"entropy_bits":78.84,"average_crack_time_years":8500})",
       .tolerance_pct = 1,
       .source = "CalculatorHub \"Password Crack Time Calculator\" worked example "
                 "(calculatorhub.com/tools/password-crack-time-calculator): 12 characters of the "
                 "95 printable ASCII at 10¹² guesses/s, entropy 78.84 bits, average time about "
                 "8,500 years"},
      {.title = "8 letters and digits",
       .request_json = R"({"alphabet_size":62,"length":8,"guesses_per_s":10000000000})",
       .expected_json = R"({"entropy_bits":47.6})",
       .tolerance_pct = 0.1,
       .source = "orankit, \"Password entropy, length, and character classes\" "
                 "(orankit.com/en/blog/password-entropy): 8-char alphanumeric, 8 × log2(62) ≈ "
                 "47.6 bit"},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double n = in.number("alphabet_size");
  const double length = in.number("length");
  const double rate = in.number("guesses_per_s");
  const double bits_per_symbol = std::log2(n);
  const double entropy = length * bits_per_symbol;
  // Average time = N^L / 2 guesses at `rate`, in logarithms: N^L reaches 2^1024, past a
  // double, while the time itself stays below 2^1023 s at the slowest rate.
  const double log10_time_s =
      (entropy - 1) * std::numbers::log10e * std::numbers::ln2 - std::log10(rate);
  const double time_s = std::pow(10.0, log10_time_s);
  Outputs out;
  out.set("entropy_bits", entropy)
      .set("bits_per_symbol", bits_per_symbol)
      .set("combinations_log10", entropy * std::numbers::ln2 * std::numbers::log10e)
      .set("average_crack_time_years", time_s / kSPerJulianYear)
      .set("average_crack_time_s", time_s)
      .set("average_crack_time_log10_s", log10_time_s);
  return out;
}

}  // namespace

Tool make_password_entropy() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
