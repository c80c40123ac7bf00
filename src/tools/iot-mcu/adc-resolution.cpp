// ADC resolution: LSB size, quantisation noise, ideal SNR and the ENOB-limited resolution
// (issue 10). Formula, references and worked examples: docs/tools/adc-resolution.md.
#include <cmath>

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
// above N.
constexpr double kBitsTolerance = 1e-9;

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "adc-resolution";
  t.domain = "iot-mcu";
  t.version = "1.0.0";
  t.name = "ADC Resolution and ENOB";
  t.description =
      "LSB size, quantisation noise and ideal SNR of an N-bit ADC for a full-scale range, and "
      "the resolution it really delivers from a datasheet SINAD or ENOB.";
  t.standard = std::nullopt;

  InputDescriptor bits;
  bits.key = "bits";
  bits.label = "Resolution";
  bits.type = InputType::Integer;
  bits.unit = "bits";
  bits.help = "Nominal resolution N of the converter (12 for a typical MCU ADC).";
  bits.min = 1;
  bits.max = 32;
  bits.step = 1;
  bits.default_value = 12.0;

  auto number = [](std::string key, std::string label, std::string unit, std::string help,
                   double min, double max, double step, double def, bool required) {
    InputDescriptor in;
    in.key = std::move(key);
    in.label = std::move(label);
    in.type = InputType::Number;
    in.required = required;
    in.unit = std::move(unit);
    in.help = std::move(help);
    in.min = min;
    in.max = max;
    in.step = step;
    in.default_value = def;
    return in;
  };
  t.inputs = {
      bits,
      number("vref_v", "Full-scale range (reference voltage)", "V",
             "Input span the codes cover: VREF for a unipolar ADC (0 … VREF), 2·VREF for a "
             "bipolar ±VREF converter.",
             0.1, 25, 0.1, 3.3, true),
      number("sinad_db", "SINAD (optional)", "dB",
             "Signal-to-noise-and-distortion ratio from the datasheet, for a full-scale input. "
             "0 = not given. Give SINAD or ENOB, not both.",
             0, 200, 0.1, 0, false),
      number("enob_bits", "ENOB (optional)", "bits",
             "Effective number of bits from the datasheet. 0 = not given. Give SINAD or ENOB, "
             "not both.",
             0, 32, 0.01, 0, false),
  };
  auto out = [](std::string key, std::string label, std::string unit, int precision) {
    OutputDescriptor o;
    o.key = std::move(key);
    o.label = std::move(label);
    o.type = OutputType::Number;
    o.unit = std::move(unit);
    o.precision = precision;
    return o;
  };
  t.outputs = {
      out("code_count", "Number of codes 2^N", "", 0),
      out("lsb_uv", "LSB size", "µV", 4),
      out("max_code_voltage_v", "Voltage of the top code (full scale − 1 LSB)", "V", 6),
      out("quantization_noise_uv_rms", "Quantisation noise (LSB/√12)", "µV rms", 4),
      out("ideal_snr_db", "Ideal SNR (6.02·N + 1.76)", "dB", 2),
      out("effective_bits", "Effective number of bits", "bits", 2),
      out("effective_sinad_db", "SINAD", "dB", 2),
      out("effective_lsb_uv", "Effective resolution (full scale / 2^ENOB)", "µV", 4),
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
      {.title = "Defaults: ideal 12-bit ADC, 3.3 V full scale",
       .request_json = R"({"bits":12,"vref_v":3.3})"},
      {.title = "12-bit MCU ADC with a datasheet ENOB of 10.5",
       .request_json = R"({"bits":12,"vref_v":3.3,"enob_bits":10.5})"},
      {.title = "16-bit SAR ADC, 5 V, SINAD 92 dB",
       .request_json = R"({"bits":16,"vref_v":5,"sinad_db":92})"},
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
    if (sinad <= kSineDb) {
      std::string msg = "sinad_db of ";
      append_shortest(msg, sinad);
      msg +=
          " dB leaves no effective bits: ENOB = (SINAD − 1.76)/6.02 is zero or negative; check "
          "the figure (it is the ratio of a full-scale sine to all noise and distortion)";
      return ToolError{"sinad_db", std::move(msg)};
    }
    effective_bits = (sinad - kSineDb) / kDbPerBit;
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
