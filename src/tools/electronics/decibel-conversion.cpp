// Decibel conversions: a power or amplitude ratio to dB and back, and the absolute levels
// dBm, dBW (power) and dBV, dBu (rms voltage) to watts and volts and back, with the power and
// voltage related through an impedance. Formula, constants, references and verification
// vectors: docs/tools/decibel-conversion.md.
#include <cmath>
#include <string>

#include "catalog/descriptor_builder.hpp"
#include "core/decimal.hpp"
#include "tools/tool_factories.hpp"

namespace toolcalc::tools {
namespace {

using namespace catalog;

// dBu's reference: the rms voltage that dissipates 1 mW in 600 Ω, √0.6 V = 0.7746 V, as the
// STX manual's Table 5 gives it (D. Self rounds it to 775 mV).
constexpr double kDbuReferenceV = 0.7746;
// Levels are limited to ±120 dB about the kind's reference, so that the linear outputs keep
// three significant digits at their fixed precision (1e-12 in power, 1e-6 in amplitude).
constexpr double kMaxLevelDb = 120;

enum class Kind { PowerRatio, AmplitudeRatio, Dbm, Dbw, Dbv, Dbu };

Kind kind_of(const std::string& q) {
  if (q == "amplitude-ratio") return Kind::AmplitudeRatio;
  if (q == "dBm") return Kind::Dbm;
  if (q == "dBW") return Kind::Dbw;
  if (q == "dBV") return Kind::Dbv;
  if (q == "dBu") return Kind::Dbu;
  return Kind::PowerRatio;
}

ToolDescriptor descriptor() {
  ToolDescriptor t;
  t.slug = "decibel-conversion";
  t.domain = "electronics";
  t.version = "1.0.0";
  t.name = "Decibel Conversion";
  t.description =
      "Converts between decibels and linear values: a power ratio (10·log) or a voltage or "
      "current ratio (20·log), and the absolute levels dBm and dBW (power) and dBV and dBu "
      "(rms voltage), with power and voltage related through an impedance.";
  t.standard = "IEC 60027-3:2002";
  t.inputs = {
      choice_input({.key = "quantity",
                    .label = "Kind of quantity",
                    .help = "power-ratio: P2/P1, 10·log10. amplitude-ratio: V2/V1 or I2/I1 (same "
                            "impedance), 20·log10. dBm: power re 1 mW; dBW: power re 1 W; dBV: "
                            "rms voltage re 1 V; dBu: rms voltage re 0.7746 V.",
                    .options = {"power-ratio", "amplitude-ratio", "dBm", "dBW", "dBV", "dBu"},
                    .default_value = "power-ratio"}),
      choice_input({.key = "direction",
                    .label = "Direction",
                    .help = "to-db: enter the ratio, power or voltage and get the level in dB. "
                            "from-db: enter the level in dB and get the linear values.",
                    .options = {"to-db", "from-db"},
                    .default_value = "to-db"}),
      number_input({.key = "level_db",
                    .label = "Level (from-db)",
                    .unit = "dB",
                    .help = "The level to convert when direction is from-db: dB for a ratio, "
                            "or dBm, dBW, dBV or dBu. ±120 dB about the reference at most.",
                    .min = -120,
                    .max = 120,
                    .step = 0.01,
                    .default_value = 3,
                    .required = false}),
      number_input({.key = "ratio",
                    .label = "Ratio (to-db, ratios)",
                    .unit = "",
                    .help = "The linear ratio to convert when direction is to-db and the "
                            "quantity is power-ratio or amplitude-ratio; above 1 is a gain, "
                            "below 1 a loss. At most ±120 dB (amplitude 1e-6 to 1e6).",
                    .min = 1e-12,
                    .max = 1e12,
                    .step = 0.001,
                    .default_value = 2,
                    .required = false}),
      number_input({.key = "power_w",
                    .label = "Power (to-db, dBm/dBW)",
                    .unit = "W",
                    .help = "The power to convert when direction is to-db and the quantity is "
                            "dBm or dBW: 0.001 W = 0 dBm = −30 dBW. −120 to +120 dB about the "
                            "reference.",
                    .min = 1e-15,
                    .max = 1e12,
                    .step = 0.001,
                    .default_value = 0.001,
                    .required = false}),
      number_input({.key = "voltage_v",
                    .label = "Rms voltage (to-db, dBV/dBu)",
                    .unit = "V",
                    .help = "The rms voltage to convert when direction is to-db and the "
                            "quantity is dBV or dBu: 1 V = 0 dBV = +2.21 dBu. −120 to +120 dB "
                            "about the reference.",
                    .min = 1e-7,
                    .max = 1e7,
                    .step = 0.001,
                    .default_value = 1,
                    .required = false}),
      number_input({.key = "impedance_ohm",
                    .label = "Impedance",
                    .unit = "Ω",
                    .help = "Resistance the power is delivered into, relating an absolute power "
                            "and voltage (P = V²/R): 50 Ω for RF, 75 Ω for video, 600 Ω for "
                            "classic audio lines. Not used for ratios.",
                    .min = 1,
                    .max = 10000,
                    .step = 1,
                    .default_value = 50,
                    .required = false}),
  };
  t.outputs = {
      number_output({.key = "level_db",
                     .label = "Level (dB, or dBm/dBW/dBV/dBu as chosen)",
                     .unit = "dB",
                     .precision = 3,
                     .small_values_in = "amplitude_ratio"}),
      number_output({.key = "power_ratio",
                     .label = "Power ratio (to the reference for an absolute level)",
                     .unit = "",
                     .precision = 4,
                     .small_values_in = "amplitude_ratio"}),
      number_output({.key = "amplitude_ratio",
                     .label = "Voltage/current ratio (to the reference for an absolute level)",
                     .unit = "",
                     .precision = 8}),
      number_output({.key = "power_w",
                     .label = "Power into the impedance (absolute levels; 0 for ratios)",
                     .unit = "W",
                     .precision = 4,
                     .small_values_in = "power_pw"}),
      number_output({.key = "power_pw",
                     .label = "Power into the impedance, in pW",
                     .unit = "pW",
                     .precision = 7}),
      number_output({.key = "voltage_v",
                     .label = "Rms voltage across the impedance (absolute levels; 0 for ratios)",
                     .unit = "V",
                     .precision = 4,
                     .small_values_in = "voltage_uv"}),
      number_output({.key = "voltage_uv",
                     .label = "Rms voltage across the impedance, in µV",
                     .unit = "µV",
                     .precision = 4}),
      number_output({.key = "dbm",
                     .label = "Level in dBm (absolute levels; 0 for ratios)",
                     .unit = "dBm",
                     .precision = 3,
                     .small_values_in = "power_w"}),
      number_output({.key = "dbv",
                     .label = "Level in dBV (absolute levels; 0 for ratios)",
                     .unit = "dBV",
                     .precision = 3,
                     .small_values_in = "voltage_v"}),
      number_output({.key = "dbu",
                     .label = "Level in dBu (absolute levels; 0 for ratios)",
                     .unit = "dBu",
                     .precision = 3,
                     .small_values_in = "voltage_v"}),
  };
  t.references = {
      "IEC 60027-3:2002, \"Letter symbols to be used in electrical technology — Part 3: "
      "Logarithmic and related quantities, and their units\": the level of a power quantity "
      "10·lg(P/P0) dB and of a field (root-power) quantity 20·lg(F/F0) dB, with the reference "
      "value stated",
      "ITU-R Recommendation V.574-5 (08/2015), \"Use of the decibel and the neper in "
      "telecommunications\", Annex 1, §1 (definition of the decibel), §6.1 (absolute power "
      "level: dBm, dBW) and §6.5 (absolute voltage level)",
      "D. Self, \"Small Signal Audio Design\", Focal Press, ch. 16.1 (External signal levels): "
      "dBu re 775 mV rms, the voltage of 1 mW in 600 Ω; dBV re 1.000 V rms",
      "STX manual, Acoustics Research Institute, Austrian Academy of Sciences, Table 5 "
      "\"Commonly used voltage and audio signal levels\": dBV = 20·log(Vx/1 V), dBm = "
      "10·log(Wx/1 mW), dBu = 20·log(Ux/0.7746 V)",
  };
  t.examples = {
      {.title = "22 dBm to watts",
       .request_json = R"({"quantity":"dBm","direction":"from-db","level_db":22})",
       .expected_json = R"({"power_w":0.158489})",
       .tolerance_pct = 0.001,
       .source = "Delta (shopdelta.eu), \"dBm – logarithmic power unit\" "
                 "(shopdelta.eu/dbm-logarithmic-power-unit_l2_aid773.html), Table 2: 22 dBm = "
                 "158,489 mW"},
      {.title = "−10 dBm in a 50 Ω system",
       .request_json =
           R"({"quantity":"dBm","direction":"from-db","level_db":-10,"impedance_ohm":50})",
       .expected_json = R"({"power_w":0.0001,"voltage_uv":70700})",
       .tolerance_pct = 0.1,
       .source = "\"Conversion of dBm to mW, Veff, Vp, Vpp\" (Optoelektronik table for "
                 "sinusoidal signals and R = 50 Ω, scribd document 755204476): −10 dBm = "
                 "100.0 µW, Veff = 70.7 mV"},
      {.title = "+4 dBu professional line level to volts",
       .request_json = R"({"quantity":"dBu","direction":"from-db","level_db":4})",
       .expected_json = R"({"voltage_v":1.2276})",
       .tolerance_pct = 0.01,
       .source = "STX manual (Acoustics Research Institute, Austrian Academy of Sciences, "
                 "kfs.oeaw.ac.at/stx/manual/html/461.htm), Table 5 \"Commonly used voltage and "
                 "audio signal levels\": +4 dBu = 10^(4/20) · 0.7746 V = 1.2276 V"},
      {.title = "+8 dBu to volts",
       .request_json = R"({"quantity":"dBu","direction":"from-db","level_db":8})",
       .expected_json = R"({"voltage_v":1.95})",
       .tolerance_pct = 0.3,
       .source = "D. Self, \"Small Signal Audio Design\", Focal Press, ch. 16.1 \"External "
                 "signal levels\": +8 dBu (1.95 Vrms), the input a Yamaha P7000S amplifier needs "
                 "for full output"},
      {.title = "−10 dBV consumer line level to volts",
       .request_json = R"({"quantity":"dBV","direction":"from-db","level_db":-10})",
       .expected_json = R"({"voltage_v":0.316})",
       .tolerance_pct = 0.1,
       .source = "STX manual (kfs.oeaw.ac.at/stx/manual/html/461.htm), Table 5: −10 dBV = "
                 "10^(−10/20) · 1 V = 0.316 V; also cinema8.com/glossary/line-level"},
      {.title = "0.5 dB as power and voltage ratios",
       .request_json = R"({"quantity":"power-ratio","direction":"from-db","level_db":0.5})",
       .expected_json = R"({"power_ratio":1.122,"amplitude_ratio":1.059})",
       .tolerance_pct = 0.05,
       .source = "WB6WUI, \"All about dB\" (otwc.net/no7rf/wb6wui/db.html), dB to ratio table: "
                 "0.5 dB = power ratio 1.122, voltage ratio 1.059"},
      {.title = "A voltage ratio of 1.228 (+4 dBu in dBV)",
       .request_json = R"({"quantity":"dBV","direction":"to-db","voltage_v":1.228})",
       .expected_json = R"({"level_db":1.8})",
       .tolerance_pct = 1,
       .source = "J. Vautin, \"+4 dBu / -10 dBV\" (jeffvautin.com/2009/06/4-dbu-10-dbv/): "
                 "20·log10(1.228/1) = 1.8 dBV (the source rounds to 0.1 dB)"},
  };
  return t;
}

std::string level_message(double level_db, const char* field) {
  std::string msg = "that is ";
  append_fixed(msg, level_db, 1);
  msg +=
      " dB about the reference, beyond ±120 dB, where the linear outputs would no longer keep "
      "three significant digits; enter a ";
  msg += field;
  msg += " within ±120 dB of the reference";
  return msg;
}

ComputeResult compute(const Inputs& in) {
  const Kind kind = kind_of(in.enumeration("quantity"));
  const bool to_db = in.enumeration("direction") == "to-db";
  const double z = in.number("impedance_ohm");
  const bool power_kind = kind == Kind::PowerRatio || kind == Kind::Dbm || kind == Kind::Dbw;
  // The reference of the chosen kind: 1 for a ratio, 1 mW, 1 W, 1 V or 0.7746 V.
  double reference = 1;
  if (kind == Kind::Dbm) reference = 1e-3;
  if (kind == Kind::Dbu) reference = kDbuReferenceV;

  double level_db = 0;
  if (!to_db) {
    level_db = in.number("level_db");
  } else {
    const char* field = "ratio";
    double linear = in.number("ratio");
    if (kind == Kind::Dbm || kind == Kind::Dbw) {
      field = "power_w";
      linear = in.number("power_w");
    } else if (kind == Kind::Dbv || kind == Kind::Dbu) {
      field = "voltage_v";
      linear = in.number("voltage_v");
    }
    level_db = (power_kind ? 10 : 20) * std::log10(linear / reference);
    if (std::fabs(level_db) > kMaxLevelDb) return ToolError{field, level_message(level_db, field)};
  }
  const double power_ratio = std::pow(10.0, level_db / 10);
  const double amplitude_ratio = std::pow(10.0, level_db / 20);

  Outputs out;
  out.set("level_db", level_db)
      .set("power_ratio", power_ratio)
      .set("amplitude_ratio", amplitude_ratio);
  if (kind == Kind::PowerRatio || kind == Kind::AmplitudeRatio) {
    // A ratio has no absolute level.
    out.set("power_w", 0.0).set("power_pw", 0.0).set("voltage_v", 0.0).set("voltage_uv", 0.0);
    out.set("dbm", 0.0).set("dbv", 0.0).set("dbu", 0.0);
    return out;
  }
  double power_w = 0, voltage_v = 0;
  if (power_kind) {
    power_w = reference * power_ratio;
    voltage_v = std::sqrt(power_w * z);
  } else {
    voltage_v = reference * amplitude_ratio;
    power_w = voltage_v * voltage_v / z;
  }
  out.set("power_w", power_w)
      .set("power_pw", power_w * 1e12)
      .set("voltage_v", voltage_v)
      .set("voltage_uv", voltage_v * 1e6)
      .set("dbm", 10 * std::log10(power_w / 1e-3))
      .set("dbv", 20 * std::log10(voltage_v))
      .set("dbu", 20 * std::log10(voltage_v / kDbuReferenceV));
  return out;
}

}  // namespace

Tool make_decibel_conversion() {
  return Tool{descriptor(), compute};
}

}  // namespace toolcalc::tools
