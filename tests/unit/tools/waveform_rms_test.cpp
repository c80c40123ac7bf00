// waveform-rms: descriptor, the published conversion factors of docs/tools/waveform-rms.md,
// DC offsets checked against direct numerical integration, and properties over random valid
// inputs. The tool has no 422 condition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
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
  static const catalog::Tool t = make_waveform_rms();
  return t;
}

const std::vector<std::string> kWaveforms = {"sine",
                                             "square",
                                             "triangle",
                                             "sawtooth",
                                             "pulse",
                                             "half-wave-rectified-sine",
                                             "full-wave-rectified-sine"};

std::string body(const std::string& waveform, double peak, double offset = 0, double duty = 50) {
  return RequestBody()
      .text("waveform", waveform)
      .number("peak_v", peak)
      .number("offset_v", offset)
      .number("duty_cycle_pct", duty)
      .json();
}

catalog::Outputs outputs(const std::string& request) {
  const auto result = compute_body(tool(), request);
  EXPECT_TRUE(std::holds_alternative<catalog::Outputs>(result));
  return std::get<catalog::Outputs>(result);
}

TEST(WaveformRms, DescriptorMatchesDocPage) {
  const auto& d = tool().descriptor;
  EXPECT_EQ(d.slug, "waveform-rms");
  EXPECT_EQ(d.domain, "electronics");
  EXPECT_EQ(d.version, "1.0.0");
  EXPECT_FALSE(d.standard.has_value());
  tool_test::expect_inputs(
      d, {
             {.key = "waveform",
              .type = InputType::Enum,
              .unit = std::nullopt,
              .default_value = std::string("sine"),
              .options = kWaveforms},
             {"peak_v", InputType::Number, "V", 0.01, 1000000, 0.01, 1.0},
             {"offset_v", InputType::Number, "V", -1000000, 1000000, 0.001, 0.0, false},
             {"duty_cycle_pct", InputType::Number, "%", 1, 99, 0.1, 50.0, false},
         });
  tool_test::expect_outputs(d, {
                                   {"rms_v", OutputType::Number, "V", 6},
                                   {"average_v", OutputType::Number, "V", 6},
                                   {"average_uv", OutputType::Number, "µV", 3},
                                   {"rectified_average_v", OutputType::Number, "V", 6},
                                   {"ac_rms_v", OutputType::Number, "V", 6},
                                   {"peak_magnitude_v", OutputType::Number, "V", 6},
                                   {"form_factor", OutputType::Number, "", 4},
                                   {"crest_factor", OutputType::Number, "", 4},
                               });
}

struct Factors {
  const char* waveform;
  double rms, rectified_average, form_factor, crest_factor, tolerance;
};

// Per volt of peak: Kuphaldt, "Lessons In Electric Circuits" Vol. II ch. 1 (sine 0.707 /
// 0.637 / 1.11; square 1 / 1 / 1 / 1; triangle and sawtooth 0.577 / 0.5 / 1.15); the
// Utilities Bunker table for the rectified sines (half-wave 0.500 / 0.318 / crest 2.000,
// full-wave 0.707 / 0.637 / 1.414). A factor of 0 is one the source does not print.
TEST(WaveformRms, PublishedConversionFactors) {
  const std::vector<Factors> rows = {
      {"sine", 0.707, 0.637, 1.11, 0, 1e-3},
      {"square", 1, 1, 1, 1, 0},
      {"triangle", 0.577, 0.5, 1.15, 0, 5e-3},
      {"sawtooth", 0.577, 0, 1.15, 0, 5e-3},
      {"half-wave-rectified-sine", 0.5, 0.318, 0, 2, 2e-3},
      {"full-wave-rectified-sine", 0.707, 0.637, 0, 1.414, 1e-3},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.waveform);
    for (double peak : {1.0, 10.0, 325.0}) {
      const auto out = outputs(body(row.waveform, peak));
      EXPECT_NEAR(out.number("rms_v"), row.rms * peak, row.rms * peak * row.tolerance + 1e-12);
      if (row.rectified_average > 0) {
        EXPECT_NEAR(out.number("rectified_average_v"), row.rectified_average * peak,
                    row.rectified_average * peak * row.tolerance + 1e-12);
      }
      if (row.form_factor > 0) {
        EXPECT_NEAR(out.number("form_factor"), row.form_factor, row.form_factor * row.tolerance);
      }
      if (row.crest_factor > 0) {
        EXPECT_NEAR(out.number("crest_factor"), row.crest_factor, row.crest_factor * row.tolerance);
      }
    }
  }
  // OpenStax College Physics 2e Example 20.9: 120 V RMS peaks at 170 V.
  EXPECT_NEAR(outputs(body("sine", 170)).number("rms_v"), 120, 0.25);
  // Redcrab's rectangular-pulse examples: 10 V at 20 % → 4.47 V RMS, 2.0 V mean; 5 V at 30 %
  // → 2.74 V, 1.5 V.
  const auto pulse20 = outputs(body("pulse", 10, 0, 20));
  EXPECT_NEAR(pulse20.number("rms_v"), 4.47, 0.005);
  EXPECT_NEAR(pulse20.number("average_v"), 2.0, 1e-12);
  const auto pulse30 = outputs(body("pulse", 5, 0, 30));
  EXPECT_NEAR(pulse30.number("rms_v"), 2.74, 0.005);
  EXPECT_NEAR(pulse30.number("average_v"), 1.5, 1e-12);
}

// Hand check: a sine of peak 1 V riding on +1 V: average 1 V, RMS √(1 + ½) = 1.224745 V, AC
// RMS 0.707107 V, peak |v| 2 V, rectified average 1 V (never negative), crest factor
// 2/1.224745 = 1.6330.
TEST(WaveformRms, HandCheckedOffsetSine) {
  EXPECT_EQ(run_tool(tool(), body("sine", 1, 1)),
            expected_result(tool(), {"1.224745", "1.000000", "1000000.000", "1.000000", "0.707107",
                                     "2.000000", "1.2247", "1.6330"}));
}

// The mean of |v| and of v² over one period by the midpoint rule, for comparison with the
// closed forms.
struct Numeric {
  double mean, mean_square, mean_abs, peak;
};

double sample(const std::string& waveform, double u, double duty) {  // u in [0, 1)
  const double theta = 2 * std::numbers::pi * u;
  if (waveform == "sine") return std::sin(theta);
  if (waveform == "square") return u < 0.5 ? 1 : -1;
  if (waveform == "triangle") return u < 0.5 ? 4 * u - 1 : 3 - 4 * u;
  if (waveform == "sawtooth") return 2 * u - 1;
  if (waveform == "pulse") return u < duty ? 1 : 0;
  if (waveform == "half-wave-rectified-sine") return std::max(0.0, std::sin(theta));
  return std::fabs(std::sin(theta));
}

Numeric integrate(const std::string& waveform, double peak, double offset, double duty) {
  const int n = 400000;
  Numeric r{0, 0, 0, 0};
  for (int k = 0; k < n; ++k) {
    const double v = peak * sample(waveform, (k + 0.5) / n, duty) + offset;
    r.mean += v;
    r.mean_square += v * v;
    r.mean_abs += std::fabs(v);
    r.peak = std::max(r.peak, std::fabs(v));
  }
  r.mean /= n;
  r.mean_square /= n;
  r.mean_abs /= n;
  return r;
}

TEST(WaveformRms, OffsetsMatchNumericalIntegration) {
  for (const auto& waveform : kWaveforms) {
    for (double offset : {-1.5, -1.0, -0.7, -0.3, 0.0, 0.2, 0.9, 2.0}) {
      for (double duty : {0.1, 0.5, 0.85}) {
        if (waveform != "pulse" && duty != 0.5) continue;
        SCOPED_TRACE(waveform + " offset " + std::to_string(offset) + " duty " +
                     std::to_string(duty));
        const auto out = outputs(body(waveform, 1, offset, duty * 100));
        const Numeric num = integrate(waveform, 1, offset, duty);
        EXPECT_NEAR(out.number("average_v"), num.mean, 1e-5);
        EXPECT_NEAR(out.number("rms_v"), std::sqrt(num.mean_square), 1e-5);
        EXPECT_NEAR(out.number("rectified_average_v"), num.mean_abs, 1e-5);
        EXPECT_NEAR(out.number("peak_magnitude_v"), num.peak, 1e-4);
      }
    }
  }
}

TEST(WaveformRms, PropertiesOverRandomValidInputs) {
  std::mt19937 rng(1914);
  const auto& d = tool().descriptor;
  for (int draw = 0; draw < 3000; ++draw) {
    const std::string& waveform = kWaveforms[draw % kWaveforms.size()];
    const double peak = tool_test::draw_number(d.inputs[1], rng);
    const double offset = tool_test::draw_number(d.inputs[2], rng) / 1000;
    const double duty = tool_test::draw_number(d.inputs[3], rng);
    const auto out = outputs(body(waveform, peak, offset, duty));
    const double rms = out.number("rms_v"), avg = out.number("average_v");
    const double rect = out.number("rectified_average_v"), ac = out.number("ac_rms_v");
    const double peak_abs = out.number("peak_magnitude_v");
    // |mean| ≤ mean|v| ≤ RMS ≤ peak, and RMS² = AC² + DC².
    ASSERT_LE(std::fabs(avg), rect * (1 + 1e-12));
    ASSERT_LE(rect, rms * (1 + 1e-12));
    ASSERT_LE(rms, peak_abs * (1 + 1e-12));
    ASSERT_NEAR(rms * rms, ac * ac + avg * avg, 1e-12 * rms * rms);
    ASSERT_GE(out.number("form_factor"), 1 - 1e-12);
    ASSERT_GE(out.number("crest_factor"), 1 - 1e-12);
    // The AC part does not depend on the offset.
    ASSERT_NEAR(ac, outputs(body(waveform, peak, 0, duty)).number("ac_rms_v"), 1e-12 * ac);
  }
}

}  // namespace
}  // namespace toolcalc::tools
