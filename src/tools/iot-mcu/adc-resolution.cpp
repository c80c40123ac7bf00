// ADC resolution: LSB size, quantisation noise, ideal SNR and the ENOB-limited resolution.
// Formula, references and worked examples: docs/tools/adc-resolution.md.
#include <cmath>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// Ideal N-bit quantiser driven by a full-scale sine: SNR = 6.02·N + 1.76 dB (Kester, ADI
// MT-001), and its inverse ENOB = (SINAD − 1.76)/6.02 (ADI MT-003). The rounded coefficients
// are the industry's, so ENOB = N exactly when SINAD equals the ideal SNR.
constexpr double kDbPerBit = 6.02;
constexpr double kSineDb = 1.76;
// SINAD is a measured decimal; (SINAD − 1.76)/6.02 of the ideal figure may land an ulp
// above N (or below 1 bit at SINAD = 7.78 dB).
constexpr double kBitsTolerance = 1e-9;
// Below one effective bit the converter resolves less than its most significant bit: noise
// and distortion exceed a full-scale sine's power over 1.5 (SINAD < 7.78 dB), and the figure
// describes no usable converter (docs, "Bounds and why").
constexpr double kMinEffectiveBits = 1;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "adc-resolution";
  t.domain = "iot-mcu";
  t.version = "2.0.0";
  t.name = "ADC Resolution and ENOB";
  t.description =
      "LSB size, quantisation noise and ideal SNR of an N-bit ADC for a full-scale range, and "
      "the resolution it really delivers from a datasheet SINAD or ENOB.";
  t.standard = std::nullopt;
  t.inputs = {
      integer_input({.key = "bits",
                     .label = "Resolution",
                     .unit = "bits",
                     .help = "Nominal resolution N of the converter (12 for a typical MCU ADC).",
                     .min = 1,
                     .max = 32,
                     .step = 1,
                     .default_value = 12}),
      number_input({.key = "vref_v",
                    .label = "Full-scale range (reference voltage)",
                    .unit = "V",
                    .help = "Input span the codes cover: VREF for a unipolar ADC (0 … VREF), "
                            "2·VREF for a bipolar ±VREF converter.",
                    .min = 0.1,
                    .max = 25,
                    .step = 0.1,
                    .default_value = 3.3}),
      number_input({.key = "sinad_db",
                    .label = "SINAD (optional)",
                    .unit = "dB",
                    .help = "Signal-to-noise-and-distortion ratio from the datasheet, for a "
                            "full-scale input over the Nyquist band. 0 = not given. Give SINAD or "
                            "ENOB, not both; from 7.78 dB (1 effective bit) up to the ideal "
                            "6.02·N + 1.76 dB.",
                    .min = 0,
                    .max = 200,
                    .step = 0.1,
                    .default_value = 0,
                    .required = false}),
      number_input({.key = "enob_bits",
                    .label = "ENOB (optional)",
                    .unit = "bits",
                    .help = "Effective number of bits from the datasheet. 0 = not given. Give "
                            "SINAD or ENOB, not both; from 1 bit up to N.",
                    .min = 0,
                    .max = 32,
                    .step = 0.01,
                    .default_value = 0,
                    .required = false}),
  };
  // µV with 7 decimals (8 for the noise, 1/√12 of a step) keep 3 significant digits down to
  // the smallest step in bounds, 0.1 V / 2³² = 23.3 pV.
  t.outputs = {
      number_output(
          {.key = "code_count", .label = "Number of codes 2^N", .unit = "", .precision = 0}),
      number_output({.key = "lsb_uv", .label = "LSB size", .unit = "µV", .precision = 7}),
      number_output({.key = "max_code_voltage_v",
                     .label = "Voltage of the top code (full scale − 1 LSB)",
                     .unit = "V",
                     .precision = 6}),
      number_output({.key = "quantization_noise_uv_rms",
                     .label = "Quantisation noise (LSB/√12)",
                     .unit = "µV rms",
                     .precision = 8}),
      number_output({.key = "ideal_snr_db",
                     .label = "Ideal SNR (6.02·N + 1.76)",
                     .unit = "dB",
                     .precision = 2}),
      number_output({.key = "effective_bits",
                     .label = "Effective number of bits",
                     .unit = "bits",
                     .precision = 2}),
      number_output({.key = "effective_sinad_db", .label = "SINAD", .unit = "dB", .precision = 2}),
      number_output({.key = "effective_lsb_uv",
                     .label = "Effective resolution (full scale / 2^ENOB)",
                     .unit = "µV",
                     .precision = 7}),
  };
  t.references = {
      "W. Kester, Analog Devices tutorial MT-001 \"Taking the Mystery out of the Infamous "
      "Formula, SNR = 6.02N + 1.76dB, and Why You Should Care\" (2009): quantisation noise "
      "q/√12 and the ideal SNR of an N-bit ADC",
      "W. Kester, Analog Devices tutorial MT-003 \"Understand SINAD, ENOB, SNR, THD, THD + N, "
      "and SFDR so You Don't Get Lost in the Noise Floor\" (2009): ENOB = (SINAD − 1.76)/6.02",
      "IEEE Std 1241-2010, \"Standard for Terminology and Test Methods for Analog-to-Digital "
      "Converters\" (definitions of SINAD and ENOB)",
  };
  t.examples = {
      {.title = "Ideal 12-bit ADC, 3.3 V full scale",
       .request_json = R"({"bits":12,"vref_v":3.3})",
       .expected_json = R"({"code_count":4096,"lsb_uv":806,"quantization_noise_uv_rms":233,)"
                        R"("ideal_snr_db":74.0})",
       .tolerance_pct = 0.2,
       .source = "The Prime Calculator, \"Quantization Noise\" formula page "
                 "(theprimecalculator.com/it/electronics/quantization-noise-calc/formula, "
                 "English text), worked example \"A 12-bit ADC with 3.3 V full-scale range\": "
                 "ideal SNR 74.0 dB, LSB 0.806 mV, quantization noise RMS 0.233 mV, 4096 levels"},
      {.title = "12-bit ADC with a SINAD of 68 dB",
       .request_json = R"({"bits":12,"vref_v":3.3,"sinad_db":68})",
       .expected_json = R"({"effective_bits":11})",
       .tolerance_pct = 0.1,
       .source = "VBat Power, \"ADC Theoretical SNR\" (vbatpower.com/formulas/adc-snr), "
                 "practical notes: \"A 12-bit ADC with SINAD of 68 dB has ENOB of 11 bits\""},
      {.title = "SINAD of 60 dB",
       .request_json = R"({"bits":12,"vref_v":3.3,"sinad_db":60})",
       .expected_json = R"({"effective_bits":9.67})",
       .tolerance_pct = 0.05,
       .source = "3roam, \"dB to Effective Bits Calculator\" (3roam.com/"
                 "db-to-effective-bits-calculator/), example calculation: \"For a SINAD of "
                 "60 dB, the ENOB is equal to 9.67\""},
  };
  return t;
}

ComputeResult compute(const Inputs& in) {
  const double bits = in.number("bits");
  const double full_scale = in.number("vref_v");
  const double sinad = in.number("sinad_db");
  const double enob = in.number("enob_bits");
  const double ideal_snr = kDbPerBit * bits + kSineDb;
  if (sinad > 0 && enob > 0)
    return ToolError{"enob_bits",
                     "give either sinad_db or enob_bits, not both: each determines the other "
                     "(ENOB = (SINAD − 1.76)/6.02); send 0 or leave one out"};
  double effective_bits = bits;
  double effective_sinad = ideal_snr;
  if (sinad > 0) {
    effective_bits = (sinad - kSineDb) / kDbPerBit;
    if (effective_bits < kMinEffectiveBits - kBitsTolerance) {
      std::string msg = "sinad_db of ";
      append_shortest(msg, sinad);
      msg +=
          " dB leaves less than one effective bit (ENOB = (SINAD − 1.76)/6.02 < 1, SINAD < "
          "7.78 dB): noise and distortion swamp even the most significant bit; check the figure "
          "(it is the ratio of a full-scale sine to all noise and distortion)";
      return ToolError{"sinad_db", std::move(msg)};
    }
    if (effective_bits > bits + kBitsTolerance) {
      std::string msg = "sinad_db of ";
      append_shortest(msg, sinad);
      msg += " dB is above the ideal SNR of a ";
      append_shortest(msg, bits);
      msg += "-bit converter (";
      append_fixed(msg, ideal_snr, 2);
      msg +=
          " dB = 6.02·N + 1.76): quantisation noise alone prevents it over the Nyquist band; "
          "check bits, or whether the figure includes oversampling or filtering gain";
      return ToolError{"sinad_db", std::move(msg)};
    }
    effective_sinad = sinad;
  } else if (enob > 0) {
    if (enob < kMinEffectiveBits) {
      std::string msg = "enob_bits of ";
      append_shortest(msg, enob);
      msg +=
          " is less than one effective bit: noise and distortion swamp even the most "
          "significant bit; check the figure, or send 0 if it is not given";
      return ToolError{"enob_bits", std::move(msg)};
    }
    if (enob > bits) {
      std::string msg = "enob_bits of ";
      append_shortest(msg, enob);
      msg += " exceeds the converter's ";
      append_shortest(msg, bits);
      msg += " bits: noise and distortion can only lose resolution, never add it; check bits";
      return ToolError{"enob_bits", std::move(msg)};
    }
    effective_bits = enob;
    effective_sinad = kDbPerBit * enob + kSineDb;
  }
  const double codes = std::exp2(bits);
  const double lsb_v = full_scale / codes;
  Outputs out;
  out.set("code_count", codes)
      .set("lsb_uv", lsb_v * 1e6)
      .set("max_code_voltage_v", full_scale * (codes - 1) / codes)
      .set("quantization_noise_uv_rms", lsb_v / std::sqrt(12.0) * 1e6)
      .set("ideal_snr_db", ideal_snr)
      .set("effective_bits", effective_bits)
      .set("effective_sinad_db", effective_sinad)
      .set("effective_lsb_uv", full_scale / std::exp2(effective_bits) * 1e6);
  return out;
}

}  // namespace

Tool make_adc_resolution() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
