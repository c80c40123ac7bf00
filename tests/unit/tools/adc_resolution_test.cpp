// adc-resolution: the descriptor table, the worked examples of docs/tools/adc-resolution.md
// (expected texts copied from that page), every 422, and properties over random valid inputs.
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
  static const catalog::Tool t = make_adc_resolution();
  return t;
}

std::string body(double bits, double vref, double sinad, double enob) {
  return RequestBody()
      .number("bits", bits)
      .number("vref_v", vref)
      .number("sinad_db", sinad)
      .number("enob_bits", enob)
      .json();
}

TEST(AdcResolution, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "adc-resolution");
  EXPECT_EQ(d.domain, "iot-mcu");
  EXPECT_EQ(d.version, "2.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(d, {
                                  {"bits", InputType::Integer, "bits", 1, 32, 1, 12.0},
                                  {"vref_v", InputType::Number, "V", 0.1, 25, 0.1, 3.3},
                                  {"sinad_db", InputType::Number, "dB", 0, 200, 0.1, 0.0, false},
                                  {"enob_bits", InputType::Number, "bits", 0, 32, 0.01, 0.0, false},
                              });
  tool_test::expect_outputs(d, {
                                   {"code_count", OutputType::Number, "", 0},
                                   {"lsb_uv", OutputType::Number, "µV", 7},
                                   {"max_code_voltage_v", OutputType::Number, "V", 6},
                                   {"quantization_noise_uv_rms", OutputType::Number, "µV rms", 8},
                                   {"ideal_snr_db", OutputType::Number, "dB", 2},
                                   {"effective_bits", OutputType::Number, "bits", 2},
                                   {"effective_sinad_db", OutputType::Number, "dB", 2},
                                   {"effective_lsb_uv", OutputType::Number, "µV", 7},
                               });
}

TEST(AdcResolution, LeavingOutSinadAndEnobMeansIdeal) {
  EXPECT_EQ(run_tool(tool(), R"({"bits":12,"vref_v":3.3})"), run_tool(tool(), body(12, 3.3, 0, 0)));
}

struct WorkedExample {
  const char* name;
  std::string body;
  // codes, LSB, top code, noise, ideal SNR, ENOB, SINAD, effective LSB
  std::vector<std::string> expected;
};

// The "Worked examples" table of docs/tools/adc-resolution.md, row by row (the 422 rows are
// in the tests below).
TEST(AdcResolution, WorkedExamplesFromDocPage) {
  const std::vector<WorkedExample> rows = {
      {"1 defaults: ideal 12-bit, 3.3 V",
       body(12, 3.3, 0, 0),
       {"4096", "805.6640625", "3.299194", "232.57518168", "74.00", "12.00", "74.00",
        "805.6640625"}},
      {"2 every input at its minimum",
       body(1, 0.1, 0, 0),
       {"2", "50000.0000000", "0.050000", "14433.75672974", "7.78", "1.00", "7.78",
        "50000.0000000"}},
      {"3 bits and range at their maximum",
       body(32, 25, 0, 0),
       {"4294967296", "0.0058208", "25.000000", "0.00168031", "194.40", "32.00", "194.40",
        "0.0058208"}},
      {"4 SINAD equal to the 12-bit ideal, 74 dB",
       body(12, 3.3, 74, 0),
       {"4096", "805.6640625", "3.299194", "232.57518168", "74.00", "12.00", "74.00",
        "805.6640625"}},
      {"6 ENOB equal to N",
       body(12, 3.3, 0, 12),
       {"4096", "805.6640625", "3.299194", "232.57518168", "74.00", "12.00", "74.00",
        "805.6640625"}},
      {"9 SINAD 7.78 dB: exactly one effective bit",
       body(12, 3.3, 7.78, 0),
       {"4096", "805.6640625", "3.299194", "232.57518168", "74.00", "1.00", "7.78",
        "1650000.0000000"}},
      {"11 32 bits, SINAD at the ideal 194.4 dB",
       body(32, 25, 194.4, 0),
       {"4294967296", "0.0058208", "25.000000", "0.00168031", "194.40", "32.00", "194.40",
        "0.0058208"}},
      {"12 12-bit MCU ADC, datasheet ENOB 10.5",
       body(12, 3.3, 0, 10.5),
       {"4096", "805.6640625", "3.299194", "232.57518168", "74.00", "10.50", "64.97",
        "2278.7620878"}},
      {"13 16-bit SAR ADC, 5 V, SINAD 92 dB",
       body(16, 5, 92, 0),
       {"65536", "76.2939453", "4.999924", "22.02416493", "98.08", "14.99", "92.00",
        "153.6456851"}},
      {"14 24-bit sigma-delta, 2.5 V, ENOB 20",
       body(24, 2.5, 0, 20),
       {"16777216", "0.1490116", "2.500000", "0.04301595", "146.24", "20.00", "122.16",
        "2.3841858"}},
      {"15 8-bit, 5 V",
       body(8, 5, 0, 0),
       {"256", "19531.2500000", "4.980469", "5638.18622255", "49.92", "8.00", "49.92",
        "19531.2500000"}},
      {"16 the smallest step: 32 bits over 0.1 V",
       body(32, 0.1, 0, 0),
       {"4294967296", "0.0000233", "0.100000", "0.00000672", "194.40", "32.00", "194.40",
        "0.0000233"}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(run_tool(tool(), row.body), expected_result(tool(), row.expected));
  }
}

TEST(AdcResolution, SinadAndEnobTogetherIs422) {  // doc row 10
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 70, 11)),
            "422:enob_bits:give either sinad_db or enob_bits, not both: each determines the "
            "other (ENOB = (SINAD − 1.76)/6.02); send 0 or leave one out");
}

// Below one effective bit the figure describes no usable converter; SINAD 1.77 dB (0.0017
// bits, printed as 0.00) used to compute. Doc rows 8, 9 and 17.
TEST(AdcResolution, LessThanOneEffectiveBitIs422) {
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 7.77, 0)),
            "422:sinad_db:sinad_db of 7.77 dB leaves less than one effective bit (ENOB = (SINAD "
            "− 1.76)/6.02 < 1, SINAD < 7.78 dB): noise and distortion swamp even the most "
            "significant bit; check the figure (it is the ratio of a full-scale sine to all "
            "noise and distortion)");
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 1.77, 0)).rfind("422:sinad_db:", 0), 0u);
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 0.5, 0)).rfind("422:sinad_db:", 0), 0u);
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 0, 0.99)),
            "422:enob_bits:enob_bits of 0.99 is less than one effective bit: noise and "
            "distortion swamp even the most significant bit; check the figure, or send 0 if it "
            "is not given");
  // Exactly one bit computes, though (7.78 − 1.76)/6.02 may land an ulp below 1.
  EXPECT_EQ(tool_test::result_field(run_tool(tool(), body(1, 0.1, 7.78, 0)), "effective_bits"),
            "1.00");
}

// The smallest step in bounds, 23.3 pV, used to print as 0.0000 µV.
TEST(AdcResolution, SmallestStepKeepsItsDigits) {
  const std::string r = run_tool(tool(), body(32, 0.1, 0, 0));
  EXPECT_EQ(tool_test::result_field(r, "lsb_uv"), "0.0000233");
  EXPECT_EQ(tool_test::result_field(r, "quantization_noise_uv_rms"), "0.00000672");
}

TEST(AdcResolution, SinadAboveTheIdealIs422) {  // doc row 5
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 74.01, 0)),
            "422:sinad_db:sinad_db of 74.01 dB is above the ideal SNR of a 12-bit converter "
            "(74.00 dB = 6.02·N + 1.76): quantisation noise alone prevents it over the Nyquist "
            "band; check bits, or whether the figure includes oversampling or filtering gain");
  EXPECT_EQ(run_tool(tool(), body(32, 25, 200, 0)),
            "422:sinad_db:sinad_db of 200 dB is above the ideal SNR of a 32-bit converter "
            "(194.40 dB = 6.02·N + 1.76): quantisation noise alone prevents it over the Nyquist "
            "band; check bits, or whether the figure includes oversampling or filtering gain");
}

TEST(AdcResolution, EnobAboveBitsIs422) {  // doc row 7
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, 0, 12.01)),
            "422:enob_bits:enob_bits of 12.01 exceeds the converter's 12 bits: noise and "
            "distortion can only lose resolution, never add it; check bits");
}

TEST(AdcResolution, InvalidInputsAreRejectedBeforeCompute) {
  EXPECT_EQ(run_tool(tool(), body(12.5, 3.3, 0, 0)), "400:bits:bits must be an integer, got 12.5");
  EXPECT_EQ(run_tool(tool(), body(33, 3.3, 0, 0)), "400:bits:bits must be at most 32");
  EXPECT_EQ(run_tool(tool(), body(12, 3.3, -1, 0)), "400:sinad_db:sinad_db must be at least 0");
}

TEST(AdcResolution, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1241);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int draw = 0; draw < 4000; ++draw) {
    const double bits = std::uniform_int_distribution<int>(1, 32)(rng);
    const double vref = tool_test::draw_number(tool().descriptor.inputs[1], rng);
    // One of: ideal, a SINAD within the valid range, an ENOB within it.
    const int which = std::uniform_int_distribution<int>(0, 2)(rng);
    const double ideal_snr = 6.02 * bits + 1.76;
    const double sinad = which == 1 ? 7.78 + (ideal_snr - 7.78) * unit(rng) : 0;
    const double enob = which == 2 ? 1 + (bits - 1) * unit(rng) : 0;
    const auto result = compute_body(tool(), body(bits, vref, sinad, enob));
    ASSERT_TRUE(std::holds_alternative<catalog::Outputs>(result))
        << bits << " bits, SINAD " << sinad << ", ENOB " << enob;
    const auto& out = std::get<catalog::Outputs>(result);
    for (const auto& o : tool().descriptor.outputs)
      ASSERT_TRUE(std::isfinite(out.number(o.key))) << o.key;
    const double lsb = out.number("lsb_uv");
    ASSERT_NEAR(lsb * out.number("code_count"), vref * 1e6, 1e-9 * vref * 1e6);
    ASSERT_NEAR(out.number("max_code_voltage_v"), vref - lsb * 1e-6, 1e-12 * vref);
    // SINAD and ENOB are the two faces of one figure, and never better than ideal.
    const double effective = out.number("effective_bits");
    ASSERT_NEAR(out.number("effective_sinad_db"), 6.02 * effective + 1.76, 1e-9 * ideal_snr);
    ASSERT_LE(effective, bits + 1e-9);
    ASSERT_GE(effective, 1 - 1e-9);
    // Fewer effective bits → a coarser effective step, never finer than one LSB.
    ASSERT_GE(out.number("effective_lsb_uv"), lsb * (1 - 1e-12));
    // Each extra bit halves the LSB.
    if (bits < 32) {
      const auto finer = compute_body(tool(), body(bits + 1, vref, 0, 0));
      ASSERT_NEAR(std::get<catalog::Outputs>(finer).number("lsb_uv"), lsb / 2, 1e-12 * lsb);
    }
  }
}

}  // namespace
}  // namespace toolcalc::tools
